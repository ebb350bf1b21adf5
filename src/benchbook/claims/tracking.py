"""The tracking chapter's verdicts: each change in level, whether any was found, and each run
against the one before it (judged by the tools' own spread)."""

from __future__ import annotations

import math

import pandas as pd

from benchbook.analysis import tracking
from benchbook.analysis.changes import Change
from benchbook.claims import Claim, make
from benchbook.claims.rules import ABOVE, BELOW, versus


def _num(v) -> float | None:
    return float(v) if v is not None and not (isinstance(v, float) and math.isnan(v)) else None


def change(runs: pd.DataFrame, c: Change, k: int, alpha: float, metric: str) -> Claim:
    """A change in level before run `c.index`: after / before against the relative half-width of
    the Welch interval of its size (no interval when a segment has one run)."""
    half = max(abs(c.high - c.size), abs(c.size - c.low)) if math.isfinite(c.low) and math.isfinite(c.high) else None
    ev = {
        "a": c.after,
        "b": c.before,
        "ratio": c.after / c.before if c.before else None,
        "noise": half / abs(c.before) if half is not None and c.before else None,
        "size": c.size,
        "low": _num(c.low),
        "high": _num(c.high),
        "p_value": c.p_value,
        "alpha": alpha,
        "index": c.index,
        "run": runs["label"].iat[c.index],
        "previous_run": runs["label"].iat[c.index - 1],
        "metric": metric,
        "unit": runs["unit"].iat[0],
    }
    rule = "a split with permutation p < alpha whose 95 % Welch interval of the size excludes no change"
    return make(f"change_{k}", "comparison", rule, ev)


def untested(runs: pd.DataFrame, changes: list[Change], steps: pd.DataFrame, alpha: float) -> list[dict]:
    """The stretches between the changes found (and the series' ends) too short for the permutation test
    to split at `alpha` (`tracking.smallest_p` >= alpha) in which a step is beyond both runs' own spread:
    a further change there could not be shown, however large, so "changed level once" needs saying so."""
    beyond = {
        k + 1
        for k, s in enumerate(steps.itertuples())
        if _num(s.noise) is not None and versus(s.value, s.previous_value, _num(s.noise)) in (ABOVE, BELOW)
    }
    bounds = [0, *sorted(c.index for c in changes), len(runs)]
    return [
        {
            "runs": hi - lo,
            "from_run": runs["label"].iat[lo],
            "to_run": runs["label"].iat[hi - 1],
            "smallest_p": tracking.smallest_p(hi - lo),
            "first": float(runs["value"].iat[lo]),
            "last": float(runs["value"].iat[hi - 1]),
        }
        for lo, hi in zip(bounds, bounds[1:], strict=False)
        if tracking.smallest_p(hi - lo) >= alpha and any(lo < k < hi for k in beyond)
    ]


def any_change(
    runs: pd.DataFrame, changes: list[Change], alpha: float, metric: str, smallest_p: float, steps=None
) -> Claim:
    """Whether the series shows any change in level at `alpha`, with its largest change (by the
    ratio of the levels) for the sentence that answers the chapter's question, and the stretches
    the test could not split (`untested`) for its caveat."""
    n = len(runs)
    big = max(changes, key=lambda c: abs(math.log(c.after / c.before)) if c.before and c.after else 0, default=None)
    ev = {
        "count": len(changes),
        "n": n,
        "alpha": alpha,
        "smallest_p": smallest_p,
        "metric": metric,
        "unit": runs["unit"].iat[0] if n else None,
        "run": runs["label"].iat[big.index] if big else None,
        "a": big.after if big else None,
        "b": big.before if big else None,
        "ratio": big.after / big.before if big and big.before else None,
        "p_value": big.p_value if big else None,
        # the segment its p is counted over, and how many of its runs come before the change
        "segment_runs": big.end - big.start if big and big.end else None,
        "before_runs": big.index - big.start if big and big.end else None,
        "untested": untested(runs, changes, steps, alpha) if changes and steps is not None else [],
    }
    claim = make("changes", "anomaly", "a change is reported where the permutation test gives p < alpha", ev)
    if smallest_p >= alpha and not changes:
        claim = claim.withhold(
            f"with {n} runs no order of the values can give a p-value below {smallest_p:.2g}, "
            f"so no change can be shown at alpha {alpha:g}"
        )
    return claim


def step(row, metric: str) -> Claim:
    """One run against the run before it, beyond or within both runs' own spread."""
    ev = {
        "a": row["value"],
        "b": row["previous_value"],
        "ratio": _num(row["ratio"]),
        "noise": row["noise"],
        "run": row["run"],
        "previous_run": row["previous"],
        "metric": metric,
    }
    rule = "ratio of neighbours differs from 1 by more than two combined relative standard deviations"
    claim = make(f"step_{int(row['position'])}", "comparison", rule, ev)
    if claim.shown and ev["noise"] is None:
        claim = claim.withhold("there is no noise estimate: a run prints no spread")
    return claim


def build(runs: pd.DataFrame, changes: list[Change], steps: pd.DataFrame, alpha: float, metric: str, smallest_p):
    """Every claim of the chapter, in page order (unworded)."""
    out = [any_change(runs, changes, alpha, metric, smallest_p, steps)]
    out += [change(runs, c, k + 1, alpha, metric) for k, c in enumerate(changes)]
    out += [step(r, metric) for _, r in steps.iterrows()]
    return out
