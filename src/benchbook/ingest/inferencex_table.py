"""InferenceX results retyped into a Markdown table (a bot's or an author's write-up of runs), read back
into the points `utils/process_result.py` writes.

A row is a point's key spelled in words: `Total tput/GPU` or `Throughput/GPU` is `tput_per_gpu` (the
schema's own word, `tput`), `Output tput/GPU` and `Input tput/GPU` its `output_` and `input_` forms;
`Mean TTFT`, `P99 ITL`, `Mean E2E latency` are `mean_ttft`, `p99_itl`, `mean_e2el`. A latency's unit is
in the label (`(ms)`, `(s)`) or beside each number (`83.9 ms`); the point holds seconds. Each column of
numbers is one run; its header may set the run's concurrency, TP and EP (`conc=16`, `TP=4/EP=4`), and
what it does not set comes from the lines above the table (a `Config:` line, the heading). A column
of differences (`+35.1%`) is no run: its numbers are set aside. A dash is a number the write-up lacks.
"""

from __future__ import annotations

import re

from benchbook.ingest.core import markdown_cells, markdown_tables

#: Rows of the schema's keys a table needs before it is read as one.
FEWEST_ROWS = 3
_DRESS_RE = re.compile(r"\*\*|`")
_UNIT_RE = re.compile(r"\s*\((ms|s|tok/s)\)\s*$", re.I)
_TPUT_RE = re.compile(r"^(?:(total|output|input)\s+)?(?:tput|throughput)\s*/\s*gpu$", re.I)
_LATENCY_RE = re.compile(r"^(mean|median|std|p\d+(?:\.\d+)?)\s+(ttft|tpot|itl|e2el?)(?:\s+latency)?$", re.I)
_CELL_RE = re.compile(r"^([-+]?\d+(?:\.\d+)?)\s*(ms|s|tok/s(?:/gpu)?)?$", re.I)
_DASHES = {"", "-", "—", "–", "n/a"}
#: Settings a column's header or the text above the table writes as `KEY=N` (`conc=8`, `TP=4/EP=4`).
_SETTING_RE = re.compile(r"\b(conc|tp|ep|isl|osl)\s*=\s*(\d+)", re.I)
#: A fixed sequence length as InferenceX names it (`1k1k`, `1k/8k`): ISL and OSL in thousands of tokens.
_SHAPE_RE = re.compile(r"\b(\d+)k/?(\d+)k\b", re.I)


def _plain(cell: str) -> str:
    return " ".join(_DRESS_RE.sub("", cell).split())


def _key(label: str) -> tuple[str, str | None] | None:
    """(the point's key, the unit the label gives) of a row's label, or None for a label that names none."""
    text = _plain(label)
    m = _UNIT_RE.search(text)
    unit = m.group(1).lower() if m else None
    words = text[: m.start()] if m else text
    t = _TPUT_RE.match(words)
    if t:
        kind = (t.group(1) or "total").lower()
        return ("tput_per_gpu" if kind == "total" else f"{kind}_tput_per_gpu"), unit
    lat = _LATENCY_RE.match(words)
    if lat:
        name = lat.group(2).lower()
        return f"{lat.group(1).lower()}_{'e2el' if name.startswith('e2e') else name}", unit
    return None


def _cell(text: str) -> tuple[float, str | None] | None:
    m = _CELL_RE.match(_plain(text))
    return (float(m.group(1)), (m.group(2) or "").lower() or None) if m else None


def _settings(text: str) -> dict[str, int]:
    out = {k.lower(): int(v) for k, v in _SETTING_RE.findall(text)}
    shape = _SHAPE_RE.search(text)
    if shape:
        out.setdefault("isl", int(shape.group(1)) * 1024)
        out.setdefault("osl", int(shape.group(2)) * 1024)
    return out


def points(lines: list[str]) -> tuple[list[tuple[dict, dict[str, int], int]], list[tuple[int, str, str]]]:
    """The points of every such table: (point, {key: its row's line, 1-based}, the header's line), and
    the numbers set aside (line, text, reason)."""
    found, rejects = [], []
    for i, end in markdown_tables(lines):
        head = markdown_cells(lines[i])
        rows = {}
        for j in range(i + 2, end):
            cells = markdown_cells(lines[j])
            key = _key(cells[0]) if len(cells) == len(head) else None
            if key:
                rows[j] = (key, cells)
        if len(rows) >= FEWEST_ROWS:
            found += _columns(lines, i, head, rows, rejects)
    return found, rejects


def _columns(lines, at: int, head: list[str], rows: dict, rejects: list) -> list[tuple[dict, dict[str, int], int]]:
    above = _settings("\n".join(lines[:at]))  # the nearest `KEY=N` above the table wins
    out = []
    for c in range(1, len(head)):
        cells = {j: _cell(r[1][c]) for j, r in rows.items()}
        dashed = {j for j, r in rows.items() if _plain(r[1][c]).lower() in _DASHES}
        if any(v is None and j not in dashed for j, v in cells.items()) or all(v is None for v in cells.values()):
            for j, r in rows.items():
                if re.search(r"\d", r[1][c]):
                    rejects.append((j + 1, r[1][c], f"column {_plain(head[c])!r} is no run's numbers (a difference)"))
            continue
        point = {**above, **_settings(head[c])}
        where: dict[str, int] = {}
        for j, value in cells.items():
            if value is None:
                continue
            (key, unit), v = rows[j][0], value[0]
            unit = value[1] or unit
            if key.endswith("tput_per_gpu"):
                point[key] = v
            elif unit in ("ms", "s"):
                point[key] = v / 1000.0 if unit == "ms" else v
            else:
                rejects.append((j + 1, rows[j][1][c], "a latency with no unit, in the label or beside it"))
                continue
            where[key] = j + 1
        out.append((point, where, at + 1))
    return out
