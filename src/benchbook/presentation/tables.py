"""Tables for reading: every row, no index column, missing values as a dash (or a stated reason),
numbers with thousands separators, prose wrapped between its words, a name never broken inside
(only after a hyphen between its parts; a table too wide for the column scrolls sideways), an address shown as a link named by its host and a
hash in a name shortened, its whole name kept as its title.
pandas' Styler does the rendering, so a page shows a table the same way in the book and in a
`benchbook run` page."""

from __future__ import annotations

import math
import re

import pandas as pd
from pandas.io.formats.style import Styler

#: The most rows a table shows in the main flow; a longer one is folded under a one-line summary.
MAX_ROWS = 15

#: What a missing cell reads as, unless a table says why it is missing.
MISSING = "–"
#: What a cell that did not run reads as (a batch size past a failure, a configuration never measured).
NOT_RUN = "did not run"


def show(
    df: pd.DataFrame,
    *,
    digits: int | dict[str, int] = 3,
    missing: str | dict[str, str] | pd.DataFrame = MISSING,
    index: bool = False,
    caption: str | None = None,
    names=(),
):
    """A Styler of `df` for a page: all rows, floats to `digits` significant digits (per column when
    a dict; columns of whole numbers without decimals), integers with separators, infinity as ∞,
    NaN/None as `missing`, the index hidden unless it means something (`index=True`).

    `missing` says why a cell is empty: one text for every cell, a text per column (others get
    MISSING), or a frame of the same shape as `df` with a text per cell (NaN where MISSING will do).

    `names` are the table's labels (a chapter's scheme names): where the table would not fit the
    page's column they are shown as short aliases, with a legend under the table (`aliases`)."""
    from benchbook.presentation import aliases

    d, used = aliases.shorten(df.copy(), names)
    d.columns = [str(c) for c in d.columns]
    reasons = missing if isinstance(missing, pd.DataFrame) else None
    if not index:
        d = d.reset_index(drop=True)  # positional labels, so that a reason finds its cell
    if reasons is not None:
        if reasons.shape != df.shape:
            raise ValueError(f"missing has shape {reasons.shape}, the table {df.shape}")
        reasons = reasons.set_axis(d.index, axis=0).set_axis(d.columns, axis=1)
    per_column = missing if isinstance(missing, dict) else {}
    default = missing if isinstance(missing, str) else MISSING
    fmts = {col: _formatter(d[col], col, digits) or _text(_sig(digits, col)) for col in d.columns}
    st = Table(d)
    st.legend = aliases.legend(used, len(d.columns) + (d.index.nlevels if index else 0))
    for col in d.columns:
        st = st.format(fmts[col], na_rep=per_column.get(col, default), subset=[col])
        if reasons is not None:
            why = reasons[col][d[col].isna() & reasons[col].notna()]
            for text, cells in why.groupby(why):
                st = st.format(fmts[col], na_rep=str(text), subset=pd.IndexSlice[list(cells.index), [col]])
    if not index:
        st = st.hide(axis="index")
    st = st.set_properties(**{"white-space": "normal", "text-align": "right"})
    # text reads from the left
    text = [c for c in d.columns if not _numbers(d[c])]
    if text:
        st = st.set_properties(subset=text, **{"text-align": "left"})
    # a header sits over its numbers: right-aligned above a number column, left above text
    st = st.set_table_styles(
        {c: [{"selector": "th", "props": f"text-align: {'left' if c in text else 'right'}"}] for c in d.columns},
        overwrite=False,
    )
    if header_fits(d.columns):  # its headers' words fit side by side: wrap them between words only
        st = st.set_table_styles([{"selector": "th", "props": "overflow-wrap: normal"}], overwrite=False)
    st = st.set_table_attributes('class="dataframe benchbook-table"')
    if caption:
        st = st.set_caption(caption)
    return st


#: The characters of header words a text column holds side by side (the longest word of each header
#: plus two for its padding, summed over the columns): about 700 px of the book's table font.
HEADER_CHARS = 80


def header_fits(columns, chars: int = HEADER_CHARS) -> bool:
    """Whether a table's headers can wrap between words only and still fit the text column. The
    page's stylesheet lets a header break anywhere, so that a very wide table never runs past the
    column; but then the browser squeezes narrow columns until their headers break inside a word
    ("prompt-s"), even where the column has room. A table whose header words fit keeps them whole;
    `chars` is the column's room (a page with a wider column passes its own)."""
    longest = [max((len(w) for w in str(c).split()), default=0) + 2 for c in columns]
    return sum(longest) <= chars


class Table(Styler):
    """A Styler that folds itself when it has more than MAX_ROWS rows: the page shows a one-line
    summary (rows, columns and the caption) and the whole table opens under it. Its `legend` (the
    whole name of each short alias in it) is the table's last row."""

    legend = ""

    def _repr_html_(self) -> str:
        table = super()._repr_html_()
        if self.legend:
            table = table.replace("</tbody>", "</tbody>" + self.legend, 1)
        inner = SCROLL.format(table)
        rows, cols = self.data.shape
        if rows <= MAX_ROWS:
            return inner
        import html

        what = html.escape(self.caption) if isinstance(self.caption, str) and self.caption else "the table"
        names = ", ".join(html.escape(str(c)) for c in list(self.data.columns)[:4])
        more = f" and {cols - 4} more" if cols > 4 else ""
        summary = f"Open {what}: {rows:,} rows of {names}{more}"
        return f'<details class="benchbook-fold"><summary>{summary}</summary>\n{inner}\n</details>'


#: A name: letters or digits joined by other marks (bench_one_batch_server, w8a8-int8, examples/x.py,
#: Q4_K_M), at which a browser may break a line ("bench_one_ / batch_server"); prose words do not match.
NAME = re.compile(r"[A-Za-z0-9][^\sA-Za-z0-9.,:;'’]+[A-Za-z0-9]")
#: Where a name may break across lines: after a hyphen between two of its parts, as a hyphenated word
#: breaks in prose (`shisa-v2-mistral-nemo-` / `12b.i1-Q4_K_M`); never at `_`, `.` or `/`, whose halves
#: read as two words (`bench_one_` / `batch_server`), nor inside a part (`Q4_K_` / `M`). Each part is
#: kept whole (`WHOLE`) and a `<wbr>` marks the break, which a browser takes only where the column
#: would not hold the whole name.
HYPHEN = re.compile(r"(?<=[A-Za-z0-9]-)(?=[A-Za-z0-9])")
#: The span that keeps a name (or a part of it) on one line.
WHOLE = '<span class="benchbook-name" style="white-space: nowrap">{}</span>'
#: The box a table sits in: wider than the column, it scrolls sideways rather than break a name.
SCROLL = '<div class="benchbook-scroll" style="overflow-x: auto; max-width: 100%">{}</div>'


#: A hash in a name (a file named for its content, `003_7819709fab0fbd59.txt`; a commit): 16 or more hex
#: digits, letters and digits both, that no other letter or digit touches. It says which bytes, not
#: what they are: a cell shows its first HASH_SHOWN digits and an ellipsis, the whole name kept as the
#: name's title (`ABBR`), so a column of such names does not widen its table past the column.
HASH = re.compile(r"(?<![0-9A-Za-z])(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*[0-9])[0-9a-fA-F]{16,}(?![0-9A-Za-z])")
HASH_SHOWN = 8
#: A name shown shortened, its whole text on hover (and to a screen reader).
ABBR = '<abbr title="{whole}">{short}</abbr>'

#: An address in a cell's text, with the marks around it that are not part of it ("(https://x/y);").
URL = re.compile(r"(?P<before>[(\[]?)(?P<url>https?://(?P<host>[^/\s()]+)[^\s()]*?)(?P<after>[)\].,;:]*)")
#: An address as a cell shows it: a link named by its host, so a long path neither widens the table nor breaks.
LINK = '<a href="{url}">{host}</a>'


def _whole_names(v):
    """A text cell whose names (`NAME`) are each kept on one line, so that the cell wraps only between
    words: a name cut at a mark reads as two words (#34 item 9); an address is a link named by its host
    (`URL`). A cell holding HTML is left as it is."""
    if not isinstance(v, str) or "<" in v:
        return v
    return " ".join(_word(w) for w in v.split(" "))


def _word(w: str) -> str:
    import html

    m = URL.fullmatch(w)
    if m:
        host = m["host"].removeprefix("www.")
        link = LINK.format(url=html.escape(m["url"], quote=True), host=html.escape(host))
        return m["before"] + link + m["after"]
    if HASH.search(w):
        short = HASH.sub(lambda h: h[0][:HASH_SHOWN] + "…", w)
        return WHOLE.format(ABBR.format(whole=html.escape(w, quote=True), short=html.escape(short)))
    if not NAME.search(w):
        return w
    return "<wbr>".join(WHOLE.format(piece) for piece in name_parts(w))


def name_parts(w: str) -> list[str]:
    """A name cut where it may break (`HYPHEN`): after a hyphen with a part holding a letter on each
    side. A name opening with a mark (a flag, `--max-seconds`) is not cut, nor numbers joined by hyphens
    (a date, `2025-01-02`; a range, `1-32`), which read as one value."""
    if not w[:1].isalnum():
        return [w]
    pieces = HYPHEN.split(w)
    out = pieces[:1]
    for before, piece in zip(pieces, pieces[1:], strict=False):
        if _lettered(before) and _lettered(piece):
            out.append(piece)
        else:
            out[-1] += piece
    return out


def _lettered(part: str) -> bool:
    return any(c.isalpha() for c in part)


def _numbers(s: pd.Series) -> bool:
    """Whether a column reads as numbers (right-aligned): a numeric dtype, or cells that are all
    numbers although the column holds objects (a transposed table of quantities, one per row)."""
    if pd.api.types.is_bool_dtype(s):
        return False
    if pd.api.types.is_numeric_dtype(s):
        return True
    cells = s.dropna()
    return len(cells) > 0 and all(isinstance(v, int | float) and not isinstance(v, bool) for v in cells)


def _sig(digits: int | dict[str, int], col: str) -> int:
    return digits.get(col, 3) if isinstance(digits, dict) else digits


def _text(sig: int):
    """The display function of a text column: its names kept whole (`_whole_names`), and
    a number among the texts (an audit's value: "oom", "run3", a CV of 0.08385861137437957) shown as
    a number column shows it, to `sig` significant digits, never as the float's full repr."""
    number = _float_format(sig)

    def f(v):
        if isinstance(v, bool) or not isinstance(v, int | float):
            return _whole_names(v)
        if float(v).is_integer():
            return _whole(float(v))
        return number(v)

    return f


def _formatter(s: pd.Series, col: str, digits: int | dict[str, int]):
    """The display function of one column; None leaves the value as it is (text)."""
    if pd.api.types.is_bool_dtype(s) or (s.dtype == object and s.dropna().map(type).eq(bool).all() and s.notna().any()):
        return lambda v: "yes" if v else "no"
    if pd.api.types.is_integer_dtype(s):
        return "{:,}".format
    if pd.api.types.is_float_dtype(s):
        finite = s[s.notna() & s.abs().ne(math.inf)]
        if len(finite) and (finite == finite.round()).all():
            return _whole
        return _float_format(_sig(digits, col))
    return None


def _whole(v) -> str:
    return _infinite(v) or f"{v:,.0f}"


def _infinite(v) -> str | None:
    return ("∞" if v > 0 else "-∞") if math.isinf(v) else None


def _float_format(sig: int):
    """`sig` significant digits without exponents for numbers >= 1; thousands separated, and
    numbers of 1,000 or more to the unit."""

    def f(v):
        a = abs(v)
        if math.isinf(a):
            return _infinite(v)
        if a >= 1000:
            return f"{v:,.0f}"
        if a >= 1:
            return f"{v:,.{max(0, sig - 1 - int(math.log10(a)))}f}"
        return f"{v:#.{sig}g}" if v else "0"

    return f
