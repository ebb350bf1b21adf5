import math

import numpy as np
import pytest

from benchbook.analysis import pareto


def test_frontier_maximise_both():
    # (1, 5) and (5, 1) and (3, 3) trade off; (2, 2) is dominated by (3, 3); (3, 3) twice: both kept
    assert list(pareto.frontier([1, 5, 3, 2, 3], [5, 1, 3, 2, 3])) == [True, True, True, False, True]


def test_frontier_mixed_directions_and_missing():
    rate = [100, 90, 80, np.nan]
    joules = [2.0, 1.0, 1.5, 0.1]
    # maximise rate, minimise joules: 80 @ 1.5 is beaten by 90 @ 1.0; the NaN point is never kept
    assert list(pareto.frontier(rate, joules, maximise=(True, False))) == [True, True, False, False]


def test_frontier_rejects_a_direction_per_axis_mismatch():
    with pytest.raises(ValueError, match="1 entries for 2 axes"):
        pareto.frontier([1, 2], [3, 4], maximise=(True,))


def test_frontier_keeps_a_tie_broken_on_another_axis():
    """(2, 5) dominates (1, 5): as good on y, better on x. Missing coordinates never count."""
    from benchbook.analysis import pareto

    assert list(pareto.frontier([1, 2], [5, 5])) == [False, True]
    assert list(pareto.frontier([1.0, None, 3.0], [3.0, 5.0, 1.0])) == [True, False, True]
    assert pareto.frontier().shape == (0,)


def test_fraction_of_peak_on_both_sides_of_its_rule():
    from benchbook.analysis import pareto

    y = [50.0, 90.0, 96.0, 100.0, 99.0]
    x = [1, 2, 4, 8, 16]
    assert pareto.fraction_of_peak(x, y, 0.95) == 2  # 96 >= 95: the smallest x that reaches the fraction
    assert pareto.fraction_of_peak(x, y, 0.96) == 2  # exactly on the line counts
    assert pareto.fraction_of_peak(x, y, 0.97) == 3
    assert pareto.fraction_of_peak(x, y, 1.0) == 3  # the peak itself
    assert pareto.fraction_of_peak(["10", "9", "8"], [1, 1, 1], 1.0) == 2  # numbers, not text order
    assert pareto.fraction_of_peak([1, 2, 3], [None, 10, 9.6], 0.95) == 1  # a missing y is skipped
    for bad in (0, -0.5, 1.5, 2):
        with pytest.raises(ValueError, match=r"fraction must be in \(0, 1\]"):
            pareto.fraction_of_peak(x, y, bad)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="no point with a known value"):
            pareto.fraction_of_peak([1, 2], [math.nan, math.nan], 0.9)
