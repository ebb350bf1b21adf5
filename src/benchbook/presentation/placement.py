"""Where each claim of a ledger goes on its page, so that each is said once: the bottom line's claims
only in the box, the other shown claims in their sections, and what the input cannot decide in one
folded list, a reason several claims share said once."""

from __future__ import annotations

import re

from benchbook.presentation import bottom_line

#: Withheld for one of these reasons, a claim is a finding (none found), not a gap: it stays in place.
FINDINGS = ("no instance found",)


def undecided(claim) -> bool:
    """A claim the input cannot decide: withheld, applicable to the format, and not a finding."""
    return claim.status == "withheld" and claim.applicable and claim.reason not in FINDINGS


def in_place(ledger, skip=frozenset()) -> dict[str, str]:
    """`here_<id>` -> the claim's sentence where its section places it: empty when the box says it,
    it belongs in the folded list (`folded`), or the page says it elsewhere (`skip`); the sentences the
    box cuts from a long answer (`bottom_line.rest`) where the box says the rest."""
    boxed = {c["id"] for c in bottom_line.pick(ledger)} | set(skip)
    left = bottom_line.rest(ledger)
    return {
        f"here_{c.id}": left.get(c.id, "") if c.id in boxed else "" if undecided(c) or not c.applicable else c.text
        for c in ledger.claims
    }


def folded(ledger, skip=frozenset(), extra=(), said=None) -> str:
    """Markdown bullets of what the input cannot decide (those the box answers with and those the page
    says elsewhere (`skip`) left out): a claim alone in its reason, or worded in its own terms, by its
    own sentence; several whose sentences give one reason as one line naming them, that reason said
    once (or not again, where the box's answer is a figure withheld for it: `SAID_ABOVE`, or where a
    paragraph of the page says it: `said`, reason -> the words the lead refers to it with); then the
    `extra` sentences a chapter adds. The box lists none of them (`bottom_line.pick`)."""
    said = said or {}
    picked = bottom_line.pick(ledger)
    boxed = {c["id"] for c in picked} | set(skip)
    box_reasons = {c["reason"] for c in picked if c["status"] == "withheld" and c.get("reason")}
    groups: dict[str, list] = {}
    for c in ledger.claims:
        if undecided(c) and c.id not in boxed:
            # a sentence that says its reason is grouped with others of that reason; one worded in its own
            # terms (its rule's reason is not what it tells the reader) stands alone
            groups.setdefault(c.reason if c.reason and c.reason in c.text else f"\0{c.id}", []).append(c)
    lines = []
    for reason, claims in groups.items():
        if len(claims) == 1 and reason not in box_reasons and reason not in said or reason.startswith("\0"):
            lines.append(f"- {' '.join(claims[0].text.split())}")
            continue
        why = said.get(reason) or (SAID_ABOVE if reason in box_reasons else f"because {reason}")
        heads = dict.fromkeys(_without(" ".join(c.text.split()), reason) for c in claims)
        lines.append(f"- Not stated, {why}:\n" + "\n".join(f"  - {h}" for h in heads))
    lines += [f"- {' '.join(t.split())}" for t in extra if t.strip()]
    return "\n".join(dict.fromkeys(lines))


#: How a withheld claim's sentence closes when it names what is not stated ("...; its share of a peak
#: is not stated"): under the group's lead ("Not stated, because ...:") it names that alone.
_NOT_STATED = re.compile(r" (?:is|are) not stated\.$")


def _without(text: str, reason: str) -> str:
    """A withheld claim's sentence with its statement of `reason` taken out (the group's lead says it
    once), keeping what the sentence states of the input: the book's default "<topic>: not stated for
    this input, because <reason>." is its topic alone, and a sentence that closes "... is not stated"
    names what is not stated without saying so again (tp_scaling's "its share of a peak")."""
    tail = f": not stated for this input, because {reason}."
    if text.endswith(tail):
        return text[: -len(tail)] + "."
    for form in (f", because {reason}", f" because {reason}"):
        if form in text:
            return _NOT_STATED.sub(".", text.replace(form, "", 1))
    return text


#: What the folded list says of claims withheld for the reason the box's answer (a measured figure
#: whose verdict waits, `bottom_line.pick`) already gives.
SAID_ABOVE = "for the reason the bottom line gives"


#: The heading of the folded list.
FOLDED_TITLE = "What this input cannot decide"


def folded_box(ledger, skip=frozenset(), extra=(), said=None) -> str:
    """`folded` inside a dropdown admonition (MyST), or nothing when the input decides every claim."""
    body = folded(ledger, skip, extra, said)
    return f":::{{admonition}} {FOLDED_TITLE}\n:class: dropdown\n\n{body}\n:::\n" if body else ""
