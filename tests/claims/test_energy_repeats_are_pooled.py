"""Repeats of one configuration (a file that measures it several times: `configuration`) are its noise,
never configurations to rank: the cheapest and the costliest are named among configurations, each by the
mean of its repeats; runs that repeat nothing are ranked one by one as before."""

from __future__ import annotations

import pandas as pd

from benchbook.claims import energy as ce


def _rows(confs):
    runs = ["a", "a, row 2", "b", "b, row 2"]
    return pd.DataFrame(
        {
            "source": "f.csv",
            "run": runs,
            "configuration": confs,
            "model": "m",
            "device": None,
            "scope": "gpu",
            "interval": "run",
            "j_per_output_token": [1.26, 1.24, 1.32, 1.31],
            "j_per_output_token_active": float("nan"),
            "j_per_request": float("nan"),
        }
    )


def test_repeats_are_pooled_before_the_cheapest_and_the_spread_are_named():
    rows = _rows(["a", "a", "b", "b"])
    c = ce.cheapest(rows, "j_per_output_token", "measured_cheapest")
    assert (c.evidence["a_run"], c.evidence["b_run"]) == ("a", "b")
    assert c.evidence["a"] == 1.25 and c.evidence["a_repeats"] == 2
    s = ce.spread(rows)
    assert (s.evidence["a_run"], s.evidence["b_run"]) == ("b", "a") and s.evidence["b_repeats"] == 2


def test_runs_that_repeat_nothing_are_ranked_one_by_one():
    c = ce.cheapest(_rows([None, None, None, None]), "j_per_output_token", "measured_cheapest")
    assert (c.evidence["a_run"], c.evidence["b_run"]) == ("a, row 2", "a") and c.evidence["a_repeats"] == 1
