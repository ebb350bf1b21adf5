"""GuideLLM 0.1's console report (2024, `guidellm --target URL ...`), read for `guidellm`.

What the tool prints (guidellm/core/report.py, `GuidanceReport.print`): a rich panel `GuideLLM
Benchmarks Report (path)` holding one panel `Benchmark Report N` per report, each with four lines of
settings (`Backend(type=..., target=..., model=M)`, `Data(type=..., source=S, tokenizer=...)`,
`Rate(type=sweep, rate=None)`, `Limits(...)`) and four box tables, `Requests Data by Benchmark`,
`Tokens Data by Benchmark`, `Performance Stats by Benchmark` and `Performance Summary by Benchmark`.
A table's header rows sit between `┏` and `┡` rules (`┃` between cells; a header too wide for its
column wraps onto the next header row), its body between `┡` and `└` (`│` between cells; a cell too
wide wraps onto a row whose first cell is empty). Each row is one benchmark, labelled
`{mode}@{rate:.2f} req/sec` or `{mode}` (mode `synchronous`, `asynchronous` for constant and
poisson, `throughput`), sorted by completed request rate.

Mapping (guidellm/core/result.py, `TextGenerationBenchmark`): `Requests Completed` `n/total` ->
`completed` (the results), `Request Failed` `e/total` -> `failed` (the errors); `Duration` (from the
first result's start to the last result's end) -> `duration`; `Start Time` / `End Time` are times of
day; `Prompt` / `Output` (mean tokens per request) and their percentile lists ->
`input_sequence_length` / `output_sequence_length`; `Request Latency` (end - start, s) -> `e2el`
(ms); `Time to First Token` (first token - start) -> `ttft`; `Inter Token Latency` is the
distribution of every decode gap of every request pooled (`itl_distribution`: each streamed token's
time since the one before), so `itl`; `Requests per Second` (results / duration) ->
`request_throughput`; `Output Token Throughput` (output tokens / duration) -> `output_throughput`.
A header's bracketed or parenthesised list (`[1%, 5%, ... 99%]`) names the percentiles its cell
lists (numpy's, 50% the median); its unit in parentheses, or a cell's own (`10.32 sec`). A benchmark
none of whose requests completed prints 0.0 for every statistic: those zeros are set aside. The
load: `synchronous` -> cap 1 at an unlimited rate; `asynchronous@R` -> request rate R;
`throughput` -> unlimited rate; the in-flight limit of the asynchronous modes (GUIDELLM__MAX_CONCURRENCY,
512 by default) is not printed, so no cap is stated for them.
"""

from __future__ import annotations

import math
import re

from benchbook.ingest import guidellm_report
from benchbook.ingest.core import ParseError, percentile
from benchbook.ingest.serving_settings import run_settings
from benchbook.ingest.text import Lines, contains, splitlines

FORMAT = "console 0.1"

_LABEL = re.compile(r"^(?P<mode>[a-z_]+)(?:@(?P<rate>\d+(?:\.\d+)?) req/sec)?$")
_REPORT = re.compile(r"Benchmark Report (\d+)")
_CLOCK = re.compile(r"\d{1,2}:\d{2}:\d{2}")
#: header name (without its percentile list and unit) -> (metric, unit, scale from the printed unit).
_COLUMNS = {
    "Requests Completed": ("completed", "req"),
    "Request Failed": ("failed", "req"),
    "Duration": ("duration", "s"),
    "Prompt": ("input_sequence_length", "tok"),
    "Output": ("output_sequence_length", "tok"),
    "Request Latency": ("e2el", "ms"),
    "Time to First Token": ("ttft", "ms"),
    "Inter Token Latency": ("itl", "ms"),
    "Requests per Second": ("request_throughput", "req/s"),
    "Output Token Throughput": ("output_throughput", "tok/s"),
}
#: a printed unit -> its scale to the metric's unit.
_SCALE = {"sec": 1000.0, "ms": 1.0, "req/sec": 1.0, "tokens/sec": 1.0}
_EMPTY_WHY = "no request of this benchmark completed: GuideLLM 0.1 prints 0.0 for an empty distribution"
_RATES = {"request_throughput", "output_throughput"}
#: a printed value, with the unit the summary and requests tables print after it.
_VALUE = re.compile(r"(?P<v>[-+]?\d+(?:\.\d+)?)\s*(?P<u>sec|ms|req/sec|tokens/sec)?")


def _split(line: str, sep: str, left: int, right: int) -> list[str]:
    parts = line.rstrip().split(sep)
    return [p.strip() for p in parts[left + 1 : len(parts) - right - 1]]


def _tables(lines: list[str]):
    """(header cells, [(line number, cells)]) of each box table; a wrapped header or cell is joined."""
    i = 0
    while i < len(lines):
        line = lines[i]
        if "┏" not in line or "┓" not in line:
            i += 1
            continue
        left = line[: line.index("┏")].count("│")
        right = line[line.rindex("┓") :].count("│")
        head: list[str] = []
        i += 1
        while i < len(lines) and "┃" in lines[i]:
            s = lines[i]
            cells = [c.strip() for c in s[s.index("┃") + 1 : s.rindex("┃")].split("┃")]
            head = cells if not head else [f"{a} {b}".strip() for a, b in zip(head, cells, strict=False)]
            i += 1
        if i >= len(lines) or "┡" not in lines[i]:
            continue
        i += 1
        rows: list[tuple[int, list[str]]] = []
        while i < len(lines) and "│" in lines[i] and not re.search("[└┏╰]", lines[i]):
            cells = _split(lines[i], "│", left, right)
            if len(cells) != len(head):
                raise ParseError(
                    "", i + 1, f"a row of {len(cells)} cells under a header of {len(head)}: cut or not read"
                )
            if cells[0] or not rows:
                rows.append((i + 1, cells))
            else:
                ln, prev = rows[-1]
                rows[-1] = (ln, [f"{a} {b}".strip() for a, b in zip(prev, cells, strict=True)])
            i += 1
        yield head, rows


def _header(text: str) -> tuple[str, list[str], str | None]:
    """`Request Latency [1%, 5%, 50%] (sec)` -> (`Request Latency`, [p1, p5, median], `sec`)."""
    unit = None
    pcts: list[str] = []
    m = re.search(r"\(([a-z/]+)\)\s*$", text)
    if m:
        unit, text = m.group(1), text[: m.start()].strip()
    m = re.search(r"[\[(]([^\])]*%[^\])]*)[\])]\s*$", text)
    if m:
        pcts = ["median" if float(p) == 50 else percentile(p) for p in re.findall(r"(\d+(?:\.\d+)?)%", m.group(1))]
        text = text[: m.start()].strip()
    return text, pcts, unit


def _details(lines: list[str]) -> dict[int, tuple[str | None, str | None, float]]:
    """Per report panel number: (model, data source, max_number) from its settings lines."""
    out: dict[int, tuple[str | None, str | None, float]] = {}
    k = 1
    for line in lines:
        if m := _REPORT.search(line):
            k = int(m.group(1))
        model = re.search(r"Backend\(type=[^,]*, target=[^,]*, model=([^)\s]+)\)", line)
        data = re.search(r"Data\(type=([^,]*), source=(.*), tokenizer=", line)
        limit = re.search(r"Limits\(max_number=(\d+) requests", line)
        m0, d0, n0 = out.get(k, (None, None, math.nan))
        if data:
            source = data.group(2).strip()
            d0 = None if re.match(r"^(?:/|~|\.{1,2}/|N/A$)", source) else f"{data.group(1)}: {source}"
        out[k] = (model.group(1) if model else m0, d0, float(limit.group(1)) if limit else n0)
    return out


def _settings(label: str, details: tuple, report: int, reports: int) -> dict:
    m = _LABEL.match(label)
    mode = m.group("mode") if m else label
    value = float(m.group("rate")) if m and m.group("rate") else None
    rate, cap = guidellm_report.load("async" if mode == "asynchronous" else mode, value, None)
    model, data, limit = details
    return run_settings(
        label if reports == 1 else f"report {report}: {label}",
        FORMAT,
        model=model,
        dataset=data,
        num_prompts=limit,
        request_rate=rate,
        max_concurrency=cap,
    )


def read(text: str | Lines, source: str) -> tuple[list[dict], list[tuple[int, str, str]], list[str]]:
    """The records, rejects and messages of a 0.1 console report."""
    lines = list(splitlines(text))
    details = _details(lines)
    reports = len(details)
    records: list[dict] = []
    rejects: list[tuple[int, str, str]] = []
    completed: dict[str, float] = {}
    try:
        tables = list(_tables(lines))
    except ParseError as exc:
        raise ParseError(source, exc.line, exc.message) from None
    if not tables:
        raise ParseError(source, 1, "no GuideLLM 0.1 table found (a '┃ Benchmark' header between ┏ and ┡ rules)")
    for head, rows in tables:
        for ln, cells in rows:
            report = max((int(m.group(1)) for t in lines[:ln] if (m := _REPORT.search(t))), default=1)
            label = re.sub(r"\s+", " ", cells[0])
            settings = _settings(label, details.get(report, (None, None, math.nan)), report, reports)
            key = f"{report}/{label}"
            for c in range(1, len(head)):
                name, pcts, unit = _header(head[c])
                cell = cells[c]
                what = f"{label} {head[c]}: {cell}"
                if _CLOCK.fullmatch(cell):
                    rejects.append(
                        (ln, what, "a time of day (the benchmark's first start or last end), not a measurement")
                    )
                    continue
                hit = _COLUMNS.get(name)
                if hit is None:
                    if cell and cell != "N/A":
                        rejects.append((ln, what, f"a column {head[c]!r} this parser has no tidy name for"))
                    continue
                metric, tidy_unit = hit
                if metric in ("completed", "failed"):
                    m = re.fullmatch(r"(\d+)/(\d+)", cell)
                    if m:
                        if metric == "completed":
                            completed[key] = float(m.group(1))
                        records.append(_record(settings, ln, metric, "count", float(m.group(1)), "req", None))
                    continue
                values = [_VALUE.fullmatch(v.strip()) for v in cell.split(",")]
                if not all(values):
                    rejects.append((ln, what, "a cell that is not a list of numbers"))
                    continue
                stats = pcts if pcts else ["mean"]
                if len(stats) != len(values):
                    rejects.append((ln, what, f"{len(values)} values under a header naming {len(stats)} statistics"))
                    continue
                for stat, v in zip(stats, values, strict=True):
                    scale = _SCALE.get(v.group("u") or unit, 1.0) if tidy_unit == "ms" else 1.0
                    stat = "value" if metric in _RATES or metric == "duration" else stat
                    if completed.get(key) == 0 and metric not in _RATES | {"duration"}:
                        rejects.append((ln, f"{what} ({stat})", _EMPTY_WHY))
                        continue
                    note = f"converted from {v.group('v')} s" if scale != 1.0 else None
                    records.append(_record(settings, ln, metric, stat, float(v.group("v")) * scale, tidy_unit, note))
    messages = [
        f"{source}: {k.split('/', 1)[1]}: no request completed (GuideLLM's zeros for it are set aside)"
        for k, n in completed.items()
        if n == 0
    ]
    return records, rejects, messages


def _record(settings: dict, ln: int, metric: str, stat: str, value: float, unit: str, note) -> dict:
    return {**settings, "line": ln, "metric": metric, "statistic": stat, "value": value, "unit": unit, "note": note}


#: the 0.1 table headers (report.py), one of which a copy holds with the box's header rule.
_HEADERS = (
    "Requests Completed",
    "Request Latency [1%",
    "Requests per Second",
    "Prompt (1%, 5%",
    "Output Token Throughput",
)


def sniff(text: str | Lines) -> bool:
    return contains("┃ Benchmark", text) and any(contains(h, text) for h in _HEADERS)


#: Why a 0.1 report with its settings and none of its tables is not read (`refuses`).
NO_TABLE = (
    "a GuideLLM 0.1 report whose copy holds its settings (Backend, Data, Rate, Limits) and none of the four "
    "tables it prints under them: there is no result to read"
)


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of a 0.1 report panel (`Benchmark Report N` over its `Backend(type=...)` settings line)
    whose copy holds no table of it (`sniff` false), else None."""
    if sniff(text) or not contains("Backend(type=", text):
        return None
    for i, line in enumerate(splitlines(text)):
        if _REPORT.search(line):
            return i + 1, NO_TABLE
    return None
