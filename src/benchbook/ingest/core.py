"""What every parser shares: the error type, the result type, the tidy columns and the registry."""

from __future__ import annotations

import contextvars
import ctypes
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import repeat

import numpy as np
import pandas as pd
import pandera.pandas as pa
import pyarrow
from pandas.api.types import union_categoricals

from benchbook.nouns import counted

#: Columns every tidy table has, in this order; a tool's setting columns go between
#: `line` and `metric`.
LEAD_COLUMNS = ["tool", "source", "line"]
TAIL_COLUMNS = ["metric", "statistic", "value", "unit", "note"]
STATISTICS = {"mean", "min", "max", "std", "median", "p50", "p90", "p95", "p99", "value", "count"}
#: A percentile as the tools print it (vLLM's `--metric-percentiles 1,25,99.9` as `P99.9 TTFT (ms)`,
#: AIPerf's and GenAI-Perf's `p1` ... `p99`): its rank N, 0 < N < 100.
_PERCENTILE = re.compile(r"[pP]?(\d{1,2}(?:\.\d+)?)")


def percentile(name) -> str | None:
    """The tidy statistic of a percentile a tool names `p<N>`, `P<N>` or N: `p<N>` with N as written
    without trailing zeros (`p99.9`, `p25`, `p1`), for any 0 < N < 100; None for anything else."""
    m = _PERCENTILE.fullmatch(str(name).strip())
    if not m or not 0 < float(m.group(1)) < 100:
        return None
    return f"p{float(m.group(1)):g}"


def is_statistic(name) -> bool:
    """Whether `name` is a tidy statistic: one of `STATISTICS` or a percentile in its tidy form."""
    return name in STATISTICS or percentile(name) == name


REJECTED_COLUMNS = ["tool", "source", "line", "text", "reason"]

#: Runs whose mean input or mean output tokens a request differ by more than this factor are runs of
#: different workloads (127 against 506 prompt tokens), never loads of one sweep, and a table whose mean
#: input differs so from the length the log above it asks for is not that log's run. A sweep re-sampling
#: its prompts at each load varies less (the fixtures' sweeps: 1.3 at most, an agentic trace's output).
WORKLOAD_SPREAD = 1.5


class ParseError(ValueError):
    """Input that is not a valid output of the tool: says which file, which line, what was expected."""

    def __init__(self, source: str, line: int | None, message: str):
        self.source = source
        self.line = line
        self.message = message
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {message}")


@dataclass
class Parsed:
    """One tool's reading of one file.

    `table` is the tidy table; `rejected` lists every numeric cell that was seen but not kept,
    with the reason; `messages` holds repairs (e.g. mojibake fixed) and warnings (e.g. a run that
    stopped in a traceback); `cells_read` counts the numeric cells seen, so that
    cells_read == len(table) + len(rejected) can be checked; `version` is the parser's guess of
    the tool version or output format (e.g. "build b5163"), when the output tells.
    """

    tool: str
    table: pd.DataFrame
    rejected: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=REJECTED_COLUMNS))
    messages: list[str] = field(default_factory=list)
    cells_read: int = 0
    version: str | None = None
    #: (first, last) 1-based lines of text the parser found to be another run's (a log above a table of
    #: another workload): what they state is no fact of this output's runs, nor a sign of one
    others: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        """Every parser's result passes the same screen: values outside their unit's physical range,
        repeated rows and conflicting rows move from the table to `rejected`, each with its reason
        (so kept + rejected still equals the cells read, and no chapter meets them as data).
        Under `deferred_checks` the screen waits for `settle`."""
        if not _DEFERRED.get():
            self.apply_screen()

    def apply_screen(self) -> None:
        """Move the rows `screen` refuses from the table to `rejected`, each with its reason."""
        large = len(self.table) >= LARGE
        if large:
            release_memory()
        if len(self.table):
            tool = REGISTRY.get(self.tool)
            source = self.table["source"].iat[0]
            self.table, out, notes = screen(self.table, repeats=tool is None or tool.screen_repeats)
            if len(out):
                out.insert(0, "tool", pd.Categorical.from_codes(np.zeros(len(out), dtype=np.int8), [self.tool]))
                out.insert(1, "source", pd.Categorical.from_codes(np.zeros(len(out), dtype=np.int8), [source]))
                # a concat of one frame would copy it: on a large file that is the whole report again
                self.rejected = stack_reports([self.rejected, out]) if len(self.rejected) else out
                self.messages = [*self.messages, *notes]
            if large:
                release_memory()


@dataclass(frozen=True)
class Tool:
    """A registered parser: its name, the setting columns it emits (with dtypes), a sniffer that
    says whether a text holds this tool's output, and the parse function."""

    name: str
    settings: dict[str, str]
    sniff: Callable[[str], bool]
    parse: Callable[[str, str], Parsed]
    #: The formats it reads, in a few words (what `benchbook ingest` lists for an unknown file).
    description: str = ""
    metrics: dict[str, str] = field(default_factory=dict)
    #: The command that produces the output, as a reader would type it.
    command: str = ""
    #: False where two rows with the same settings are two measurements by design (sglang's run
    #: blocks: a repeated run label is a separate run, which the audit reports), so `screen` leaves
    #: repeats alone.
    screen_repeats: bool = True
    #: What each of its output formats (the values of its `format` setting) can print: setting and
    #: metric names. A page may say that a run lacks X only where its format carries X and the
    #: parser looked for it and found none; a format not listed declares nothing (see
    #: `ingest.carries`).
    carries: dict[str, frozenset[str]] = field(default_factory=dict)
    #: The run facts its own table prints on every row (a setting column such as llama-bench's type_k),
    #: as (fact name of `ingest.context.NAMES`, value, line, text), for the list of what a file states.
    facts: Callable[[pd.DataFrame], list[tuple]] | None = None
    #: An output beside the tool's that it recognises and does not read (SGLang's gsm8k accuracy print
    #: beside its quantization reports): (line, why), asked only where no tool's sniffer sees the file,
    #: so that the file is refused in one sentence naming that line rather than as unknown.
    refuses: Callable[[str], tuple[int, str] | None] | None = None
    #: What the tool's source sets where its output states nothing (vLLM's `--burstiness`, 1.0), per output
    #: format (`"*"`: every format not named; a format mapped to `{}` declares none), so that a page may say
    #: the setting a run took without printing it: `ingest.default`.
    defaults: dict[str, dict[str, float]] = field(default_factory=dict)

    def schema(self) -> pa.DataFrameSchema:
        """The pandera schema of this tool's tidy table."""
        cols = {
            "tool": pa.Column(str, pa.Check.eq(self.name)),
            "source": pa.Column(str),
            "line": pa.Column("int64", pa.Check.ge(1)),
        }
        for name, dtype in self.settings.items():
            cols[name] = pa.Column(dtype, nullable=True, required=True)
        cols.update(
            {
                "metric": pa.Column(str, pa.Check.str_matches(r"^[a-z][a-z0-9_]*$")),
                "statistic": pa.Column(str, pa.Check(lambda s: s.isin([v for v in s.unique() if is_statistic(v)]))),
                "value": pa.Column(float, nullable=True),
                "unit": pa.Column(str),
                "note": pa.Column(str, nullable=True),
            }
        )
        return pa.DataFrameSchema(cols, strict=True, ordered=True, coerce=True)


#: Generous physical ceilings per unit: a measured value above its ceiling, negative, or not finite
#: (inf, or a number too long for a float) is not a measurement and is rejected with the reason.
CEILINGS = {
    "tok/s": 1e9,
    "seq/s": 1e9,
    "req/s": 1e9,
    "ms": 1e9,  # about 11.6 days
    "s": 1e6,
    "tok": 1e13,
    "req": 1e10,
    "count": 1e10,
    "runs": 1e6,
    "TFLOP/s": 1e6,  # an exaflop per second
    "%": 100.0,
    "fraction": 1.0,
    "x": 1e9,
    "W": 1e5,
    "J": 1e12,
    "tok/J": 1e7,
}
#: The reasons `screen` gives (their heads), so reports can group by kind.
OUT_OF_RANGE, DUPLICATE, CONFLICT = "out of physical range", "duplicate row", "conflicting rows"
#: Columns that are not part of a row's configuration when looking for repeated rows.
_NOT_KEYS = {"tool", "source", "line", "value", "note"}


class _Reasons:
    """Why each row of a table is set aside: a code per row (-1: kept) into a list of distinct
    reasons. A large file's report repeats a few hundred reasons hundreds of thousands of times; a
    string per row held it several times over while it was made (issue 21)."""

    def __init__(self, n: int):
        self.code = np.full(n, -1, dtype=np.int64)
        self.names: list[str] = []

    def give(self, where: np.ndarray, reason: str) -> None:
        """The same reason to the rows of the mask `where`, if any (a reason no row has is not listed)."""
        if where.any():
            self.code[where] = len(self.names)
            self.names.append(reason)

    def give_each(self, where: np.ndarray, lines: np.ndarray, template: str) -> None:
        """To each row at `where`, `template` filled with its entry of `lines` (one text per line)."""
        codes, distinct = pd.factorize(lines)
        self.code[where] = len(self.names) + codes
        self.names.extend(template.format(x) for x in distinct)

    def column(self, out: np.ndarray) -> pd.Categorical:
        """The reasons of the rows `out`, as a categorical column: each distinct reason held once."""
        codes, names = pd.factorize(np.asarray(self.names, dtype=object))
        return pd.Categorical.from_codes(codes[self.code[out]], categories=pd.Index(names, dtype="str"))


def _range_reasons(values: np.ndarray, units: pd.Series, reasons: _Reasons) -> None:
    """Give each value that cannot be a measurement in its unit its reason (NaN is 'not measured').
    Worked per distinct unit, not per row."""
    codes, names = pd.factorize(units, use_na_sentinel=False)
    with np.errstate(invalid="ignore"):
        infinite = np.isinf(values)
        for i, u in enumerate(names):
            ceiling = CEILINGS.get(u)
            here = codes == i
            reasons.give(
                here & infinite, f"{OUT_OF_RANGE}: not a finite number ({u}; inf, or too many digits for a float)"
            )
            if ceiling is not None:
                reasons.give(here & (values < 0) & ~infinite, f"{OUT_OF_RANGE}: negative {u}")
                reasons.give(here & (values > ceiling) & ~infinite, f"{OUT_OF_RANGE}: above {ceiling:g} {u}")


#: Rows of a rejected report whose texts are made at a time (the Python strings of one block only).
_BLOCK_ROWS = 65_536


def _texts(t: pd.DataFrame) -> pd.Series:
    """What a rejected row showed: metric, statistic and value, as a text column. Made as plain
    strings a block of rows at a time, each block stored in Arrow at once: the same text through
    Arrow string operations held about ten times its size while it was made, and a Python string
    per row of a large report held it three times over."""
    blocks = []
    for a in range(0, len(t), _BLOCK_ROWS):
        b = t.iloc[a : a + _BLOCK_ROWS]
        blocks.append(
            pyarrow.array(
                [f"{m} {s} {v:g}" for m, s, v in zip(b["metric"], b["statistic"], b["value"], strict=True)],
                type=pyarrow.large_string(),
            )
        )
    return pd.Series(pyarrow.chunked_array(blocks, type=pyarrow.large_string()), index=t.index, dtype="str")


def _configurations(t: pd.DataFrame, keys: list[str]) -> np.ndarray:
    """Per row, a number naming its configuration (its values of `keys`, a missing value being one
    value), numbered in order of first appearance: what `groupby(keys, sort=False).ngroup()` gives,
    folded one column at a time, since the group-by holds every key's codes at once (on a large
    file, 8 bytes a row for each of 10 to 30 columns)."""
    gid = np.zeros(len(t), dtype=np.int64)
    for c in keys:
        codes, names = pd.factorize(t[c], use_na_sentinel=False)
        gid, _ = pd.factorize(gid * max(len(names), 1) + codes)
    return gid


#: The columns a rejected row's report is made of.
_SHOWN = ["line", "metric", "statistic", "value"]

#: Conflicts spelled out in the messages (all of them are in the rejected report).
_CONFLICTS_SHOWN = 5


def screen(table: pd.DataFrame, repeats: bool = True) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """Split a tidy table into (kept table, rejected rows as line/text/reason, messages): values
    outside their unit's range; rows repeated with the same configuration and value (the first is
    kept, each repeat reported as a duplicate); rows giving different values for the same
    configuration (all set aside as a conflict, so no chapter silently picks one). Vectorised, and
    the report is made once, in the table's order: a file of millions of rows is screened in
    seconds, in little more memory than its report."""
    notes: list[str] = []
    n = len(table)
    values = table["value"].to_numpy(dtype=float)
    lines = table["line"].to_numpy()
    reasons = _Reasons(n)
    _range_reasons(values, table["unit"], reasons)
    bad = reasons.code >= 0
    if bad.any():
        notes.append(
            f"{counted(int(bad.sum()), 'value')} outside their unit's physical range set aside (first at line {lines[bad][0]})"
        )
    if repeats and n:
        # a value set aside is its own configuration, so it repeats nothing and nothing repeats it
        gid = np.where(bad, -1 - np.arange(n), _configurations(table, [c for c in table.columns if c not in _NOT_KEYS]))
        multi = np.flatnonzero(pd.Series(gid).duplicated(keep=False).to_numpy())
        if len(multi):
            g = pd.Series(gid[multi])
            v = values[multi]
            distinct = pd.Series(np.where(np.isnan(v), np.inf, v)).groupby(g).transform("nunique").to_numpy()
            first = pd.Series(lines[multi]).groupby(g).transform("first").to_numpy()
            dup = (distinct == 1) & g.duplicated().to_numpy()
            con = distinct > 1
            if dup.any():
                reasons.give_each(multi[dup], first[dup], DUPLICATE + ": repeats line {}")
                notes.append(
                    f"{counted(int(dup.sum()), 'repeated row')} with the same configuration and value kept once"
                )
            if con.any():
                reasons.give_each(
                    multi[con], first[con], CONFLICT + ": same configuration as line {}, different values"
                )
                notes.extend(_conflict_notes(table, multi[con], g[con].to_numpy()))
    out = reasons.code >= 0
    if not out.any():
        return table, pd.DataFrame(columns=["line", "text", "reason"]), notes
    shown = table.loc[out, _SHOWN].reset_index(drop=True)
    rej = pd.DataFrame({"line": shown["line"], "text": _texts(shown), "reason": reasons.column(out)}, copy=False)
    return table[~out].reset_index(drop=True), rej, notes


def _conflict_notes(table: pd.DataFrame, rows: np.ndarray, gid: np.ndarray) -> list[str]:
    """The first conflicting configurations spelled out (values and lines), then how many more."""
    notes = []
    order = pd.unique(gid)
    for k in order[:_CONFLICTS_SHOWN]:
        grp = table.iloc[rows[gid == k]]
        shown = ", ".join(f"{x:g} (line {ln})" for ln, x in zip(grp["line"], grp["value"], strict=True))
        notes.append(
            f"line {grp['line'].iat[0]}: {grp['metric'].iat[0]} {grp['statistic'].iat[0]} given "
            f"{len(grp)} times with different values ({shown}); all set aside"
        )
    if len(order) > _CONFLICTS_SHOWN:
        notes.append(f"... {len(order) - _CONFLICTS_SHOWN} more conflicting configurations in the rejected report")
    return notes


def conflicts(df: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The rows of a tidy table (one or several files) that give different values for the same
    `keys` + metric + statistic: what a pivot or `aggfunc="first"` would silently choose between.
    Empty when every configuration has one value. A chapter that pivots on `keys` calls this first
    and says what it set aside."""
    cols = [*keys, "metric", "statistic"]
    vals = df.dropna(subset=["value"])
    n = vals.groupby(cols, dropna=False)["value"].transform("nunique")
    return vals[n > 1].sort_values([*cols, "source", "line"])


REGISTRY: dict[str, Tool] = {}


def register(tool: Tool) -> Tool:
    """Add a parser to the registry (each tool module calls this once at import)."""
    REGISTRY[tool.name] = tool
    return tool


def tidy(tool: Tool, records: Iterable[dict], source: str) -> pd.DataFrame:
    """Build a tool's tidy table from per-number records (dicts with the tool's setting columns,
    `line`, `metric`, `statistic`, `value`, `unit` and optionally `note`), validated: a value the
    schema refuses is the input's fault, so it raises ParseError naming the file.

    A list of records is taken over: it is emptied once its columns are built, since on a large
    file the records are the largest thing a parse holds (issue 21)."""
    rows = records if isinstance(records, list) else list(records)
    n = len(rows)
    # tuples of one `rows.Row` kind are read by position (a call of `Row.get` per cell was most of the time)
    kind = type(rows[0]) if n else None
    index = getattr(kind, "_index", None) if all(type(r) is kind for r in rows) else None
    columns: dict[str, pd.Series] = {}
    for c in LEAD_COLUMNS + list(tool.settings) + TAIL_COLUMNS:
        # one column at a time, each list dropped as soon as it is a Series
        if c in ("tool", "source"):
            values = [tool.name if c == "tool" else source] * n
        elif index is not None:
            values = list(map(tuple.__getitem__, rows, repeat(index[c], n))) if c in index else [None] * n
        else:
            values = [r.get(c) for r in rows]
        columns[c] = pd.Series(values)
        del values
    rows.clear()
    df = pd.DataFrame(columns)
    del columns
    try:
        df["value"] = pd.to_numeric(df["value"], errors="raise").astype(float)
        df["note"] = df["note"].astype(object).where(df["note"].notna(), None)
    except (ValueError, TypeError) as exc:
        raise _schema_error(tool, source, exc) from None
    return df if _DEFERRED.get() else _validated(tool, df, source)


def finish(
    tool: Tool,
    source: str,
    records: list[dict],
    rejects: Iterable[tuple[int, str, str]] = (),
    messages: Iterable[str] = (),
    cells: int | None = None,
    version: str | Callable[[pd.DataFrame], str | None] | None = None,
    empty: str | None = None,
    others: Iterable[tuple[int, int]] = (),
) -> Parsed:
    """The tail every parser shares, so that a parser is its grammar and its mapping only:
    `return finish(TOOL, source, records, rejects, messages, cells)`.

    `records` are `tidy`'s per-number records (taken over), `rejects` the (line, text, reason)
    triples of the numbers seen and not kept, `cells` the numbers seen (by default kept + rejected),
    `version` the tool version or format when the output tells (or a function of the tidy table,
    before the screen, that says it). With `empty` (a sentence saying
    what was expected), a file with neither a record nor a reject is refused with that sentence. `others`:
    `Parsed.others`."""
    rejects = list(rejects)
    if empty is not None and not records and not rejects:
        raise ParseError(source, 1, empty)
    if cells is None:
        cells = len(records) + len(rejects)
    table = tidy(tool, records, source)
    return Parsed(
        tool=tool.name,
        table=table,
        rejected=rejected(tool.name, source, rejects),
        messages=list(messages),
        cells_read=cells,
        version=version(table) if callable(version) else version,
        others=tuple(others),
    )


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, where the C library has it (Linux with glibc), else None."""
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None


_TRIM = _malloc_trim()


#: Rows (of a table, or lines of a file) from which a parse's freed memory is worth giving back
#: (a few ms; small files skip it).
LARGE = 100_000


def release_memory() -> None:
    """Give the memory a parse freed back to the system: Arrow's pool (pandas keeps text columns in
    Arrow; its mimalloc pool holds what was freed) and the C heap (glibc keeps freed blocks between
    live ones; `malloc_trim`, as Dask's documentation advises for the same reason). Without this a
    file read by three parsers holds the transient memory of each (issue 21)."""
    pyarrow.default_memory_pool().release_unused()
    if _TRIM is not None:
        _TRIM(0)


def _schema_error(tool: Tool, source: str, exc: Exception) -> ParseError:
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return ParseError(source, None, f"parsed values do not fit the {tool.name} schema: {first}")


#: Each tool's schema, built once (building it costs as much as validating a small table).
_SCHEMAS: dict[str, tuple[Tool, pa.DataFrameSchema]] = {}


def _validated(tool: Tool, df: pd.DataFrame, source: str) -> pd.DataFrame:
    known = _SCHEMAS.get(tool.name)
    if known is None or known[0] is not tool:
        known = _SCHEMAS[tool.name] = (tool, tool.schema())
    try:
        return known[1].validate(df, inplace=True)  # our own new table: a copy would double it
    except (pa.errors.SchemaError, pa.errors.SchemaErrors, ValueError, TypeError) as exc:
        raise _schema_error(tool, source, exc) from None


_DEFERRED = contextvars.ContextVar("benchbook_deferred_checks", default=False)


@contextmanager
def deferred_checks() -> Iterator[None]:
    """Parse many files with the schema and the screen left for `settle`: pandera's fixed cost per
    call is most of a small file's parsing time, and once per batch it is paid once."""
    token = _DEFERRED.set(True)
    try:
        yield
    finally:
        _DEFERRED.reset(token)


def _stack(tables: list[pd.DataFrame]) -> pd.DataFrame:
    """The tables one under the other, each value as it was (a column whose dtype differs between
    tables goes through object, so no int becomes a float on the way)."""
    if len(tables) == 1:
        return tables[0]
    dtypes = [tuple(t.dtypes) for t in tables]
    mixed = [c for k, c in enumerate(tables[0].columns) if len({d[k] for d in dtypes}) > 1]
    if mixed:
        tables = [t.astype(dict.fromkeys(mixed, object)) for t in tables]
    return pd.concat(tables, ignore_index=True)


def settle(results: list[Parsed]) -> list[Parsed | ParseError]:
    """Validate and screen, once per tool, results parsed under `deferred_checks`. Each comes back as
    `tidy` and `Parsed` make it for one file alone, or as the ParseError its validation raises then
    (a batch the schema refuses is validated file by file to find which)."""
    out: list[Parsed | ParseError] = list(results)
    by_tool: dict[str, list[int]] = {}
    for i, p in enumerate(results):
        by_tool.setdefault(p.tool, []).append(i)
    for name, idx in by_tool.items():
        tool = REGISTRY[name]
        tables = [results[i].table for i in idx]
        try:
            batch = _validated(tool, _stack(tables), name)
        except ParseError:
            batch = None
        ends = np.cumsum([len(t) for t in tables])
        for k, i in enumerate(idx):
            p = results[i]
            if batch is None:
                try:
                    p.table = _validated(tool, p.table, str(p.table["source"].iat[0]) if len(p.table) else name)
                except ParseError as exc:
                    out[i] = exc
            else:
                p.table = batch.iloc[ends[k] - len(tables[k]) : ends[k]].reset_index(drop=True)
        members = [i for i in idx if isinstance(out[i], Parsed)]
        if batch is None and members:  # the schema refused some: screen the others' validated tables
            batch = _stack([results[i].table for i in members])
        sizes = [len(results[i].table) for i in members]
        if sum(sizes):
            files = np.repeat(np.arange(len(sizes)), sizes)
            kept = np.bincount(screen(batch.assign(_file=files), tool.screen_repeats)[0]["_file"], minlength=len(sizes))
            for n in np.flatnonzero(kept < sizes):
                results[members[n]].apply_screen()  # rows refused: its own screen says which, with its messages
    return out


#: A decimal number as the tools print it; nan and inf are left to each parser, which says what they mean.
NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_NUMBER_RE = re.compile(NUMBER)
#: A number standing alone (not the 512 of `pp512` nor the 0 of `Q4_0`): what a reader counts on a row.
_STANDALONE_RE = re.compile(rf"(?<![\w.]){NUMBER}(?![\w.])")

#: A markdown blockquote's markers before a line (`> `, nested `> > `): a write-up quoting a tool's
#: print. Markdown lets the lines after a quoted one go on without the marker (lazy continuation), so
#: a parser that allows it on a block's first line allows it on each of its rows.
QUOTE = r"(?:>[ \t]?)*"

#: A markdown table's separator row (`|---|:-:|`) and an ATX heading (its text in group 1).
SEPARATOR_RE = re.compile(r"^\s*\|(\s*:?-+:?\s*\|)+\s*$")
HEADING_RE = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
#: An HTML tag in markdown text (`<a name="toc_11">`, `</a>`, `<b>`): markup a rendered page hides.
_TAG_RE = re.compile(r"</?[A-Za-z][^<>]*>")


def heading_words(text: str) -> str:
    """A heading's words as a rendered page shows them, without the HTML written into it (a README's
    anchor `<a name="toc_11"></a>`, `<b>`): the markup is not part of the run's name a parser takes
    from it."""
    return re.sub(r"\s+", " ", _TAG_RE.sub("", text)).strip()


def number(text: str) -> float | None:
    """The value of a cell that is exactly one number (surrounding blanks allowed), else None."""
    t = text.strip()
    return float(t) if _NUMBER_RE.fullmatch(t) else None


def markdown_tables(lines: list[str]):
    """(header's index, index after its last row) of each markdown table in `lines`: a row of cells over
    a separator row (`SEPARATOR_RE`), and every `|` row below it; the readers of write-ups' tables share it."""
    i, n = 0, len(lines)
    while i < n - 1:
        if not (lines[i].lstrip().startswith("|") and SEPARATOR_RE.match(lines[i + 1])):
            i += 1
            continue
        end = i + 2
        while end < n and lines[end].lstrip().startswith("|"):
            end += 1
        yield i, end
        i = end


_CELL_SEP = re.compile(r"(?<!\\)\|")


def markdown_cells(line: str) -> list[str]:
    """The stripped cells of a markdown table row; an escaped pipe (`\\|`) stays inside its cell."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return [c.strip() for c in _CELL_SEP.split(s)]


#: The head of the reason given to every number of a table a parser could not read.
TABLE_NOT_READ = "table not read"


def unread_table(lines: list[str], start: int, tool: str, expected: str) -> tuple[int, list[tuple[int, str, str]], str]:
    """A markdown table (header at index `start`) whose columns a parser does not recognise:
    (index after its last row, one rejected item per number on its rows, a message naming the
    columns and the lines). Nothing in it is skipped silently."""
    header = [c for c in markdown_cells(lines[start]) if c]
    end = start + 1
    while end < len(lines) and lines[end].lstrip().startswith("|"):
        end += 1
    reason = f"{TABLE_NOT_READ} (line {start + 1}): columns {', '.join(header)} not recognised by {tool}"
    items = [
        (i + 1, m, reason)
        for i in range(start + 1, end)
        if not SEPARATOR_RE.match(lines[i])
        for m in _STANDALONE_RE.findall(lines[i])
    ]
    message = (
        f"lines {start + 1}-{end}: a table with columns {', '.join(header)} that {tool} does not recognise "
        f"(expected {expected}); its {counted(len(items), 'number')} {'is' if len(items) == 1 else 'are'} set aside, not read"
    )
    return end, items, message


#: The head of the reason given to the line where a pasted copy of a tool's output ends.
COPY_ENDS = "cut where the copy ends"


def last_line(lines) -> int | None:
    """Index of the last line that is not blank: where a copy of an output ends (None when none is)."""
    for j in range(len(lines) - 1, -1, -1):
        if lines[j].strip():
            return j
    return None


def copy_ends(lines, j: int) -> bool:
    """Whether line j (0-based) is the copy's last line, so that it may be cut short: a paste of an
    issue or a log cut where the stored copy ends keeps every line above it whole, and this one
    may have lost its end (`P99 TPOT (ms):   49` of 49.87, `Outp` of `Output token throughput`)."""
    return j == last_line(lines)


def cut_item(j: int, line: str) -> tuple[int, str, str]:
    """The rejected item of line j (0-based) where the copy ends inside a tool's block or table: not
    read (it may be cut short), its line named; what the tool printed after it is not in the file."""
    return (j + 1, line.strip()[:80], f"{COPY_ENDS} (line {j + 1}, the file's last: it may be cut short)")


#: The reason of the mark a parser leaves on a whole last row where the copy ends inside a block (the row
#: read, as the tool printed it): what the tool printed after it is not in the file. No number is set aside.
COPY_ENDS_AFTER = f"{COPY_ENDS} after this line"


def cut_after_item(j: int, line: str) -> tuple[int, str, str]:
    """The mark of line j (0-based), read whole, after which the copy ends inside a tool's block: the
    rows the tool prints after it are not in the file (`COPY_ENDS_AFTER`)."""
    return (j + 1, line.strip()[:80], f"{COPY_ENDS_AFTER} (line {j + 1}, read whole; the file's last)")


def rejected(tool: str, source: str, items: Iterable[tuple[int, str, str]]) -> pd.DataFrame:
    """The report of numeric cells not kept: (line, text, reason) triples. Tool, source and reason
    are categorical: a few values repeated on every row (on a large file, a third of the report)."""
    df = pd.DataFrame([(tool, source, line, text, reason) for line, text, reason in items], columns=REJECTED_COLUMNS)
    return df.astype(dict.fromkeys(_REPEATED, "category")) if len(df) else df


#: The columns of a rejected report that repeat a few values over many rows.
_REPEATED = ["tool", "source", "reason"]


def stack_reports(reports: list[pd.DataFrame]) -> pd.DataFrame:
    """Rejected reports one after another; their categorical columns stay categorical (a plain
    concat of two different category sets falls back to a Python string per row)."""
    reports = [r for r in reports if len(r)]
    if not reports:
        return pd.DataFrame(columns=REJECTED_COLUMNS)
    columns = {}
    for c in REJECTED_COLUMNS:
        parts = [r[c].reset_index(drop=True) for r in reports]
        if all(isinstance(p.dtype, pd.CategoricalDtype) for p in parts):
            columns[c] = pd.Series(union_categoricals(parts))
        else:
            columns[c] = pd.concat(parts, ignore_index=True)
    return pd.DataFrame(columns, copy=False)
