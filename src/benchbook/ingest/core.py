"""What every parser shares: the error type, the result type, the tidy columns and the registry."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import pandas as pd
import pandera.pandas as pa

#: Columns every tidy table has, in this order; a tool's setting columns go between
#: `line` and `metric`.
LEAD_COLUMNS = ["tool", "source", "line"]
TAIL_COLUMNS = ["metric", "statistic", "value", "unit", "note"]
STATISTICS = {"mean", "min", "max", "std", "median", "p50", "p90", "p95", "p99", "value", "count"}
REJECTED_COLUMNS = ["tool", "source", "line", "text", "reason"]


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
    cells_read == len(table) + len(rejected) can be checked.
    """

    tool: str
    table: pd.DataFrame
    rejected: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=REJECTED_COLUMNS))
    messages: list[str] = field(default_factory=list)
    cells_read: int = 0


@dataclass(frozen=True)
class Tool:
    """A registered parser: its name, the setting columns it emits (with dtypes), a sniffer that
    says whether a text holds this tool's output, and the parse function."""

    name: str
    settings: dict[str, str]
    sniff: Callable[[str], bool]
    parse: Callable[[str, str], Parsed]
    description: str = ""
    metrics: dict[str, str] = field(default_factory=dict)

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
                "statistic": pa.Column(str, pa.Check.isin(sorted(STATISTICS))),
                "value": pa.Column(float, nullable=True),
                "unit": pa.Column(str),
                "note": pa.Column(str, nullable=True),
            }
        )
        return pa.DataFrameSchema(cols, strict=True, ordered=True, coerce=True)


REGISTRY: dict[str, Tool] = {}


def register(tool: Tool) -> Tool:
    """Add a parser to the registry (each tool module calls this once at import)."""
    REGISTRY[tool.name] = tool
    return tool


def tidy(tool: Tool, records: Iterable[dict], source: str) -> pd.DataFrame:
    """Build a tool's tidy table from per-number records (dicts with the tool's setting columns,
    `line`, `metric`, `statistic`, `value`, `unit` and optionally `note`), validated: a value the
    schema refuses is the input's fault, so it raises ParseError naming the file."""
    rows = list(records)
    cols = LEAD_COLUMNS + list(tool.settings) + TAIL_COLUMNS
    df = pd.DataFrame(rows, columns=[c for c in cols if c not in ("tool", "source")])
    df.insert(0, "tool", tool.name)
    df.insert(1, "source", source)
    df = df[cols]
    try:
        df["value"] = pd.to_numeric(df["value"], errors="raise").astype(float)
        df["note"] = df["note"].astype(object).where(df["note"].notna(), None)
        return tool.schema().validate(df)
    except (pa.errors.SchemaError, pa.errors.SchemaErrors, ValueError, TypeError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ParseError(source, None, f"parsed values do not fit the {tool.name} schema: {first}") from None


#: A decimal number as the tools print it; nan and inf are left to each parser, which says what they mean.
NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_NUMBER_RE = re.compile(NUMBER)

#: A markdown table's separator row (`|---|:-:|`) and an ATX heading (its text in group 1).
SEPARATOR_RE = re.compile(r"^\s*\|(\s*:?-+:?\s*\|)+\s*$")
HEADING_RE = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")


def number(text: str) -> float | None:
    """The value of a cell that is exactly one number (surrounding blanks allowed), else None."""
    t = text.strip()
    return float(t) if _NUMBER_RE.fullmatch(t) else None


_CELL_SEP = re.compile(r"(?<!\\)\|")


def markdown_cells(line: str) -> list[str]:
    """The stripped cells of a markdown table row; an escaped pipe (`\\|`) stays inside its cell."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return [c.strip() for c in _CELL_SEP.split(s)]


def rejected(tool: str, source: str, items: Iterable[tuple[int, str, str]]) -> pd.DataFrame:
    """The report of numeric cells not kept: (line, text, reason) triples."""
    return pd.DataFrame([(tool, source, line, text, reason) for line, text, reason in items], columns=REJECTED_COLUMNS)
