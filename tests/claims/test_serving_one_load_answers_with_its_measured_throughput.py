"""A serving input of one load decides no trend, but it measured an output throughput: the growth claim, withheld,
states that figure (`measured_y`), so a page with no shown verdict answers with it (`rules.states_figure`). A
curve of several loads, or of several series with one load each, states none there (it states the highest a run
measured, `best_y`: tests/claims/test_serving_a_page_with_no_verdict_leads_with_what_it_measured.py)."""

from __future__ import annotations

import dataclasses
import math

import pandas as pd

from benchbook.claims import rules
from benchbook.claims import serving as cs
from benchbook.presentation import wording


def _curve(xs, ys, models=None) -> pd.DataFrame:
    n = len(xs)
    return pd.DataFrame(
        {
            "source": ["f"] * n,
            "run": [f"c={x}" for x in xs],
            "model": models or ["m"] * n,
            "max_concurrency": [float(x) for x in xs],
            "request_rate": [math.inf] * n,
            "output_throughput": ys,
            "x": [float(x) for x in xs],
        }
    )


def test_one_load_states_its_throughput_and_answers_the_box():
    c = wording.word("serving_saturation", cs.growth(_curve([256], [4454.4]), "max_concurrency"))
    assert c.status == "withheld" and c.evidence["measured_y"] == 4454.4
    assert c.text.startswith("At its one load (max concurrency 256), output throughput is 4,454 tok/s")
    assert rules.states_figure(dataclasses.asdict(c))


def test_several_loads_state_no_one_load_figure_there():
    c = cs.growth(_curve([1, 2], [10.0, 20.0]), "x")
    assert "measured_y" not in c.evidence and c.evidence["best_y"] == 20.0


def test_two_series_of_one_load_each_state_no_figure():
    c = cs.growth(_curve([8, 8], [10.0, 20.0], models=["a", "b"]), "x")
    assert "measured_y" not in c.evidence
