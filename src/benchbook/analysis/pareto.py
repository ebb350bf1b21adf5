"""The Pareto frontier and the fraction-of-peak rule, shared by the chapters that trade one figure
of merit against another."""

from __future__ import annotations

import numpy as np


def frontier(*axes, maximise: tuple[bool, ...] | None = None) -> np.ndarray:
    """Mask of the points no other point dominates (at least as good on every axis, strictly better
    on one). `maximise` says per axis whether higher is better (default: all). A point with a
    missing coordinate is never on the frontier: it cannot be compared."""
    pts = np.column_stack([np.asarray(a, dtype=float) for a in axes]) if axes else np.empty((0, 0))
    if maximise is not None:
        if len(maximise) != pts.shape[1]:
            raise ValueError(f"maximise has {len(maximise)} entries for {pts.shape[1]} axes")
        pts = pts * np.where(maximise, 1.0, -1.0)
    finite = np.isfinite(pts).all(axis=1)
    keep = finite.copy()
    for i in np.flatnonzero(finite):
        better = (pts >= pts[i]).all(axis=1) & (pts > pts[i]).any(axis=1) & finite
        keep[i] = not better.any()
    return keep


def fraction_of_peak(x, y, fraction: float) -> int:
    """Position of the point with the smallest x whose y reaches `fraction` of the largest y: the
    fraction-of-peak rule (the batch-saturation knee, the power sweet spot). Points with a missing
    y are skipped; raises ValueError for a fraction outside (0, 1] or when no y is known."""
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction must be in (0, 1], got {fraction}")
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    ok = np.flatnonzero(np.isfinite(y) & (y >= fraction * np.nanmax(y))) if np.isfinite(y).any() else []
    if not len(ok):
        raise ValueError("no point with a known value")
    return int(ok[np.argmin(x[ok])])
