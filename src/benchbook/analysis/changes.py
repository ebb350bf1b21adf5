"""Change points in a metric over runs in time order: where did performance shift, by how much,
and how sure is that?

Binary segmentation: ruptures (`Binseg`, least-squares cost) places the best single split of a
segment; a permutation test asks how often shuffled values split as well (the same least-squares
statistic, the best over every split position), which gives the p-value: exact, over every order of
the values, for a segment of at most EXACT_RUNS runs (where a sampled p would scatter by about 0.007
around a threshold such as 0.05, and could fall below the least p any order allows); sampled beyond.
A split with p < alpha is kept and both halves are searched again. Each test is at level alpha, so a long flat series would
collect false alarms at 0.05; the default is 0.01.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Change:
    """A shift in level: `index` is the position (in time order) of the first run after it."""

    index: int
    before: float
    after: float
    size: float  # after - before
    low: float  # 95 % interval of the size (Welch)
    high: float
    p_value: float
    start: int = 0  # the segment the test shuffled: runs start..end-1 (its p is over their orders)
    end: int = 0


#: The most runs a segment may have for its p-value to be counted over every order (8! = 40,320 orders).
EXACT_RUNS = 8


def _shuffles(seg: np.ndarray, permutations: int, rng: np.random.Generator) -> np.ndarray:
    """The orders of `seg` the test compares with: all of them (the observed one included) up to
    EXACT_RUNS runs, else `permutations` random ones."""
    if len(seg) <= EXACT_RUNS:
        return seg[np.array(list(itertools.permutations(range(len(seg)))))]
    return np.array([rng.permutation(seg) for _ in range(permutations)])


def _best_split_gain(x: np.ndarray, min_size: int) -> np.ndarray:
    """For each series in the rows of `x`, the largest drop in squared error from one split
    (cumulative sums: every split position at once)."""
    n = x.shape[-1]
    c1 = np.cumsum(x, axis=-1)
    c2 = np.cumsum(x * x, axis=-1)
    total = c2[..., -1] - c1[..., -1] ** 2 / n
    k = np.arange(min_size, n - min_size + 1)
    left = c2[..., k - 1] - c1[..., k - 1] ** 2 / k
    right = (c2[..., -1:] - c2[..., k - 1]) - (c1[..., -1:] - c1[..., k - 1]) ** 2 / (n - k)
    return total - (left + right).min(axis=-1)


def _split(x: np.ndarray, min_size: int) -> int:
    import ruptures as rpt

    algo = rpt.Binseg(model="l2", min_size=min_size, jump=1).fit(x.reshape(-1, 1))
    return int(algo.predict(n_bkps=1)[0])


def change_points(
    values, *, alpha: float = 0.01, permutations: int = 999, min_size: int = 2, seed: int = 0
) -> list[Change]:
    """Significant changes in level, in time order (see the module docstring)."""
    x = np.asarray(values, dtype=float)
    if not np.isfinite(x).all():
        raise ValueError("the series has missing or infinite values")
    rng = np.random.default_rng(seed)
    found: list[Change] = []

    def search(lo: int, hi: int) -> None:
        seg = x[lo:hi]
        if len(seg) < 2 * min_size or np.ptp(seg) == 0:
            return
        observed = _best_split_gain(seg, min_size)
        perms = _shuffles(seg, permutations, rng)
        as_good = int((_best_split_gain(perms, min_size) >= observed * (1 - 1e-12)).sum())
        # every order counted: the share as good (the observed among them); sampled: the observed added
        p = as_good / len(perms) if len(seg) <= EXACT_RUNS else (1 + as_good) / (permutations + 1)
        if p >= alpha:
            return
        k = lo + _split(seg, min_size)
        a, b = x[lo:k], x[k:hi]
        size = float(b.mean() - a.mean())
        low, high = _welch_interval(a, b)
        found.append(Change(k, float(a.mean()), float(b.mean()), size, low, high, p, lo, hi))
        search(lo, k)
        search(k, hi)

    search(0, len(x))
    return sorted(found, key=lambda c: c.index)


def _welch_interval(a: np.ndarray, b: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """Interval of mean(b) - mean(a) (Welch); a segment of one run has no spread: NaN bounds."""
    va, vb = a.var(ddof=1) if len(a) > 1 else math.nan, b.var(ddof=1) if len(b) > 1 else math.nan
    se2 = va / len(a) + vb / len(b)
    if not math.isfinite(se2):
        return math.nan, math.nan
    d = b.mean() - a.mean()
    if se2 == 0:
        return float(d), float(d)
    dof = se2**2 / ((va / len(a)) ** 2 / (len(a) - 1) + (vb / len(b)) ** 2 / (len(b) - 1))
    from scipy import stats  # here, not at the top: a report that finds no change need not import it

    t = stats.t.ppf(0.5 + level / 2, dof)
    return float(d - t * math.sqrt(se2)), float(d + t * math.sqrt(se2))
