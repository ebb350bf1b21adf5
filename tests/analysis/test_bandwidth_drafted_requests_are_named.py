"""A request whose decode a drafter made (drafts accepted) is no rate of one pass per token, so the
roofline leaves it out; the page names it by its line and its accepted drafts instead of saying the input
holds no generation result. A request with no accepted draft is a plain decode and is named by neither."""

from __future__ import annotations

from benchbook.analysis import bandwidth
from benchbook.ingest import llama_timings
from benchbook.presentation import bandwidth as show

SERVER = [
    "slot print_timing: id  1 | task 0 | prompt eval time =     300.11 ms /    20 tokens (   15.01 ms per token,    66.64 tokens per second)",
    "slot print_timing: id  1 | task 0 |        eval time =    2296.72 ms /   256 tokens (    8.97 ms per token,   111.46 tokens per second)",
]


def _table(tally):
    return llama_timings.parse("\n".join([*SERVER, tally]), "x.log").table


def test_a_drafted_decode_is_named_with_its_line_and_accepted_drafts():
    t = _table("slot print_timing: id  1 | task 0 | draft acceptance = 0.64479 (  167 accepted /   259 generated)")
    d = bandwidth.drafted(t)
    assert d == [{"line": 2, "n_gen": 256, "rate": 111.46, "accepted": 167, "drafter": None}]
    assert bandwidth.request_rows(t).empty
    note = show.drafted_note(d)
    assert note.startswith("Line 2 is the decode of a request made with a drafter: 167 of its 256 tokens")
    assert "111.46 tok/s" in note
    cover = show.coverage_note(0, None, requests=True, drafted=len(d))
    assert "made with a drafter" in cover and "no generation (tg) result" not in cover


def test_a_decode_with_no_accepted_draft_is_a_plain_one():
    t = _table("statistics ngram-map-k: #calls(b,g,a) = 3 570 0, #gen drafts = 9, #acc tokens = 0")
    assert bandwidth.drafted(t) == [] and show.drafted_note([]) is None
    assert len(bandwidth.request_rows(t)) == 1
    assert "no generation (tg) result" in show.coverage_note(0, None, requests=True)
