"""The answer first: each chapter's bottom-line box and the front page's findings, both read from
the chapter's ledger, so that on any input they say that input's verdicts (or that it has none).

A chapter's declaration names its most important claims, in order (`Box.leads`); the box shows the
first shown ones (their answers at most `Box.sentences` sentences), their caveats on one line after
the answers. What the input cannot decide is the page's folded list's (`placement.folded`), never
the box's (issue 34 item 6: withheld claims in one list, a reason they share said once).
"""

from __future__ import annotations

import re

from benchbook.declarations import BY_NAME, Box

#: A claim the box takes only where the ledger lacks its sibling of another configuration: one measured
#: configuration's figure answers "what does a token cost" when it is the only one; beside others it is one
#: row of many (the spread and the cheapest answer then), and the first of them is not the answer. A sibling
#: of the same run (its CPU's energy beside its GPU's, CodeCarbon's rows) is the same configuration.
ONLY_ALONE = {"measured_0": re.compile(r"measured_\d+")}


def _alone(cid: str, by_id: dict) -> bool:
    """Whether `cid` has no sibling (`ONLY_ALONE`) of another configuration: another file or run."""
    siblings = ONLY_ALONE.get(cid)
    if siblings is None:
        return True
    of = [(by_id[k].get("evidence") or {}) for k in by_id if k == cid or siblings.fullmatch(k)]
    return len(of) == 1 or (
        all(e.get("run") is not None for e in of) and len({(e.get("source"), e.get("run")) for e in of}) == 1
    )


#: Claims that qualify every answer the box gives rather than answer it (the comparisons' confound):
#: shown, they stand on the caveat line after the answers and take none of the answer's sentences.
QUALIFIERS = {"confound"}
#: Where one sentence ends and the next opens: a stop, then a capital, a code span or a bracket.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*(\"'])")
#: How many of a chapter's leading claims a box accounts for even when withheld.
LEADING = 3


def _claims(ledger) -> list[dict]:
    """The claims of a Ledger or of its dict (a _build/claims/*.json file), as dicts."""
    if isinstance(ledger, dict):
        return list(ledger.get("claims", []))
    return [c.to_dict() for c in ledger.claims]


def _chapter(ledger) -> str:
    return ledger.get("chapter", "") if isinstance(ledger, dict) else ledger.chapter


def box_of(chapter: str) -> Box:
    """The chapter's box as its declaration gives it (a chapter the book does not declare: no leads)."""
    return BY_NAME[chapter].box if chapter in BY_NAME else Box()


def _usable(c: dict | None) -> bool:
    """A claim with a sentence that applies to this input's format (one that cannot apply is not
    withheld from it, and no box says it)."""
    return c is not None and bool(c.get("text")) and (c.get("evidence") or {}).get("applicable") is not False


def pick(ledger, ids: list[str] | None = None) -> list[dict]:
    """The claims a box shows, in priority order: the leading shown claims while their answers fit in
    the chapter's sentences (the first always, cut if it must), a shown qualifier (QUALIFIERS) with
    them, never alone. Where none of the leads is shown, the answers the page gives instead: its other
    shown claims (ledger order), else the first withheld claim that still states a figure the input
    measured (`rules.states_figure`: its number, and why its verdict waits), leads first. A withheld claim is
    never the box's: the folded list says it (`placement.folded`), its reason once. A leading claim
    beyond physics (`implausible`) follows the answers as a warning."""
    from benchbook.claims.rules import states_figure

    spec = box_of(_chapter(ledger))
    ids = list(spec.leads) if ids is None else ids
    most = spec.sentences
    by_id = {c["id"]: c for c in _claims(ledger)}
    leads = [by_id[cid] for cid in ids if _usable(by_id.get(cid)) and _alone(cid, by_id)]
    warnings = [c for c in leads[:LEADING] if c["status"] == "implausible"]
    answers = [c for c in leads if c["status"] == "shown" and c["id"] not in QUALIFIERS]
    if answers:
        taken = {c["id"] for c in _fit(answers, most)} | QUALIFIERS
        return [c for c in leads if c["status"] == "shown" and c["id"] in taken] + warnings
    # a lead's siblings (`ONLY_ALONE`) that are other configurations' rows are no answer either: neither the first
    # nor the next (CodeCarbon's five runs: the second row, the first run's CPU, is no more the answer)
    family = [ONLY_ALONE[cid] for cid in ids if cid in ONLY_ALONE and not _alone(cid, by_id)]
    rest = [
        c for c in by_id.values() if _usable(c) and c["id"] not in ids and not any(f.fullmatch(c["id"]) for f in family)
    ]
    figures = [c for c in [*leads, *rest] if states_figure(c)]
    return (_fit([c for c in rest if c["status"] == "shown"], most) or figures[:1]) + warnings


def _fit(answers: list[dict], most: int) -> list[dict]:
    """The leading answers whose sentences fit in `most`, in order; the first always."""
    out, used = [], 0
    for c in answers:
        n = len(_sentences(_answer(c)))
        if out and used + n > most:
            break  # this one and the next stay in their sections, in the page's order
        out.append(c)
        used += n
    return out


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s]


def _said(answers: list[dict], most: int, cuts: bool = True) -> list[str]:
    """Each answer as the box says it: whole, except a first one longer than the box, cut to its
    leading sentences where the chapter says the rest in its sections (`cuts`)."""
    return [" ".join(_sentences(_answer(c))[:most] if cuts else _sentences(_answer(c))) for c in answers]


def rest(ledger, ids: list[str] | None = None) -> dict[str, str]:
    """Per claim the box cuts short, the sentences it leaves to the page (its section says them once):
    those past the box's sentences, and a caveat the box says in short (`caveat_line`), whole."""
    spec = box_of(_chapter(ledger))
    out = {}
    if not spec.sections_say_rest:
        return out  # the box says its answers whole there
    answers = [c for c in pick(ledger, ids) if c["status"] != "implausible" and c["id"] not in QUALIFIERS]
    short = all(_detailed(_one_line(c["caveat"])) for c in answers if c.get("caveat"))
    for c in answers:
        left = _sentences(_answer(c))[spec.sentences :]
        left += [_one_line(c["caveat"])] if short and c.get("caveat") else []
        if left:
            out[c["id"]] = " ".join(left)
    return out


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _answer(c: dict) -> str:
    """A shown claim's sentence without its caveat (the caveat line after the answers says it)."""
    text, caveat = _one_line(c["text"]), _one_line(c.get("caveat") or "")
    return text[: -len(caveat)].rstrip() if caveat and text.endswith(caveat) else text


def _lower_first(text: str) -> str:
    """A sentence continued after a lead-in: its first word in lower case, unless it is a name or an
    acronym (a capital or a digit follows its first letter: "TP", "H100")."""
    word = text.split(" ", 1)[0]
    return text[0].lower() + text[1:] if len(word) > 1 and word[1].islower() else text


def _detailed(caveat: str) -> bool:
    """A caveat that gives its reason, then its detail ("That batch is fragile: it clears the line by
    0.2% ..."): where the chapter's sections say what the box leaves, the box says the reason and the
    claim's section the whole (`rest`)."""
    return ": " in caveat


def caveat_line(answers: list[dict], qualifiers: list[str] = (), whole: bool = True) -> str:
    """The caveats of the box's answers on one line: a lone answer's as it is; one of several
    answers' by the answer's place ("On the first answer, that batch ..."); several that open with the same reason ("This
    verdict is fragile: ...") say it once, then each answer's margin by place; then the qualifiers
    (sentences that hold for every answer), as they are. Not `whole` (the chapter's sections say what
    the box leaves): a caveat with its detail (`_detailed`) says only which answers it qualifies and
    that their sections say by how much, so the line stays one line."""
    from benchbook.presentation.wording import load, sentence

    said = [(i, _one_line(c["caveat"])) for i, c in enumerate(answers) if c.get("caveat")]
    extra = [_one_line(q) for q in qualifiers]
    if not said and not extra:
        return ""
    if not whole and said and all(_detailed(cav) for _, cav in said):
        ordinals = load("report")["words"]["ordinals"]
        which = [ordinals[i] if i < len(ordinals) else str(i + 1) for i, _ in said]
        head = said[0][1].split(": ", 1)[0] if len(answers) == 1 else ""
        short = sentence("report", "caveat_short", head=head, which=which, several=len(said) > 1, answers=len(answers))
        return sentence("report", "caveat_line", text=" ".join([short, *extra]))
    if not said or len(answers) == 1:
        return sentence("report", "caveat_line", text=" ".join([*(cav for _, cav in said), *extra]))
    heads = {cav.split(": ", 1)[0] for _, cav in said}
    shared = len(said) > 1 and len(heads) == 1 and all(": " in cav for _, cav in said)
    ordinals = load("report")["words"]["ordinals"]
    which = [ordinals[i] if i < len(ordinals) else str(i + 1) for i, _ in said]
    joined = ", ".join(which[:-1]) + " and " + which[-1]
    parts = [sentence("report", "fragile_several", which=joined)] if shared else []
    for w, (_, cav) in zip(which, said, strict=True):
        if shared:
            parts.append(sentence("report", "fragile_each", ordinal=w, tail=cav.split(": ", 1)[1]))
        else:
            parts.append(sentence("report", "caveat_of", ordinal=w, text=_lower_first(cav)))
    return sentence("report", "caveat_line", text=" ".join([*parts, *extra]))


def box(ledger, ids: list[str] | None = None) -> str:
    """The box's Markdown: one bullet per picked answer, without its caveat (a first one longer than
    the box cut to its leading sentences); the answers' caveats on one line after them, naming which
    each qualifies; a leading claim beyond physics as a warning, last. An input that gives no answer
    says so in one sentence."""
    from benchbook.presentation.wording import sentence

    picked = pick(ledger, ids)
    answers = [c for c in picked if c["status"] != "implausible" and c["id"] not in QUALIFIERS]
    if not answers:
        from benchbook.presentation.placement import FINDINGS

        # the folded list (`placement.folded`) holds what the input cannot decide: a finding is not one
        listed = any(
            c["status"] == "withheld" and _usable(c) and c.get("reason") not in FINDINGS for c in _claims(ledger)
        )
        return "\n".join(
            [sentence("report", "no_answer", listed=listed)]
            + [sentence("report", "warning_line", text=_one_line(c["text"])) for c in picked]
        )
    qualifiers = [c["text"] for c in picked if c["status"] == "shown" and c["id"] in QUALIFIERS]
    spec = box_of(_chapter(ledger))
    lines = [f"- {text}" for text in _said(answers, spec.sentences, spec.sections_say_rest)]
    if caveat := caveat_line(answers, qualifiers, not spec.sections_say_rest):  # after the answers
        lines.append(caveat)
    lines += [
        sentence("report", "warning_line", text=_one_line(c["text"])) for c in picked if c["status"] == "implausible"
    ]
    return "\n".join(lines)


def glue_box(ledger, ids: list[str] | None = None) -> None:
    """Glue the box as `bottom_line` (hidden), for a `{glue:md}` directive under the question."""
    from benchbook.presentation import outputs

    outputs.glue("bottom_line", box(ledger, ids), markdown=True)


def findings(ledgers: list[dict], titles: dict[str, str], per_chapter: int = 1) -> str:
    """The front page's main findings: the first shown claim(s) of each chapter's box, as the box
    says them, each with its caveat, in the order of `titles` (chapter -> title, reading order),
    each with a link to its chapter. Where the chapter's sections say what its box leaves, a caveat
    with its detail (`_detailed`) is said by its reason only, as the box says it: the margins are the
    chapter's to give, and the answer stays first."""
    from benchbook.presentation.wording import sentence

    by_chapter = {led.get("chapter", ""): led for led in ledgers}
    lines = []
    for chapter, title in titles.items():
        led = by_chapter.get(chapter)
        if led is None:
            continue
        shown = [c for c in pick(led) if c["status"] == "shown" and c["id"] not in QUALIFIERS][:per_chapter]
        spec = box_of(chapter)
        for c, said in zip(
            shown, _said(shown, spec.sentences, spec.sections_say_rest), strict=True
        ):  # as its box says it, with its caveat
            caveat = _one_line(c.get("caveat") or "")
            if caveat and spec.sections_say_rest and _detailed(caveat):
                caveat = sentence("report", "finding_caveat", head=caveat.split(": ", 1)[0])
            text = " ".join(filter(None, [said, caveat]))
            lines.append(f"- {text} ({{doc}}`{title} <../notebooks/{chapter}>`)")
    if not lines:
        return "No chapter has a finding to show yet: build the chapters first.\n"
    return "\n".join(lines) + "\n"
