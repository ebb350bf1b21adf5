"""The bottom line is the answer: each shown claim's sentence without its caveat, the caveats on one
line after the answers they qualify, a reason several share said once (issue 34 item 6)."""

from __future__ import annotations

from benchbook.presentation import bottom_line


def _claim(cid: str, text: str, caveat: str = "", status: str = "shown") -> dict:
    full = f"{text} {caveat}".strip()
    return {"id": cid, "kind": "k", "status": status, "rule": "", "evidence": {}, "text": full, "caveat": caveat}


def _box(*claims: dict) -> list[str]:
    return bottom_line.box({"chapter": "x", "claims": list(claims)}, [c["id"] for c in claims]).splitlines()


def test_a_fragile_answer_is_said_without_its_caveat_and_the_caveat_follows_all_answers_on_one_line():
    lines = _box(
        _claim("a", "It saturates at batch 512.", "That batch is fragile: it clears the line by 0.2%."),
        _claim("b", "B."),
    )
    assert lines == [
        "- It saturates at batch 512.",
        "- B.",
        "- *Caveat:* On the first answer, that batch is fragile: it clears the line by 0.2%.",
    ]
    alone = _box(_claim("a", "It saturates at batch 512.", "That batch is fragile: x."))
    assert alone == ["- It saturates at batch 512.", "- *Caveat:* That batch is fragile: x."]  # no place to name


def test_a_firm_answer_has_no_caveat_line():
    assert _box(_claim("a", "A."), _claim("b", "B.")) == ["- A.", "- B."]


def test_a_reason_two_answers_share_is_said_once_then_each_margin_by_place():
    lines = _box(
        _claim("a", "A.", "This verdict is fragile: it is 29% under the threshold."),
        _claim("b", "B.", "This verdict is fragile: its p99 is 1% under its SLO."),
        _claim("c", "C."),
    )
    assert lines[:2] == ["- A.", "- B."] and len(lines) == 3  # two answers at most: C is its section's to say
    assert lines[2].count("fragile") == 1
    assert (
        "The first: it is 29% under the threshold." in lines[2]
        and "The second: its p99 is 1% under its SLO." in lines[2]
    )


def test_caveats_that_give_different_reasons_are_each_said_whole():
    line = _box(_claim("a", "A.", "That batch is fragile: x."), _claim("b", "B.", "This verdict is fragile: y."))[2]
    assert "On the first answer, that batch is fragile: x." in line
    assert "On the second answer, this verdict is fragile: y." in line
    # an acronym or a name opens the caveat as it is
    line = _box(_claim("a", "A."), _claim("b", "B.", "TP 8 was not measured at batch 16."))[2]
    assert "On the second answer, TP 8 was not measured at batch 16." in line


def test_a_withheld_leading_claim_is_not_in_the_box_but_a_warning_follows_the_answers():
    """Withheld claims are the folded list's, their reason said there once (issue 34 item 6); a
    leading claim beyond physics is a warning the reader sees after the answers."""
    lines = _box(_claim("a", "A: not stated.", status="withheld"), _claim("b", "B."))
    assert lines == ["- B."]
    lines = _box(_claim("a", "A is 140% of its peak.", status="implausible"), _claim("b", "B."))
    assert lines == ["- B.", "- *Warning:* A is 140% of its peak."]


def test_two_answers_at_most_unless_the_chapter_asks_two_questions():
    claims = [_claim(c, f"{c.upper()}.") for c in "abc"]
    ids = [c["id"] for c in claims]
    assert bottom_line.box({"chapter": "x", "claims": claims}, ids).splitlines() == ["- A.", "- B."]
    # perf_per_watt asks how low a cap can go and what a token costs: an answer to each, and why
    two_questions = bottom_line.box({"chapter": "perf_per_watt", "claims": claims}, ids).splitlines()
    assert two_questions == ["- A.", "- B.", "- C."]


def test_a_box_whose_leading_claims_are_all_withheld_gives_the_answers_the_page_can_give():
    """arc_a310's bandwidth page: the size trend withheld (0 points), but a shown verdict (the model
    cannot be compute-bound) stands: the box says that, not the list of what is withheld."""
    claims = [
        {"id": "trend", "status": "withheld", "text": "A trend: not stated, because 0 points."},
        {"id": "other", "status": "withheld", "text": "Other: not stated, because R."},
        {"id": "bound_1", "status": "shown", "text": "M cannot be compute-bound on any device."},
    ]
    led = {"chapter": "x", "claims": claims}
    assert bottom_line.box(led, ["trend", "other"]).splitlines() == ["- M cannot be compute-bound on any device."]
    # the other way: with no shown claim and no measured figure anywhere, one sentence says so
    none = {"chapter": "x", "claims": claims[:2]}
    assert bottom_line.box(none, ["trend", "other"]).splitlines() == [
        "This input supports none of the chapter's verdicts; the list of what it cannot decide says why."
    ]
    assert bottom_line.pick(none, ["trend", "other"]) == []


def _figure(cid: str, text: str, **ev) -> dict:
    return {"id": cid, "kind": "fraction_of_peak", "status": "withheld", "text": text, "evidence": ev}


def test_a_page_with_no_shown_verdict_answers_with_the_figure_the_input_measured():
    """The CPU report's bandwidth page: the size trend withheld (0 points), but the page streams
    17 GB/s, its share of a peak withheld for want of the CPU's bandwidth: that figure, with why its
    verdict waits, is the answer, not the withheld trend."""
    trend = {"id": "trend", "kind": "scaling", "status": "withheld", "text": "A trend: not stated, because 0 points."}
    bw = _figure("bw_1", "M streams 17 GB/s; its share of a peak needs the CPU's bandwidth.", achieved_gb_s=16.5)
    pp = _figure("pp_1", "M pp512: 0.117 TFLOP/s; its share is not stated.", achieved_tflops=0.117)
    led = {"chapter": "x", "claims": [bw, trend, pp]}
    assert bottom_line.box(led, ["trend"]).splitlines() == [f"- {bw['text']}"]  # one figure: the first
    # the other way: a claim withheld for want of a measured point states no figure, nor does a
    # shown claim's presence leave room for one
    nothing = _figure("bw_1", "M: no step measured.", achieved_gb_s=16.5, no_point=True)
    assert bottom_line.pick({"chapter": "x", "claims": [nothing, trend]}, ["trend"]) == []
    shown = {"id": "b", "status": "shown", "text": "B."}
    assert bottom_line.box({"chapter": "x", "claims": [bw, trend, shown]}, ["trend"]).splitlines() == ["- B."]


def test_the_box_takes_the_leading_answers_up_to_two_sentences_and_the_next_stay_in_their_sections():
    claims = [_claim("a", "A 1. Because R."), _claim("b", "B 2.")]
    ledger = {"chapter": "x", "claims": claims}
    assert bottom_line.box(ledger, ["a", "b"]).splitlines() == ["- A 1. Because R."]
    assert [c["id"] for c in bottom_line.pick(ledger, ["a", "b"])] == ["a"]  # b's section says it
    # the other way: two one-sentence answers both fit
    short = {"chapter": "x", "claims": [_claim("a", "A 1."), _claim("b", "B 2.")]}
    assert bottom_line.box(short, ["a", "b"]).splitlines() == ["- A 1.", "- B 2."]


def test_a_first_answer_longer_than_the_box_gives_it_two_sentences_and_its_section_the_rest():
    led = {"chapter": "tp_scaling", "claims": [_claim("a", "A turns at 2. Because R. At 1: 17 ms.", "Fragile: x.")]}
    assert bottom_line.box(led, ["a"]).splitlines() == [
        "- A turns at 2. Because R.",
        "- *Caveat:* Fragile: its section says by how much.",
    ]
    assert bottom_line.rest(led, ["a"]) == {"a": "At 1: 17 ms. Fragile: x."}
    assert bottom_line.rest({"chapter": "tp_scaling", "claims": [_claim("a", "A 2. Because R.")]}, ["a"]) == {}


def test_a_qualifier_stands_on_the_caveat_line_after_the_answers_and_never_alone():
    confound = _claim("confound", "Each scheme ran on its own GPU.")
    led = {"chapter": "x", "claims": [confound, _claim("a", "A 1. Because R.", "Fragile: x.")]}
    assert bottom_line.box(led, ["a", "confound"]).splitlines() == [
        "- A 1. Because R.",
        "- *Caveat:* Fragile: x. Each scheme ran on its own GPU.",
    ]
    alone = {"chapter": "x", "claims": [confound, _claim("a", "A: not stated.", status="withheld")]}
    assert bottom_line.pick(alone, ["a", "confound"]) == []


def test_a_chapter_that_does_not_say_the_cut_elsewhere_keeps_its_long_answer_whole():
    """The bandwidth chapter places no `rest`: a three-sentence answer (the rate, the CPU-only run, the
    sockets assumed) stays whole in its box, so the sockets sentence is said somewhere; a chapter that
    places the rest (tp_scaling) is cut to two and gives the third to its section."""
    from benchbook.presentation import bottom_line

    text = "Model: 2.97 tok/s, 45% of the 137 GB/s. A CPU-only run. So 2 sockets are assumed."
    claim = {"id": "x", "status": "shown", "text": text, "caveat": ""}
    whole = bottom_line.box({"chapter": "bandwidth_roofline", "claims": [claim]}, ["x"])
    assert (
        "2 sockets are assumed" in whole
        and bottom_line.rest({"chapter": "bandwidth_roofline", "claims": [claim]}, ["x"]) == {}
    )
    led = {"chapter": "tp_scaling", "claims": [claim]}
    assert "sockets" not in bottom_line.box(led, ["x"]) and "sockets" in bottom_line.rest(led, ["x"])["x"]


def test_where_the_sections_say_the_rest_a_caveat_is_one_line_and_its_detail_stands_in_its_section():
    """Batch's seed caveat ran four rendered lines ("On the first answer, that batch is fragile: it
    clears the 95% line by 0.2% and batch 384 ..."): the box says which answers are fragile, on one
    line, and each claim's section says by how much."""
    knee = _claim("knee", "It saturates at 512.", "That batch is fragile: it clears the line by 0.2%, inside 1.8%.")
    flat = _claim("flat", "A call takes 2.4 s.")
    two = {"chapter": "batch_saturation", "claims": [knee, flat]}
    lines = bottom_line.box(two, ["knee", "flat"]).splitlines()
    assert lines[-1] == "- *Caveat:* The first verdict is fragile: its section says by how much."
    assert bottom_line.rest(two, ["knee", "flat"]) == {"knee": knee["caveat"]}
    goodput = _claim("goodput", "Run c=128 is best.", "This verdict is fragile: its p99 is 1% under its SLO.")
    first = _claim("knee", "It saturates at 512.", "This verdict is fragile: x.")
    both = {"chapter": "serving_saturation", "claims": [first, goodput]}
    line = bottom_line.box(both, ["knee", "goodput"]).splitlines()[-1]
    assert line == "- *Caveat:* Both verdicts are fragile: their sections say by how much."
    # the other way: a chapter whose sections do not say the rest keeps the caveat whole in the box
    whole = {"chapter": "x", "claims": [knee, flat]}
    assert "it clears the line by 0.2%" in bottom_line.box(whole, ["knee", "flat"])
    assert bottom_line.rest(whole, ["knee", "flat"]) == {}
