"""A tracked change's noise: the Welch half-width over the level before, none without an interval."""

import math

import pandas as pd

from benchbook.analysis.changes import Change
from benchbook.claims import tracking as ct

RUNS = pd.DataFrame({"label": ["r1", "r2", "r3"], "unit": ["tok/s"] * 3})


def test_a_change_without_an_interval_has_no_noise():
    c = ct.change(RUNS, Change(2, 100.0, 120.0, 20.0, math.nan, math.nan, 0.01), 1, 0.05, "rate")
    assert c.evidence["noise"] is None and c.evidence["ratio"] == 1.2


def test_a_change_from_zero_has_no_relative_noise():
    c = ct.change(RUNS, Change(2, 0.0, 5.0, 5.0, 3.0, 7.0, 0.01), 1, 0.05, "rate")
    assert c.evidence["noise"] is None and c.evidence["ratio"] is None


def test_a_change_s_noise_is_its_half_width_over_the_level_before():
    c = ct.change(RUNS, Change(2, 100.0, 120.0, 20.0, 15.0, 26.0, 0.01), 1, 0.05, "rate")
    assert c.evidence["noise"] == 0.06  # the wider side, 26 - 20, over 100


def test_a_change_carries_the_significance_level_it_was_found_at():
    c = ct.change(RUNS, Change(2, 100.0, 120.0, 20.0, 15.0, 26.0, 0.01), 1, 0.05, "rate")
    assert (c.evidence["alpha"], c.evidence["p_value"]) == (0.05, 0.01)


def test_the_changes_are_numbered_from_one_after_the_whole_series_claim_with_their_rule():
    changes = [Change(1, 100.0, 120.0, 20.0, 15.0, 26.0, 0.01), Change(2, 120.0, 90.0, -30.0, -36.0, -24.0, 0.01)]
    out = ct.build(RUNS, changes, pd.DataFrame(), 0.05, "rate", 0.01)
    assert [c.id for c in out] == ["changes", "change_1", "change_2"]
    assert out[1].rule.startswith("a split with permutation p < alpha whose 95 % Welch interval")
