"""Runs that share one load (the same cap and rate) are configurations (issue 35 class 5): the page calls none of
them "the best load" or "the lightest load", but the fastest or the first run at the one load; runs at several
loads keep "the best run" and "the lightest load"."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import roofline
from benchbook.claims import serving as cs
from benchbook.presentation import wording

H100 = roofline.Peaks("H100", 3350.0, {"bf16": 989.0}, "parameter")
ROW = pd.Series(
    {"run": "c=32", "compute_fraction": 0.1, "peak_tflops": 989.0, "achieved_tflops": 98.9, "precision": "bf16"}
)


def _text(claim) -> str:
    return wording.word("serving_saturation", claim).text


def test_the_fastest_of_runs_at_one_load_is_no_best_load():
    assert _text(cs.compute(ROW, H100, configurations=2)).startswith(
        "The fastest of the 2 runs at one load (`c=32`) does 99 TFLOP/s"
    )
    bound = _text(cs.bound("low", None, H100, 0.5, False, configurations=2))
    assert bound.startswith("What limits the first run at the one load:")


def test_runs_at_several_loads_keep_the_best_run_and_the_lightest_load():
    assert _text(cs.compute(ROW, H100)).startswith("The best run (`c=32`) does 99 TFLOP/s")
    assert _text(cs.bound("low", None, H100, 0.5, False)).startswith("What limits the lightest load:")
