"""Recomputations of what the sources derived, and the defects found in them, one module per tool.

Each tool module offers `reproduce(path) -> DataFrame` with REPRODUCTION_COLUMNS and
`audit(path) -> DataFrame` with AUDIT_COLUMNS; the appendices stack them over every source.
"""

from __future__ import annotations

import pandas as pd

#: One recomputed quantity per row: what the source printed, what we get from the numbers it was
#: derived from, whether they agree at the printed precision, and why not when they do not.
REPRODUCTION_COLUMNS = ["source", "tool", "line", "quantity", "published", "recomputed", "tolerance", "agrees", "why_not"]

#: One defect per row, with its evidence and its consequence for the analysis.
AUDIT_COLUMNS = ["source", "tool", "defect", "line", "value", "evidence", "consequence"]


def frame(rows: list[dict], columns: list[str]) -> pd.DataFrame:
    """A checks table with exactly `columns` (missing keys become NaN)."""
    return pd.DataFrame(rows, columns=columns)


def agrees(published: float, recomputed: float, decimals: int) -> bool:
    """True when `recomputed`, rounded as the source printed it, equals `published` (half a unit
    in the last printed place of tolerance, to allow for the source's own rounding)."""
    return abs(round(recomputed, decimals) - published) <= 0.5 * 10 ** (-decimals) + 1e-12
