"""SGLang's summary grid of bench_serving records: `test/srt/parse_results.py FILE.jsonl` reads each
`--output-file` line's keys `max_concurrency`, `input_throughput`, `output_throughput`, `mean_ttft_ms`,
`median_ttft_ms`, `p99_ttft_ms`, `mean_tpot_ms`, `median_tpot_ms`, `p99_tpot_ms`, adds
`per_user_throughput` (`output_throughput / max_concurrency`, empty where no cap was set) and prints them
with `tabulate(df, headers="keys", tablefmt="grid", floatfmt=".3f")`: a `+---+` ruled grid, a header row
of those keys over an unnamed index column, a row per record (sgl-project/sglang, test/srt/parse_results.py).

A grid's rows are the records' own keys and values, so each is read as the record it prints; a grid whose
header row names a key the script does not print is no such grid.
"""

from __future__ import annotations

import re
from typing import NamedTuple

FORMAT = "parse_results grid"

#: The keys parse_results.py prints, in its order; the last it computes from two of the others.
FIELDS = (
    "max_concurrency",
    "input_throughput",
    "output_throughput",
    "mean_ttft_ms",
    "median_ttft_ms",
    "p99_ttft_ms",
    "mean_tpot_ms",
    "median_tpot_ms",
    "p99_tpot_ms",
    "per_user_throughput",
)
#: The columns of the tidy table a grid can fill: the others (request rate, counts, ITL, E2E latency) it never
#: prints, so a page may say a grid lacks them.
CARRIES = frozenset({"max_concurrency", "input_throughput", "output_throughput", "ttft", "tpot"})
DERIVED = "per_user_throughput"
DERIVED_WHY = "computed by parse_results.py (output_throughput / max_concurrency), no measurement of its own"

#: Why a row the copy ends inside is set aside: each row is one whole record, so a row cut short is another
#: record, not read, and says nothing of the rows above it.
CUT_WHY = "a grid row the copy ends inside (fewer cells than its header): that record is not read"

_RULE_RE = re.compile(r"^\s*\+(?:[-=]+\+)+\s*$")
_ROW_RE = re.compile(r"^\s*\|(?P<cells>.*)\|\s*$")
_INDEX_RE = re.compile(r"^\d+$")


class Grid(NamedTuple):
    header: int  # the header row's line (1-based)
    keys: tuple[str, ...]
    rows: list[tuple[int, str, dict[str, float | None]]]  # (line, printed index, record) per whole row
    cut: tuple[int, str] | None  # (line, text) of a row the copy cut short


def _cells(line: str) -> list[str] | None:
    m = _ROW_RE.match(line)
    return [c.strip() for c in m.group("cells").split("|")] if m else None


def _header(line: str) -> tuple[str, ...] | None:
    """The keys of a grid's header row: an empty index cell, then keys parse_results.py prints, in its order."""
    cells = _cells(line)
    if not cells or cells[0] or len(cells) < 3:
        return None
    keys = tuple(cells[1:])
    if not set(keys) <= set(FIELDS) or "output_throughput" not in keys:
        return None
    order = [FIELDS.index(k) for k in keys]
    return keys if order == sorted(order) else None


def _value(cell: str) -> float | None:
    return None if not cell else float(cell)


def grids(lines: list[str]) -> list[Grid]:
    """Each summary grid in the lines: its header, its whole rows, and the row the copy cut, if any."""
    found = []
    i = 0
    while i < len(lines):
        keys = _header(lines[i])
        if keys is None:
            i += 1
            continue
        rows, cut, j = [], None, i + 1
        while j < len(lines):
            s = lines[j]
            if _RULE_RE.match(s):
                j += 1
                continue
            cells = _cells(s)
            if cells and len(cells) == len(keys) + 1 and _INDEX_RE.match(cells[0]):
                try:
                    rows.append((j + 1, cells[0], {k: _value(c) for k, c in zip(keys, cells[1:], strict=True)}))
                except ValueError:
                    break
                j += 1
                continue
            if s.lstrip().startswith(("|", "+")):
                cut = (j + 1, s)  # a row or rule of the grid not whole: the copy ends inside it
            break
        found.append(Grid(i + 1, keys, rows, cut))
        i = j + 1
    return found
