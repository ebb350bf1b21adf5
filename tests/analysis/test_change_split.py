"""A change point's split: both segments keep at least `min_size` runs; its level before is kept."""

import numpy as np
import pytest

from benchbook.analysis import changes


def test_the_best_split_leaves_min_size_runs_on_each_side():
    x = np.array([0.0, 0, 0, 0, 0, 10])
    # total SS 100 - 100/6; the best split with 2 a side is 4 | 2 (SS 0 + 50); 5 | 1 would leave nothing
    assert changes._best_split_gain(x, 2) == pytest.approx(100 - 100 / 6 - 50)


def test_a_change_keeps_the_level_before_and_after():
    x = np.array([10.0, 10.2, 9.8, 10.1, 9.9, 20.0, 20.2, 19.8, 20.1, 19.9])
    (c,) = changes.change_points(x, alpha=0.05, seed=0)
    assert c.index == 5 and c.before == pytest.approx(10.0) and c.after == pytest.approx(20.0)
