"""Tables for reading: every row, no index column, missing values as a dash (or a stated reason),
numbers with thousands separators, long text wrapped. pandas' Styler does the rendering, so a page
shows a table the same way in the book and in a `benchbook run` page."""

from __future__ import annotations

import math

import pandas as pd

#: What a missing cell reads as, unless a table says why it is missing.
MISSING = "–"


def show(
    df: pd.DataFrame,
    *,
    digits: int | dict[str, int] = 3,
    missing: str = MISSING,
    index: bool = False,
    caption: str | None = None,
):
    """A Styler of `df` for a page: all rows, floats to `digits` significant digits (per column when
    a dict), integers with separators, `missing` for NaN/None, the index hidden unless it means
    something (`index=True`)."""
    d = df.copy()
    d.columns = [str(c) for c in d.columns]
    fmts = {}
    for col in d.columns:
        s = d[col]
        if pd.api.types.is_bool_dtype(s):
            fmts[col] = lambda v: "yes" if v is True or v == 1 else ("no" if v is False or v == 0 else missing)
        elif pd.api.types.is_integer_dtype(s):
            fmts[col] = "{:,}"
        elif pd.api.types.is_float_dtype(s):
            n = digits.get(col, 3) if isinstance(digits, dict) else digits
            fmts[col] = _float_format(n)
    st = d.style.format(fmts, na_rep=missing).format(na_rep=missing, subset=[c for c in d.columns if c not in fmts])
    if not index:
        st = st.hide(axis="index")
    st = st.set_properties(**{"white-space": "normal", "text-align": "right"})
    # text reads from the left; a cell with a very long word (a URL, a file name) may break inside it, so
    # that it does not push the table wider than the page, while short words are never split
    text = [c for c in d.columns if not pd.api.types.is_numeric_dtype(d[c]) and not pd.api.types.is_bool_dtype(d[c])]
    if text:
        st = st.set_properties(subset=text, **{"text-align": "left"})
        st = st.map(lambda v: "overflow-wrap: anywhere" if _long_word(v) else "", subset=text)
    st = st.set_table_attributes('class="dataframe benchbook-table"')
    if caption:
        st = st.set_caption(caption)
    return st


#: Characters beyond which a word may be broken inside a table cell.
LONG_WORD = 24


def _long_word(v) -> bool:
    return isinstance(v, str) and any(len(w) > LONG_WORD for w in v.split())


def _float_format(sig: int):
    """`sig` significant digits without exponents for numbers >= 1; thousands separated, and
    numbers of 1,000 or more to the unit."""

    def f(v):
        if v is None or pd.isna(v):
            return MISSING
        a = abs(v)
        if a >= 1000:
            return f"{v:,.0f}"
        if a >= 1:
            return f"{v:,.{max(0, sig - 1 - int(math.log10(a)))}f}"
        return f"{v:.{sig}g}"

    return f
