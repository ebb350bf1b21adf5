"""A serving benchmark's numbers as its authors tabled them in markdown (a pull request's or a write-up's
own table of a concurrency sweep), read one point per row.

Such a table is the authors', not the tool's print: it is read only where its header names a load
column (concurrency, max concurrency, request rate, QPS) and at least two serving metrics with their
units (TTFT, TPOT, ITL or E2E latency in ms or s; a throughput in tok/s or req/s). Each metric keeps the
header's words: a bare `Throughput (tok/s)` is not taken for output or total throughput (`throughput`),
and `TTFT (ms)` with no statistic named is not taken for a mean or a median (statistic `value`, the
header's words in the row's note). A column of TP, EP or `TP x EP` sets the row's parallelism; a column
of words (`Strategy`) names the row's run. A table whose rows cannot be told apart by the settings it
shows, or with a numeric column this reader has no name for in every row, is no set of points.
"""

from __future__ import annotations

import re

from benchbook.ingest.core import ParseError, markdown_cells, markdown_tables
from benchbook.ingest.headings import load_label, names, outline, run_names
from benchbook.ingest.serving_settings import run_settings
from benchbook.ingest.text import Lines, blocks, contains, first_char, split_n

FORMAT = "authors' table"

_DRESS_RE = re.compile(r"\*\*|`")
_UNIT_RE = re.compile(r"\(\s*([^()]+?)\s*\)\s*$")
#: The load a column sets: a concurrency (the client's cap on requests in flight) or a request rate.
_CONCURRENCY_RE = re.compile(r"^(?:max(?:imum)?\.?\s+)?(?:request\s+)?(?:concurrency|conc\.?)$", re.I)
_RATE_RE = re.compile(r"^(?:request\s+rate|req(?:uest)?\s+rate|rate|qps)$", re.I)
_LATENCY_RE = re.compile(
    r"^(?:(?P<stat>mean|avg|average|median|p50|p90|p95|p99)\s+)?(?P<name>ttft|tpot|itl|e2el|e2e\s+latency)$", re.I
)
_STATS = {"avg": "mean", "average": "mean", "p50": "median"}
_LATENCY_NAMES = {"ttft": "ttft", "tpot": "tpot", "itl": "itl", "e2el": "e2el", "e2e latency": "e2el"}
#: A throughput's words: `Output throughput`, `Total token throughput`, `Request throughput`, bare `Throughput`.
_THROUGHPUT_RE = re.compile(r"^(?:(?P<kind>output|total|input|request)\s+)?(?:token\s+)?(?:throughput|tput)$", re.I)
_THROUGHPUT_NAMES = {
    "output": "output_throughput",
    "total": "total_token_throughput",
    "input": "input_throughput",
    "request": "request_throughput",
}
_TOKS_RE = re.compile(r"^tok(?:en)?s?/s(?:ec)?(?P<gpu>/gpu)?$", re.I)
_PROMPTS_RE = re.compile(r"^(?:num(?:ber of)?\s+)?(?:prompts|requests)$", re.I)
_PARALLEL_RE = re.compile(r"^(tp|ep|dp)(?:\s*x\s*(tp|ep|dp))?$", re.I)
_PARALLEL_CELL_RE = re.compile(r"^(\d+)(?:\s*x\s*(\d+))?$", re.I)


def _plain(cell: str) -> str:
    return " ".join(_DRESS_RE.sub("", cell).split())


def _number(cell: str) -> float | None:
    t = _plain(cell).replace(",", "")
    try:
        return float(t)
    except ValueError:
        return None


def column(header: str) -> tuple[str, ...] | None:
    """What a header cell names: ('load', setting), ('metric', metric, statistic, unit), ('prompts',),
    ('parallel', names...), or None for one this reader has no name for."""
    text = _plain(header)
    m = _UNIT_RE.search(text)
    unit = m.group(1) if m else None
    words = text[: m.start()].strip() if m else text
    if _CONCURRENCY_RE.match(words):
        return ("load", "max_concurrency")
    if _RATE_RE.match(words):
        return ("load", "request_rate")
    if _PROMPTS_RE.match(words):
        return ("prompts",)
    if p := _PARALLEL_RE.match(words):
        return ("parallel", *(n.lower() for n in p.groups() if n))
    lat = _LATENCY_RE.match(words)
    if lat and unit in ("ms", "s"):
        stat = (lat["stat"] or "").lower()
        name = _LATENCY_NAMES[" ".join(lat["name"].lower().split())]
        return ("metric", name, _STATS.get(stat, stat) or "value", unit)
    tput = _THROUGHPUT_RE.match(words)
    toks = _TOKS_RE.match(unit or words)  # `tok/s/gpu` alone is its own header
    if (tput or not unit and toks) and (toks or unit == "req/s"):
        kind = (tput["kind"] or "").lower() if tput else ""
        if unit == "req/s":
            return ("metric", "request_throughput", "value", "req/s") if kind in ("", "request") else None
        name = _THROUGHPUT_NAMES.get(kind, "throughput") if kind != "request" else None
        if name is None:
            return None
        return ("metric", name + ("_per_gpu" if toks["gpu"] else ""), "value", "tok/s")
    return None


def tables(lines: list[str]) -> list[tuple[int, int, list[str]]]:
    """(header's index, end index, header cells) of each markdown table that names a load column and two
    serving metrics with units: the authors' tables of serving results."""
    out = []
    for i, end in markdown_tables(lines):
        head = markdown_cells(lines[i])
        kinds = [column(c) for c in head]
        if any(k and k[0] == "load" for k in kinds) and sum(1 for k in kinds if k and k[0] == "metric") >= 2:
            out.append((i, end, head))
    return out


def points(lines: list[str], start: int, end: int) -> tuple[list[dict], list[tuple[int, str, str]], int, str | None]:
    """The rows of the table at lines[start:end] as points: each a dict of settings (`max_concurrency` or
    `request_rate`, `num_prompts`, `label`, parallelism as `tp`/`ep`/`dp`, `line`) and `metrics` (a list of
    (metric, statistic, value, unit, note)); the cells set aside (line, text, reason); the cells read; and
    why the table is no set of points (rows its settings do not tell apart), else None."""
    head = markdown_cells(lines[start])
    kinds = [column(c) for c in head]
    found, rejects, cells = [], [], 0
    for j in range(start + 2, end):
        row = markdown_cells(lines[j])
        if len(row) != len(head):
            rejects.append((j + 1, lines[j].strip(), "a row with another number of cells than the header"))
            continue
        point: dict = {"line": j + 1, "metrics": []}
        words = []
        for cell, kind, name in zip(row, kinds, head, strict=True):
            value = _number(cell)
            if kind is None:
                if value is None and _plain(cell):
                    words.append(_plain(cell))
                elif value is not None:
                    cells += 1
                    rejects.append((j + 1, f"{_plain(name)}: {_plain(cell)}", "a column this reader has no name for"))
                continue
            if kind[0] == "parallel":
                p = _PARALLEL_CELL_RE.match(_plain(cell))
                if p and len([g for g in p.groups() if g]) == len(kind) - 1:
                    point.update(zip(kind[1:], (int(g) for g in p.groups() if g), strict=True))
                continue
            if value is None:
                if kind[0] == "metric" and _plain(cell):
                    cells += 1
                    rejects.append((j + 1, f"{_plain(name)}: {_plain(cell)}", "not a number"))
                continue
            if kind[0] == "load":
                point[kind[1]] = value
            elif kind[0] == "prompts":
                point["num_prompts"] = value
            else:
                cells += 1
                _, metric, stat, unit = kind
                note = f"as the table names it: {_plain(name)}"
                if unit == "s":  # a latency in seconds: ms, as every serving table holds it
                    value, unit = value * 1000.0, "ms"
                point["metrics"].append((metric, stat, value, unit, note))
        if words:
            point["label"] = ", ".join(words)
        if point["metrics"]:
            found.append(point)
    keys = [tuple(sorted((k, v) for k, v in p.items() if k not in ("line", "metrics"))) for p in found]
    for a, key in enumerate(keys):
        if key in keys[:a]:
            other = found[keys.index(key)]["line"]
            return (
                [],
                rejects,
                cells,
                (
                    f"rows {other} and {found[a]['line']} of the authors' table show the same settings "
                    "(load, parallelism, label), so its points cannot be told apart"
                ),
            )
    return found, rejects, cells, None


#: The serving engines a file may name, each by the words that name it; a table in a file that names two of them
#: may hold either's numbers (`vLLM 0.7.2` beside `SGLang`), so it is no one engine's.
ENGINES = {
    "sglang": re.compile(r"\bsglang\b", re.I),
    "vllm": re.compile(r"\bvllm\b", re.I),
    "tensorrt-llm": re.compile(r"\btensorrt-llm\b|\btrt-?llm\b", re.I),
    "lmdeploy": re.compile(r"\blmdeploy\b", re.I),
    "tgi": re.compile(r"\btext-generation-inference\b|\bTGI\b"),
}


def found(text: str | Lines, named: re.Pattern, engine: str) -> list[tuple[int, int, list[str]]]:
    """The authors' tables (`tables`) of a text that `named` matches (the tool or its engine) and that names
    no engine but `engine`; [] for any other text, and for a JSON text."""
    if first_char(text) == "{" or not contains("|", text):
        return []
    if not any(named.search(b) for b in blocks(text)):
        return []
    if any(p.search(b) for name, p in ENGINES.items() if name != engine for b in blocks(text)):
        return []
    return tables(split_n(text))


def read(text: str | Lines, where: list[tuple[int, int, list[str]]], source: str, messages: list[str]):
    """(records, rejects, cells) of the authors' tables at `where` (`found`), in the serving contract's
    settings: one run per row, its load and parallelism from the row, its name from a column of words or
    else the heading above the table; a table whose rows cannot be told apart raises ParseError at its line."""
    lines = split_n(text)
    doc = outline(lines)
    records, rejects, cells, runs = [], [], 0, []
    for start, end, _ in where:
        got, skipped, n, why = points(lines, start, end)
        rejects += skipped
        cells += n
        if why:
            raise ParseError(source, start + 1, why)
        heads = doc.within(0, start)
        heading = names(lines, [start], doc).get(heads[-1]) if heads else None
        for p in got:
            meta = "; ".join(f"{k}={p[k]}" for k in ("tp", "dp", "ep") if k in p)
            settings = run_settings(
                p.get("label") or heading,
                FORMAT,
                **{k: p[k] for k in ("num_prompts", "request_rate", "max_concurrency") if k in p},
                metadata=meta or None,
            )
            block = [
                dict(line=p["line"], metric=m, statistic=st, value=v, unit=u, note=note)
                for m, st, v, u, note in p["metrics"]
            ]
            runs.append((settings, block))
        messages.append(
            f"{source}:{start + 1}: a table the authors wrote (not the tool's print), read one run per row; "
            "each number under its header's own words"
        )
    loads = [load_label(s["max_concurrency"], s["request_rate"]) for s, _ in runs]
    for (settings, block), name in zip(runs, run_names([s["run"] for s, _ in runs], loads), strict=True):
        records.extend({**settings, "run": name, **r} for r in block)
    return records, rejects, cells
