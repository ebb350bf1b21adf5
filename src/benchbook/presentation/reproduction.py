"""The reproduction appendix's figure and display tables."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook import checks
from benchbook.presentation.plotting import message_figure, plain_number

#: The three outcomes of a row, in legend order, and their colours (Okabe-Ito).
OUTCOMES = {"agrees": "#009E73", "disagrees": "#D55E00", "not checkable": "#999999"}

#: log10 of the percent difference drawn for an exact match (the x axis starts there).
EXACT = -4


def differences(table: pd.DataFrame) -> pd.DataFrame:
    """The rows with a published and a recomputed value, each published number once (`checks.repeats`),
    with log10 of |recomputed / published - 1| in percent and whether the row is `checkable`."""
    table = table[checks.repeats(table) == ""]
    df = table.dropna(subset=["published", "recomputed"]).assign(checkable=checks.checkable(table))
    df = df[df["published"].astype(float) != 0]
    rel = 100 * (df["recomputed"].astype(float) / df["published"].astype(float) - 1)
    return df.assign(magnitude=np.log10(rel.abs().clip(lower=10.0**EXACT)))


def agreement_figure(table: pd.DataFrame):
    """One strip per tool of how far each recomputed number lands from the published one, coloured by
    agreement at the printed precision; the legend sits below the axes, off the data."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    df = differences(table)
    if df.empty:
        return message_figure("no quantity with both a published and a recomputed value")
    n = df["tool"].nunique()
    fig, ax = plt.subplots(figsize=(7.5, 1.6 + 0.55 * n))
    df["agreement"] = np.where(
        ~df["checkable"], "not checkable", np.where(df["agrees"].eq(True), "agrees", "disagrees")
    )
    drawn = [k for k in OUTCOMES if (df["agreement"] == k).any()]
    sns.stripplot(
        data=df,
        y="tool",
        x="magnitude",
        hue="agreement",
        hue_order=drawn,
        palette=[OUTCOMES[k] for k in drawn],
        ax=ax,
        jitter=0.25,
        size=4,
        alpha=0.8,
    )
    percent_ticks(ax)
    ax.set_xlabel("|recomputed / published - 1| (%, log scale)")
    ax.set_ylabel("")
    handles, names = ax.get_legend_handles_labels()
    ax.get_legend().remove()
    fig.legend(
        handles, [f"{k} at the printed precision" for k in names], loc="lower center", ncols=len(names), fontsize=8
    )
    fig.tight_layout(rect=(0, 0.12 if n > 2 else 0.2, 1, 1))
    return fig


def percent_ticks(ax) -> None:
    """The x axis holds log10 of a percent: its ticks read as the percents themselves (0.001, 0.1, 10),
    and the axis's left end, where every exact match is drawn, as "exact"."""
    from matplotlib.ticker import FixedLocator, FuncFormatter

    lo, hi = ax.get_xlim()
    ax.xaxis.set_major_locator(FixedLocator(list(range(EXACT, int(np.floor(hi)) + 1))))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: "exact" if v <= EXACT else plain_number(10.0**v)))
    ax.set_xlim(lo, hi)


def summary_display(summary: pd.DataFrame) -> pd.DataFrame:
    """`checks.summary` with reader's column names (the `repeated` column only when a file repeats another)."""
    out = summary.rename(
        columns={"source": "file", "recomputed": "quantities recomputed", "repeated": "repeated from another file"}
    )
    return out if out["repeated from another file"].any() else out.drop(columns="repeated from another file")


def disagreements(table: pd.DataFrame) -> pd.DataFrame:
    """The disagreements grouped by tool and reason: how many, one example with its line, and the reason
    in full (each published number once, checkable rows only)."""
    table = table[(checks.repeats(table) == "") & checks.checkable(table)]
    off = table[table["agrees"].eq(False)].assign(
        reason=lambda d: d["why_not"].fillna("no reason given").str.split(":").str[0]
    )
    cols = ["tool", "reason", "count", "example", "first line", "detail"]
    if off.empty:
        return pd.DataFrame(columns=cols)
    g = off.groupby(["tool", "reason"], sort=True).agg(
        count=("quantity", "size"),
        example=("quantity", "first"),
        first_line=("line", "min"),
        detail=("why_not", "first"),
    )
    return g.reset_index().rename(columns={"first_line": "first line"})[cols]
