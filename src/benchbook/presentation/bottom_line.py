"""The answer first: each chapter's bottom-line box and the front page's findings, both read from
the chapter's ledger, so that on any input they say that input's verdicts (or why one is withheld).

A chapter names its most important claims, in order, in PRIORITY; the box shows the first shown
ones (at most MAX_SHOWN) and says in one line why a leading claim is withheld.
"""

from __future__ import annotations

#: Per chapter, its claim ids from the most to the least important (ids, never sentences).
PRIORITY: dict[str, list[str]] = {
    "bandwidth_roofline": ["bw_size_trend", "bw_3", "bound_3", "bw_6", "bw_1"],
    "batch_saturation": ["knee", "latency_flat", "bandwidth_small", "compute_large", "dtypes_small"],
    "serving_saturation": ["knee", "goodput", "compute_best", "growth", "own_slos", "failed", "uncapped"],
    "tp_scaling": ["decode_turn", "rec_throughput"],
    "quantization_regimes": ["w8a8_gain", "confound"],
    "perf_per_watt": [
        *("caps_differ", "sweet_spot_tg"),
        *("measured_cheapest", "measured_spread"),
        "energy_top_tg",  # without a measured draw, the joules-per-token question's answer is this bound
        "measured_0",  # a file of one measured configuration: its energy per token is the answer
    ],
    "attention_kernels": ["flex_sparsest", "sdpa_printed"],
    "tracking": ["changes"],
}
#: A claim the box takes only where the ledger lacks its sibling: one measured configuration's figure
#: answers "what does a token cost" when it is the only one; beside others it is one row of many
#: (the spread and the cheapest answer then), and the first of them is not the answer.
ONLY_ALONE = {"measured_0": "measured_1"}
#: The most shown claims a box holds (the answer is one or two findings; the next ones go to their
#: sections), and where a chapter asks two questions, the most for it: an answer to each.
MAX_SHOWN = 2
MAX_SHOWN_BY_CHAPTER = {"perf_per_watt": 3}  # how low a cap can go (and why), and what a token costs
#: How many of a chapter's leading claims a box accounts for even when withheld.
LEADING = 3


def _claims(ledger) -> list[dict]:
    """The claims of a Ledger or of its dict (a _build/claims/*.json file), as dicts."""
    if isinstance(ledger, dict):
        return list(ledger.get("claims", []))
    return [c.to_dict() for c in ledger.claims]


def _chapter(ledger) -> str:
    return ledger.get("chapter", "") if isinstance(ledger, dict) else ledger.chapter


def pick(ledger, ids: list[str] | None = None) -> list[dict]:
    """The claims a box shows, in priority order: shown claims up to MAX_SHOWN, and each of the
    LEADING first claims that is not shown (its sentence says why). Where none of them is shown, the
    box is not a list of what the page withholds: it gives the page's other shown claims (the answers it
    can give, in ledger order), else the first withheld one alone (why no answer can be given, once)."""
    ids = PRIORITY.get(_chapter(ledger), []) if ids is None else ids
    most = MAX_SHOWN_BY_CHAPTER.get(_chapter(ledger), MAX_SHOWN)
    by_id = {c["id"]: c for c in _claims(ledger)}
    out, shown = [], 0
    for rank, cid in enumerate(ids):
        c = by_id.get(cid)
        if c is None or not c.get("text") or (c.get("evidence") or {}).get("applicable") is False:
            continue  # a claim that cannot apply to this input's format is not withheld from it
        if ONLY_ALONE.get(cid) in by_id:
            continue
        if c["status"] == "shown":
            if shown < most:
                out.append(c)
                shown += 1
        elif rank < LEADING:
            out.append(c)
    if out and not shown:  # no leading verdict: the answers the page gives instead, else why none, once
        rest = [c for c in by_id.values() if c["status"] == "shown" and c.get("text") and c["id"] not in ids]
        rest = [c for c in rest if (c.get("evidence") or {}).get("applicable") is not False]
        return rest[:most] or out[:1]
    return out


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _answer(c: dict) -> str:
    """A shown claim's sentence without its caveat (the caveat line after the answers says it)."""
    text, caveat = _one_line(c["text"]), _one_line(c.get("caveat") or "")
    return text[: -len(caveat)].rstrip() if caveat and text.endswith(caveat) else text


def caveat_line(answers: list[dict]) -> str:
    """The caveats of the box's answers on one line: one answer's as it is; several that open with
    the same reason ("This verdict is fragile: ...") say it once, then each answer's margin by place."""
    from benchbook.presentation.wording import load, sentence

    said = [(i, _one_line(c["caveat"])) for i, c in enumerate(answers) if c.get("caveat")]
    if not said:
        return ""
    if len(said) == 1:
        return sentence("report", "caveat_line", text=said[0][1])
    heads = {cav.split(": ", 1)[0] for _, cav in said}
    shared = len(heads) == 1 and all(": " in cav for _, cav in said)
    ordinals = load("report")["words"]["ordinals"]
    which = [ordinals[i] if i < len(ordinals) else str(i + 1) for i, _ in said]
    joined = ", ".join(which[:-1]) + " and " + which[-1]
    parts = [sentence("report", "fragile_several", which=joined)] if shared else []
    for w, (_, cav) in zip(which, said, strict=True):
        parts.append(sentence("report", "fragile_each", ordinal=w, tail=cav.split(": ", 1)[1] if shared else cav))
    return sentence("report", "caveat_line", text=" ".join(parts))


def box(ledger, ids: list[str] | None = None) -> str:
    """The box's Markdown: one bullet per picked claim, its answer without its caveat; the shown
    answers' caveats on one line after the last answer they qualify; a claim that is not shown is
    marked so, last."""
    picked = pick(ledger, ids)
    if not picked:
        return "This input supports none of the chapter's main verdicts; the sections below say why, one by one."
    answers = [c for c in picked if c["status"] == "shown"]
    lines = [f"- {_answer(c)}" for c in answers]
    if caveat := caveat_line(answers):  # right after the last answer it qualifies
        last = max(i for i, c in enumerate(answers) if c.get("caveat"))
        lines.insert(last + 1, caveat)
    for c in picked:
        if c["status"] != "shown":
            mark = "*Withheld:* " if c["status"] == "withheld" else "*Warning:* "
            lines.append(f"- {mark}{_one_line(c['text'])}")
    return "\n".join(lines)


def glue_box(ledger, ids: list[str] | None = None) -> None:
    """Glue the box as `bottom_line` (hidden), for a `{glue:md}` directive under the question."""
    from benchbook.presentation import outputs

    outputs.glue("bottom_line", box(ledger, ids), markdown=True)


def findings(ledgers: list[dict], titles: dict[str, str], per_chapter: int = 1) -> str:
    """The front page's main findings: the first shown claim(s) of each chapter's box, in the order
    of `titles` (chapter -> title, reading order), each with a link to its chapter."""
    by_chapter = {led.get("chapter", ""): led for led in ledgers}
    lines = []
    for chapter, title in titles.items():
        led = by_chapter.get(chapter)
        if led is None:
            continue
        shown = [c for c in pick(led) if c["status"] == "shown"][:per_chapter]
        for c in shown:
            lines.append(f"- {_one_line(c['text'])} ({{doc}}`{title} <../notebooks/{chapter}>`)")
    if not lines:
        return "No chapter has a finding to show yet: build the chapters first.\n"
    return "\n".join(lines) + "\n"
