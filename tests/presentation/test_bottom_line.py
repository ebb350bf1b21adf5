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


def test_a_withheld_leading_claim_comes_after_the_answers():
    lines = _box(_claim("a", "A: not stated.", status="withheld"), _claim("b", "B."))
    assert lines == ["- B.", "- *Withheld:* A: not stated."]


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
    # the other way: with no shown claim anywhere, why no answer can be given, once
    none = {"chapter": "x", "claims": claims[:2]}
    assert bottom_line.box(none, ["trend", "other"]).splitlines() == [
        "- *Withheld:* A trend: not stated, because 0 points."
    ]


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
    assert bottom_line.box(led, ["a"]).splitlines() == ["- A turns at 2. Because R.", "- *Caveat:* Fragile: x."]
    assert bottom_line.rest(led, ["a"]) == {"a": "At 1: 17 ms."}
    assert bottom_line.rest({"chapter": "tp_scaling", "claims": [_claim("a", "A 2. Because R.")]}, ["a"]) == {}


def test_a_qualifier_stands_on_the_caveat_line_after_the_answers_and_never_alone():
    confound = _claim("confound", "Each scheme ran on its own GPU.")
    led = {"chapter": "x", "claims": [confound, _claim("a", "A 1. Because R.", "Fragile: x.")]}
    assert bottom_line.box(led, ["a", "confound"]).splitlines() == [
        "- A 1. Because R.",
        "- *Caveat:* Fragile: x. Each scheme ran on its own GPU.",
    ]
    alone = {"chapter": "x", "claims": [confound, _claim("a", "A: not stated.", status="withheld")]}
    assert bottom_line.pick(alone, ["a", "confound"]) == [alone["claims"][1]]


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
