"""Short aliases for the names of a table too wide for the page's column (#34 item 9).

A scheme name such as `w8a8_sparse_smooth_gptq` is kept on one line (`tables.NAME`), so five columns
of them made quantization's tables scroll sideways, a column out of view at 800 px. Where a table
would not fit, each name keeps its precision part whole (w8a8, w8a16, fp8: what the chapter compares)
and every other part is cut to its shortest prefix that no other part of the table's names starts
with, so two names never share an alias (`w8a16_sparse_awq` and `w8a16_smooth_awq` become
`w8a16_sp_a` and `w8a16_sm_a`, where initials alone would give both `w8a16_s_a`). A legend under
the table gives each alias its whole name; a table that fits keeps its names whole."""

from __future__ import annotations

import re

import pandas as pd

from benchbook.presentation import wording

#: A precision part of a name, kept whole: weights and activations (w8a8, w4a16), a number format
#: (fp8, bf16, int4, nvfp4, mxfp4), or a GGUF quant type (q4, q8).
PRECISION = re.compile(r"(?i)w\d+a\d+|w\d+|a\d+|(?:nv|mx)?fp\d+|bf\d+|int\d+|q\d+")
#: The marks that join a name's parts; an alias keeps each where the name has it.
JOINS = re.compile(r"([_\-.])")
#: A name in a cell's text: word characters joined by the marks of `JOINS` (a prose word is not one).
NAME = re.compile(r"\w+(?:[_\-.]\w+)+")

#: The characters of a table's narrowest layout (each column's longest word or name, plus two for its
#: padding, summed) that fit the text column of an 800 px window, about 560 px: in Chromium under the
#: book's stylesheet quantization's tables fit at 74 and 84 such characters and scrolled at 86 and 90.
COLUMN_CHARS = 84

#: The row under a table's rows that gives each alias its whole name: part of the table (a key
#: printed from its data, not a sentence of the page), spanning its `{cols}` columns. Its words are
#: the sentence `table_legend` of benchbook/report.claims.yml (`WORDING`), where a teacher edits them.
LEGEND = '<tfoot><tr><td class="benchbook-legend" colspan="{cols}" style="text-align: left">{text}</td></tr></tfoot>'
#: The wording file of the legend's sentence.
WORDING = "report"
LEGEND_ITEM = '<span class="benchbook-name" style="white-space: nowrap">{}&nbsp;=&nbsp;{}</span>'


def aliases(names, among=()) -> dict[str, str]:
    """Each name's alias: its precision parts whole, each other part cut to its shortest prefix that
    no other distinct part of `names` (or of the names `among`, shown whole beside them) starts with. A name of one part (`original`) stays whole: it is
    a word, not parts joined. An alias that saves nothing is the name itself."""
    names = list(dict.fromkeys(str(n) for n in names))
    split = {n: JOINS.split(n) for n in names}
    parts = {p for n in [*names, *map(str, among)] for p in JOINS.split(n)[::2] if p}
    out = {}
    for n, pieces in split.items():
        if len(pieces) == 1:
            out[n] = n
            continue
        cut = [p if i % 2 or PRECISION.fullmatch(p) else _prefix(p, parts) for i, p in enumerate(pieces)]
        out[n] = "".join(cut)
    return out


def _prefix(part: str, parts: set[str]) -> str:
    """The shortest prefix of `part` that no other part starts with (the part itself when none is)."""
    others = [q for q in parts if q != part]
    for k in range(1, len(part)):
        if not any(q.startswith(part[:k]) for q in others):
            return part[:k]
    return part


def narrowest(df: pd.DataFrame) -> int:
    """The characters of `df`'s narrowest layout: per column, its longest header word or cell word
    (a name is one word: it is never broken), plus two for its padding."""
    total = 0
    for col in df.columns:
        words = str(col).split() + [w for v in df[col] if isinstance(v, str) for w in v.split()]
        total += max((len(w) for w in words), default=0) + 2
    return total


def shorten(df: pd.DataFrame, names, chars: int = COLUMN_CHARS) -> tuple[pd.DataFrame, dict[str, str]]:
    """`df` with each of `names` in its text cells given its alias, and the aliases used (alias ->
    name), where `df` would not fit `chars`; else `df` as it is and no aliases."""
    if narrowest(df) <= chars:
        return df, {}
    present = [n for n in dict.fromkeys(map(str, names)) if df.map(lambda v, n=n: _has(v, n)).any().any()]
    beside = {m[0] for v in df.to_numpy().ravel() if isinstance(v, str) for m in NAME.finditer(v)}
    table = {n: a for n, a in aliases(present, among=beside).items() if a != n}
    if not table:
        return df, {}
    pattern = re.compile(
        r"(?<![\w.-])(" + "|".join(map(re.escape, sorted(table, key=len, reverse=True))) + r")(?![\w-])"
    )
    out = df.map(lambda v: pattern.sub(lambda m: table[m[1]], v) if isinstance(v, str) else v)
    used = {a: n for n, a in table.items() if out.map(lambda v, a=a: _has(v, a)).any().any()}
    return out, used


def _has(v, name: str) -> bool:
    return isinstance(v, str) and re.search(r"(?<![\w.-])" + re.escape(name) + r"(?![\w-])", v) is not None


def legend(used: dict[str, str], cols: int) -> str:
    """The row under a table of `cols` columns that gives each alias (`used`: alias -> name) its whole name."""
    import html

    items = [LEGEND_ITEM.format(html.escape(a), html.escape(n)) for a, n in sorted(used.items(), key=lambda x: x[1])]
    if not items:
        return ""
    return LEGEND.format(cols=cols, text=wording.sentence(WORDING, "table_legend", items="; ".join(items)))
