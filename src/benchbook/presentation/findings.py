"""Each finding said once on a page: the claims the bottom-line box holds are not repeated in the
prose, and the claims an input cannot support go to one folded list where a reason they share is
said once.

A chapter's prose places `say_<id>` (its claim's sentence where the page shows it, else nothing) and
`withheld_list` (the folded list's Markdown, empty when nothing is withheld).
"""

from __future__ import annotations

from benchbook.claims import Ledger
from benchbook.presentation import bottom_line


def _negative(c) -> bool:
    """An anomaly looked for and not found: withheld as a verdict, but what its sentence says (no
    instance) is a finding the page states."""
    return c.status == "withheld" and c.kind == "anomaly" and c.reason == "no instance found"


def in_prose(ledger: Ledger) -> dict[str, str]:
    """`say_<id>` -> the claim's sentence, for every shown (or implausible: a warning) claim the
    bottom-line box does not hold, and for every anomaly looked for and not found; "" for the boxed,
    the other withheld and the not applicable ones."""
    boxed = {c["id"] for c in bottom_line.pick(ledger)}
    return {
        f"say_{c.id}": c.text if c.applicable and (c.status != "withheld" or _negative(c)) and c.id not in boxed else ""
        for c in ledger.claims
    }


def withheld(ledger: Ledger) -> list[str]:
    """The withheld claims (applicable to the input, not in the box) as list items. A reason two or
    more sentences give (the claim's own reason in its sentence, or what follows a sentence's last
    colon) is said once, as the item's lead, followed by what each of them withholds; the others are
    items of their own."""
    boxed = {c["id"] for c in bottom_line.pick(ledger)}
    held = [
        c
        for c in ledger.claims
        if c.status == "withheld" and not _negative(c) and c.applicable and c.id not in boxed and c.text
    ]
    groups: dict[str, list[tuple[str, str]]] = {}
    for c in held:
        text = " ".join(c.text.split())
        if c.reason and c.reason in text:
            key, head = c.reason, _without(text, c.reason)
        elif ": " in text:
            head, key = text.rsplit(": ", 1)
            key = key.rstrip(".")
        else:
            key, head = text, text
        groups.setdefault(key, []).append((head, text))
    items = []
    for key, group in groups.items():
        if len(group) == 1:
            items.append(group[0][1])
            continue
        heads = list(dict.fromkeys(h.rstrip(".") + "." for h, _ in group))
        items.append(f"Not stated for this input, because {key}:\n" + "\n".join(f"  - {h}" for h in heads))
    return list(dict.fromkeys(items))


def _without(text: str, reason: str) -> str:
    """`text` with its statement of `reason` replaced by a pointer to the lead that states it (the
    book's default sentence, "<topic>: not stated for this input, because <reason>.", by its topic alone)."""
    tail = f": not stated for this input, because {reason}."
    if text.endswith(tail):
        return text[: -len(tail)]
    for form in (f", because {reason}", f" because {reason}", reason):
        if form in text:
            return text.replace(form, " for that reason" if form != reason else "for that reason", 1)
    return text


def withheld_markdown(ledger: Ledger) -> str:
    """The folded list's body: one bullet per item of `withheld`, or "" when nothing is withheld."""
    return "\n".join(f"- {t}" if "\n" in t else f"- {' '.join(t.split())}" for t in withheld(ledger))


#: The folded list's title.
FOLDED_TITLE = "Verdicts this input cannot support, and why"


def folded(ledger: Ledger) -> str:
    """The folded list as a MyST dropdown admonition, or "" when nothing is withheld."""
    body = withheld_markdown(ledger)
    if not body:
        return ""
    return f":::{{admonition}} {FOLDED_TITLE}\n:class: dropdown\n\n{body}\n:::\n"
