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
