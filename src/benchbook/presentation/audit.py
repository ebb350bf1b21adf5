"""The audit's tables for reading (the data-audit appendix and each chapter's audit section):
the columns of `checks.AUDIT_COLUMNS` and of the parsers' set-aside numbers in a reader's words."""

from __future__ import annotations

import pandas as pd

from benchbook.presentation.plotting import message_figure

#: The audit's columns in a reader's words.
AUDIT_WORDS = {
    "source": "file",
    "tool": "tool",
    "defect": "defect",
    "line": "line",
    "value": "value",  # as printed ("oom", "run3"), or computed from what was printed (a CV, a ratio)
    "evidence": "evidence",
    "consequence": "what it does to the analysis",
}
#: The set-aside numbers' columns in a reader's words.
SET_ASIDE_WORDS = {"source": "file", "line": "line", "text": "text as printed", "reason": "why it was set aside"}


#: What a consequence reads as in a row that repeats the one above it.
AS_ABOVE = "as above"


def audit_table(audit: pd.DataFrame, columns=("defect", "line", "value", "evidence")) -> pd.DataFrame:
    """The defects, one per row, with the columns asked for, a defect's rows together (in the order
    its kind first appears). A consequence is said once per run of rows that share it: the rows
    after say AS_ABOVE (nine duplicated run labels printed the same long sentence nine times)."""
    t = audit[list(columns)].copy()
    if "defect" in t:
        first = {d: i for i, d in reversed(list(enumerate(t["defect"])))}
        t = t.iloc[sorted(range(len(t)), key=lambda i: (first[t["defect"].iat[i]], i))]
    if "consequence" in t:
        same = t["consequence"].eq(t["consequence"].shift()) & t["consequence"].notna()
        if "defect" in t:
            same &= t["defect"].eq(t["defect"].shift())
        t["consequence"] = t["consequence"].mask(same, AS_ABOVE)
    return t.reset_index(drop=True).rename(columns=AUDIT_WORDS)


def defect_counts(audit: pd.DataFrame) -> pd.DataFrame:
    """Defects per class and tool, the most frequent first (columns defect, tool, count)."""
    return (
        audit.groupby(["defect", "tool"])
        .size()
        .rename("count")
        .reset_index()
        .sort_values(["count", "defect"], ascending=[False, True], ignore_index=True)
    )


def defects_figure(counts: pd.DataFrame):
    """Defects per class, one bar per class coloured by tool (`defect_counts`); with none, a figure
    that says so (no empty axes, no legend of nothing)."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    if counts.empty:
        return message_figure("no defect found in these files")
    fig, ax = plt.subplots(figsize=(7.5, 0.5 + 0.35 * len(counts)))
    sns.barplot(data=counts, y="defect", x="count", hue="tool", ax=ax, dodge=False)
    ax.set_xlabel("defects found (count)")
    ax.set_ylabel("")
    ax.legend(fontsize=8)
    return fig


def consequence_table(audit: pd.DataFrame) -> pd.DataFrame:
    """Per tool and defect class: how many, the first line, and what it does to the analysis."""
    t = (
        audit.groupby(["tool", "defect"])
        .agg(count=("line", "size"), first_line=("line", "min"), consequence=("consequence", "first"))
        .reset_index()
    )
    return t.rename(columns={"count": "defects", "first_line": "first line", **AUDIT_WORDS})


def set_aside_counts(set_aside: pd.DataFrame, kinds: pd.Series) -> pd.DataFrame:
    """Numbers set aside per file and kind of reason (`kinds`: ingest.reason_kind of each row)."""
    return (
        set_aside.assign(kind=kinds)
        .groupby(["source", "kind"])
        .size()
        .rename("numbers set aside")
        .reset_index()
        .rename(columns={"source": "file", "kind": "reason"})
    )


def set_aside_table(set_aside: pd.DataFrame) -> pd.DataFrame:
    """Every number set aside, with the text it was read from and why."""
    return set_aside[list(SET_ASIDE_WORDS)].rename(columns=SET_ASIDE_WORDS)
