"""Change points: a step is found where it is, with its size; a flat noisy series has none."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from benchbook.analysis import changes
from benchbook.analysis.changes import _best_split_gain, _split, change_points


def test_a_step_is_found_at_its_place_with_its_size():
    rng = np.random.default_rng(1)
    x = np.r_[rng.normal(100, 1, 20), rng.normal(90, 1, 20)]
    ch = change_points(x)
    assert len(ch) == 1
    c = ch[0]
    assert c.index == 20
    assert c.size == pytest.approx(-10, abs=1.0)
    assert c.low < c.size < c.high < 0
    assert c.p_value < 0.01


def test_a_flat_noisy_series_of_the_same_length_has_none():
    for seed in range(5):
        x = np.random.default_rng(seed).normal(100, 1, 40)
        assert change_points(x) == []


def test_two_steps_and_a_constant():
    rng = np.random.default_rng(2)
    x = np.r_[rng.normal(50, 0.5, 15), rng.normal(60, 0.5, 15), rng.normal(45, 0.5, 15)]
    assert [c.index for c in change_points(x)] == [15, 30]
    # each change keeps the segment it was tested in: the split at 30 over all 45 runs, then the one at 15
    # within the first 30
    assert [(c.index, c.start, c.end) for c in change_points(x)] == [(15, 0, 30), (30, 0, 45)]
    assert change_points(np.full(30, 7.0)) == []


def test_too_short_or_missing():
    assert change_points([1.0, 2.0, 3.0]) == []
    with pytest.raises(ValueError):
        change_points([1.0, float("nan"), 3.0, 4.0])


def test_ruptures_and_the_permutation_statistic_agree_on_the_split():
    rng = np.random.default_rng(3)
    x = np.r_[rng.normal(0, 1, 13), rng.normal(4, 1, 9)]
    k = _split(x, 2)
    gains = [
        ((x - x.mean()) ** 2).sum() - ((x[:j] - x[:j].mean()) ** 2).sum() - ((x[j:] - x[j:].mean()) ** 2).sum()
        for j in range(2, len(x) - 1)
    ]
    assert k == 2 + int(np.argmax(gains))
    assert _best_split_gain(x, 2) == pytest.approx(max(gains))


def test_welch_interval_matches_scipy_welch_ci():
    """Unequal group sizes, so both groups' degrees-of-freedom terms count (Welch-Satterthwaite)."""
    a, b = np.array([1.0, 2.0, 4.0]), np.array([3.0, 5.0, 9.0, 11.0])
    ci = stats.ttest_ind(b, a, equal_var=False).confidence_interval(0.95)
    low, high = changes._welch_interval(a, b)
    assert math.isclose(low, ci.low, rel_tol=1e-9) and math.isclose(high, ci.high, rel_tol=1e-9)


def test_up_to_eight_runs_the_p_value_counts_every_order_and_never_falls_under_the_floor():
    # 4 slow then 4 fast: an order splits as well only with the same 4 first, or last: 2 x 4! x 4! of 8!
    (c,) = change_points([1.0, 1.1, 0.9, 1.0, 5.0, 5.1, 4.9, 5.0], alpha=0.05)
    assert c.p_value == pytest.approx(2 / math.comb(8, 4))
    # 3 then 5 (the tracking seed's pp rates): 2 x 3! x 5! of 8! orders at least, and here no other
    (c,) = change_points([728.4, 728.7, 732.4, 1204.0, 1395.0, 1429.0, 1578.0, 1574.0], alpha=0.05)
    assert c.index == 3 and c.p_value == pytest.approx(1 / 28)
    # the same 8 values under other seeds give the same p: nothing is sampled
    assert {
        change_points([1.0, 1.1, 0.9, 1.0, 5.0, 5.1, 4.9, 5.0], alpha=0.05, seed=s)[0].p_value for s in range(3)
    } == {2 / math.comb(8, 4)}
    # nine runs are sampled: the observed order is added to the 999 shuffles
    (c,) = change_points([1.0, 1.1, 0.9, 1.0, 1.05, 5.0, 5.1, 4.9, 5.0], alpha=0.05)
    assert c.p_value * 1000 == pytest.approx(round(c.p_value * 1000))
