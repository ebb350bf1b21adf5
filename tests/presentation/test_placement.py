"""Each claim said once: the box's answers only there, the sentences the box cuts from a long answer
in that answer's section, the others in theirs."""

from __future__ import annotations

from benchbook.claims import Claim, Ledger
from benchbook.presentation import placement


def _ledger(knee: str) -> Ledger:
    claims = [
        Claim("knee", "knee", "shown", "r", {}, text=knee),
        Claim("latency_flat", "scaling", "shown", "r", {}, text="From batch 1 to 64 a call takes 2.4 s."),
    ]
    return Ledger("batch_saturation", [], claims)


def test_the_sentences_the_box_cuts_from_a_long_answer_stand_in_its_section():
    here = placement.in_place(_ledger("It saturates at 512. Because R. At batch 1: 61 tok/s."))
    assert here["here_knee"] == "At batch 1: 61 tok/s."
    assert here["here_latency_flat"] == "From batch 1 to 64 a call takes 2.4 s."  # the box has no room for it


def test_an_answer_the_box_says_whole_is_not_said_again():
    here = placement.in_place(_ledger("It saturates at 512."))
    assert here["here_knee"] == "" and here["here_latency_flat"] == ""
