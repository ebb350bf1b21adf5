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


def _withheld(cid: str, text: str, reason: str, kind: str = "bound", **ev) -> Claim:
    return Claim(cid, kind, "withheld", "r", ev, reason, text)


def test_the_box_lists_no_withheld_claim_the_folded_list_holds_it_with_its_reason_said_once():
    """The no-device rate sweep: its box gave the answer, then three "Withheld:" lines, one the reason
    the folded list then called "the reason the bottom line gives". Issue 34: one folded list."""
    from benchbook.presentation import bottom_line

    why = "no device is named"
    led = Ledger("serving_saturation", [])
    led.add(Claim("growth", "scaling", "shown", "r", {}, text="Throughput rises at every step."))
    led.add(_withheld("knee", "No knee: the sweep did not reach saturation.", "the elasticity never falls"))
    led.add(
        _withheld(
            "compute_best", f"The best run does 13 TFLOP/s; its share of a peak is not stated, because {why}.", why
        )
    )
    led.add(_withheld("bound_best", f"What limits the best run: not stated for this input, because {why}.", why))
    box = bottom_line.box(led)
    assert box == "- Throughput rises at every step." and "Withheld" not in box
    folded = placement.folded(led)
    assert "No knee" in folded and folded.count(why) == 1 and placement.SAID_ABOVE not in folded
    # each sub-item names what is not stated, without saying "not stated" under a lead that says it
    assert folded.endswith(
        f"- Not stated, because {why}:\n  - The best run does 13 TFLOP/s; its share of a peak.\n  - What limits the best run."
    )


def test_a_figure_the_box_answers_with_gives_its_reason_and_the_folded_list_points_there():
    """No shown claim: the box answers with the figure measured (its share withheld for want of a
    device), so the claims withheld for that reason say it once, by pointing to the bottom line."""
    from benchbook.presentation import bottom_line

    why = "no device is named"
    led = Ledger("batch_saturation", [])
    text = f"At batch 1 it reads 338 GB/s; its share of a peak is not stated, because {why}."
    led.add(_withheld("bandwidth_small", text, why, "fraction_of_peak", achieved=338.0))
    led.add(_withheld("bound_small", f"What limits the smallest batch: not stated for this input, because {why}.", why))
    led.add(_withheld("bound_large", f"What limits the largest batch: not stated for this input, because {why}.", why))
    assert bottom_line.box(led) == f"- {text}"
    folded = placement.folded(led)
    assert why not in folded and placement.SAID_ABOVE in folded and "338 GB/s" not in folded
    # the other way: without the measured figure the box has no answer, and the list says the reason
    led.claims[0].evidence["achieved"] = None
    assert bottom_line.box(led).startswith("This input supports none of the chapter's verdicts")
    assert placement.folded(led).count(why) == 1


def test_a_reason_a_paragraph_says_is_referred_to_and_another_is_said_in_the_list():
    """tp_scaling's device paragraph and its folded list's lead both gave the no-device reason (#34 item 6):
    a reason the page says elsewhere (`said`) leads its group by the words that refer to it, even for
    one claim alone; a reason no paragraph says is still given whole."""
    said = "no device is named"
    led = Ledger("tp_scaling", [])
    led.add(_withheld("share", f"The bandwidth: 5 GB/s, because {said}.", said))
    led.add(_withheld("other", "The knee is not stated, because the runs are too few.", "the runs are too few"))
    out = placement.folded(led, said={said: "as above"})
    assert "- Not stated, as above:\n  - The bandwidth: 5 GB/s." in out and said not in out
    assert "- The knee is not stated, because the runs are too few." in out
    assert f"- The bandwidth: 5 GB/s, because {said}." in placement.folded(led)  # without `said`: whole
