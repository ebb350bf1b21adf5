"""The serving page's device paragraph says the roofline figure draws no roofs only where that figure is
drawn: where no run can be placed (no model size, no total tokens per second), the page shows a sentence in
the figure's place, and a paragraph describing the figure above it would describe nothing. The rule is on
whether the figure places a run, not on how many runs the file has: one placed run is a figure."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.analysis import precision
from benchbook.presentation import serving as show
from benchbook.presentation import wording

UNKNOWN = precision.Weights(None, float("nan"), "not stated")
NO_ROOFLINE = wording.words("serving_saturation")["figure"]["no_roofline"]
HEADINGS = {
    "by_heading": [
        {"runs": [{"run": "a", "line": 3}], "listed": False, "count": 1, "device": "X1", "line": 2},
        {"runs": [{"run": "b", "line": 9}], "listed": False, "count": 1, "device": "X2", "line": 8},
    ]
}


def _rl(intensity: list) -> pd.DataFrame:
    n = len(intensity)
    return pd.DataFrame({"x": [1.0, 2.0][:n], "intensity": intensity, "achieved_tflops": [3.0, 5.0][:n]})


def _sentence(rl: pd.DataFrame, **kw) -> str:
    drawn = not show.roofline_points(rl).empty
    return show.device_sentence(None, "org/m-8b", 8.0, 8.0, "input", UNKNOWN, drawn=drawn, **kw)


def test_placed_runs_draw_the_figure_and_the_paragraph_says_it_has_no_roofs():
    for rl in (_rl([2.0, 4.0]), _rl([2.0])):  # two runs or one: each placed run is a point of the figure
        assert not hasattr(show.plot_roofline(rl, None, "max_concurrency"), "benchbook_message")
        assert (
            "(pass -p gpu NAME, or the peaks): the figure draws no roofs and no share of a peak is given"
            in _sentence(rl)
        )
        assert "the achieved rates and intensities need none" in _sentence(rl)
        assert "the figure draws no roofs and no share" in _sentence(rl, spans=8, fewest=2, instances=2)
        assert "The figure draws no roofs: no one device's roof is every run's." in _sentence(rl, said=HEADINGS)


def test_no_placed_run_draws_no_figure_and_the_paragraph_does_not_speak_of_one():
    for rl in (_rl([np.nan, np.nan]), _rl([np.nan]), pd.DataFrame()):
        assert show.plot_roofline(rl, None, "max_concurrency").benchbook_message == NO_ROOFLINE
        for text in (_sentence(rl), _sentence(rl, spans=8, fewest=2, instances=2), _sentence(rl, said=HEADINGS)):
            assert "figure" not in text and "intensities" not in text
        assert "and none is assumed (pass -p gpu NAME, or the peaks): no share of a peak is given." in _sentence(rl)
        assert "so no one peak is theirs: no share of a peak is given." in _sentence(rl, spans=8, fewest=2, instances=2)
