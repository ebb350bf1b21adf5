"""The tracking chapter's figure, tables and descriptions (its claims' sentences are in
notebooks/tracking.claims.yml)."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from benchbook.presentation import wording
from benchbook.presentation.plotting import PALETTE


def _say(name: str, **values) -> str:
    """One of the chapter's descriptive sentences (notebooks/tracking.claims.yml, `sentences:`)."""
    return wording.sentence("tracking", name, **values)


def order_words(order: str, n: int, undated: int) -> str:
    """How the runs are put in order: by their printed dates, else as given or by source name."""
    return _say("order", order=order, n=n, undated=undated)


def runs_table(runs: pd.DataFrame, metric: str, statistic: str) -> pd.DataFrame:
    """The runs in the order of the series (counted from 1), each value with its run's own spread
    in the metric's unit."""
    unit = runs["unit"].dropna().iat[0] if runs["unit"].notna().any() else ""
    in_unit = f", {unit}" if unit else ""
    return (
        runs[["position", "label", "run_date", "value", "std"]]
        .assign(position=runs["position"] + 1)
        .rename(
            columns={
                "position": "order",
                "label": "run",
                "run_date": "date",
                "value": f"{metric.replace('_', ' ')} ({statistic}{in_unit})",
                "std": f"spread (std{in_unit})",
            }
        )
    )


#: A run whose output prints no date.
RUNS_MISSING = dict(wording.words("tracking")["empty_cells"]["runs"])


def series_figure(runs: pd.DataFrame, changes, metric: str, statistic: str):
    """The metric over runs with each run's own spread, the level of each segment, and each
    change's 95 % interval drawn as a band around the level after it."""
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    x = runs["position"].to_numpy()
    y = runs["value"].to_numpy()
    err = runs["std"].to_numpy(dtype=float)
    ax.errorbar(
        x,
        y,
        yerr=np.where(np.isfinite(err), err, 0),
        fmt="o-",
        color=PALETTE[0],
        capsize=3,
        lw=1,
        label=f"{metric} ({statistic}), bar: the run's own std",
    )
    bounds = [0] + [c.index for c in changes] + [len(runs)]
    for k, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:], strict=True)):
        ax.hlines(
            y[lo:hi].mean(), lo - 0.3, hi - 0.7, color=PALETTE[1], lw=2, label="segment level" if k == 0 else None
        )
    for k, c in enumerate(changes):
        ax.axvline(c.index - 0.5, color=PALETTE[3], ls="--", lw=1, label="change" if k == 0 else None)
        if math.isfinite(c.low) and math.isfinite(c.high):
            ax.fill_between(
                [c.index - 0.5, c.index + 0.5],
                c.before + c.low,
                c.before + c.high,
                color=PALETTE[3],
                alpha=0.2,
                label="95 % interval of the new level" if k == 0 else None,
            )
    ax.set_xticks(x, runs["label"], rotation=30 if len(runs) > 4 else 0, ha="right" if len(runs) > 4 else "center")
    ax.set_xlabel("run, in the order of the series")
    ax.set_ylabel(f"{metric.replace('_', ' ')} ({runs['unit'].iat[0]})")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0))  # beside the axes: rotated run labels below
    fig.tight_layout()
    return fig


def smallest_p_figure(n_runs: int, alpha: float, most: int = 14):
    """The lesson: the smallest p-value the permutation test can give against the number of runs
    (`tracking.smallest_p`), with the chapter's alpha and this series' length marked."""
    from benchbook.analysis import tracking

    n = np.arange(4, max(most, n_runs) + 1)
    p = [tracking.smallest_p(int(k)) for k in n]
    fig, ax = plt.subplots(figsize=(7.5, 4))
    ax.plot(n, p, "o-", color=PALETTE[0], label="smallest p the test can give")
    ax.axhline(alpha, color="black", ls="--", lw=1, label=f"alpha {alpha:g}")
    ax.axvline(n_runs, color="gray", lw=1, label=f"this series: {n_runs} runs")
    ax.set_yscale("log")
    ticks = [0.001, 0.01, 0.05, 0.3]
    ax.set_yticks(ticks, [f"{t:g}" for t in ticks])
    ax.minorticks_off()
    ax.set_xticks(n[::2] if len(n) > 12 else n)
    ax.set_xlabel("runs in the series")
    ax.set_ylabel("smallest p-value")
    ax.legend(loc="lower left")
    fig.tight_layout()
    return fig
