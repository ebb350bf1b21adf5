"""GuideLLM 0.2 / 0.3 console summary (`guidellm benchmark ...` without `run`), read for `guidellm`.

What the tool prints (guidellm/benchmark/output.py, `GenerativeBenchmarksConsole`): a `Benchmarks
Metadata:` block (`Profile:type=sweep, strategies=[...]`, `Worker:... backend_model='M'`, `Request
Loader:... data='...'`), then two tables, `Benchmarks Info:` and `Benchmarks Stats:`, each framed
by `===` rules, a group row whose cells span columns (a cell followed by k pipes spans k columns;
the last group runs to the end), a row of sub-headers, a `---|---` rule and one row per benchmark,
labelled by the strategy (`synchronous`, `throughput`, `constant@1.93`, `poisson@2.00`,
`concurrent@8`).

Mapping (the console's `_print_benchmarks_info` / `_print_benchmarks_stats`): Info: `Duration (s)`
-> `duration`; `Requests Made` Comp / Inc / Err -> `completed` / `incomplete` / `errored`, and
`failed` = incomplete + errored (an incomplete request was cut off when the benchmark ended, an
errored one failed; neither completed); `Prompt Tok/Req` and `Output Tok/Req` of the completed ->
`input_sequence_length` / `output_sequence_length` (mean); the totals of the completed ->
`total_input_tokens` / `total_generated_tokens`, of the others -> `incomplete_*` / `errored_*_tokens`.
Stats: `Per Second` (successful requests per second, mean) -> `request_throughput`; `Concurrency`
(requests in flight, mean) -> `concurrency`; `Out Tok/sec` / `Tot Tok/sec` -> `output_throughput` /
`total_token_throughput`; `Req Latency` -> `e2el`: the console prints `request_latency`, which is in
seconds, whatever the header says (0.2.1 labels it `(ms)`: vllm-project/guidellm issue 245), so it
is converted from s; `TTFT` -> `ttft`; GuideLLM's `ITL` ((last token - first token) / (output tokens
- 1), per request) -> `tpot`; its `TPOT` in 0.2 is (last token - first token) / output tokens (no
first-token time, one token more in the divisor), which has no tidy name and is set aside with the
reason. A benchmark in which no request completed prints 0.0 for every latency and token statistic:
those zeros are empty distributions, not measurements, and are set aside. The load: `constant@R` /
`poisson@R` -> request rate R; `concurrent@N` -> N streams as the concurrency cap and `synchronous`
cap 1, both with an unlimited rate (the next request leaves as soon as one completes); `throughput`
-> unlimited rate, no cap.
"""

from __future__ import annotations

import math
import re

from benchbook.ingest import guidellm_report
from benchbook.ingest.core import ParseError, number
from benchbook.ingest.serving_settings import run_settings
from benchbook.ingest.text import Lines, search, splitlines

FORMAT = "console 0.2"

_TITLE = re.compile(r"^\s*Benchmarks? (?P<kind>Info|Stats):?\s*$")
_RULE = re.compile(r"^\s*=+\s*$")
_SEP = re.compile(r"^\s*-+(?:\|-+)*\s*$")
_LABEL = re.compile(r"^(?P<kind>[a-z_]+)(?:@(?P<value>[-+]?\d+(?:\.\d+)?))?$")
_STAT = {"mean": "mean", "median": "median", "p99": "p99", "p95": "p95", "p90": "p90"}
_STATUS = {"Comp": "completed", "Inc": "incomplete", "Err": "errored"}

#: Stats group (header word before any unit) -> (metric, unit, scale); None: set aside.
_STATS = {
    "Request Stats/Per Second": ("request_throughput", "req/s", 1.0),
    "Request Stats/Concurrency": ("concurrency", "req", 1.0),
    "Out Tok/sec": ("output_throughput", "tok/s", 1.0),
    "Tot Tok/sec": ("total_token_throughput", "tok/s", 1.0),
    "Req Latency": ("e2el", "ms", 1000.0),
    "TTFT": ("ttft", "ms", 1.0),
    "ITL": ("tpot", "ms", 1.0),
}
_TPOT_WHY = "GuideLLM 0.2's TPOT, (last token - first token) / output tokens: no tidy name (its ITL is kept as tpot)"
_EMPTY_WHY = "no request of this benchmark completed: GuideLLM prints 0.0 for an empty distribution"


def _spans(line: str, n: int) -> list[str]:
    """A group row's cell for each of `n` columns: a cell followed by k pipes spans k columns; the
    last cell spans what is left."""
    out: list[str] = []
    parts = re.findall(r"([^|]*)(\|*)", line.strip())
    for text, pipes in parts:
        if not text and not pipes:
            continue
        out.extend([text.strip()] * max(len(pipes), 1))
    out = out[:n]
    return out + [out[-1] if out else ""] * (n - len(out))


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().split("|")]


def _group(word: str) -> str:
    """`Req Latency (ms)` -> `Req Latency`: the group's name without its printed unit."""
    return re.sub(r"\s*\([^)]*\)\s*$", "", word).strip()


def _tables(lines: list[str]):
    """(kind, groups, sub-headers, [(line number, cells)]) of each Info / Stats table."""
    i = 0
    while i < len(lines):
        m = _TITLE.match(lines[i])
        if not m:
            i += 1
            continue
        kind = m.group("kind")
        i += 1
        while i < len(lines) and not lines[i].strip():
            i += 1
        if i >= len(lines) or not _RULE.match(lines[i]) or i + 3 >= len(lines):
            continue
        subs = _cells(lines[i + 2])
        groups = _spans(lines[i + 1], len(subs))
        if not _SEP.match(lines[i + 3]):
            raise ParseError("", i + 4, f"expected the '---|---' rule under the Benchmarks {kind} headers")
        i += 4
        rows = []
        while i < len(lines) and lines[i].strip() and not _RULE.match(lines[i]):
            rows.append((i + 1, _cells(lines[i])))
            i += 1
        yield kind, groups, subs, rows


def _metadata(text: str | Lines) -> tuple[str | None, str | None]:
    """(model, data spec) from the Benchmarks Metadata block (its lines may wrap: joined)."""
    flat = " ".join(line.strip() for line in splitlines(text) if "|" not in line)
    model = re.search(r"backend_model='([^']*)'", flat)
    data = re.search(r"Request Loader:.*?\bdata='([^']*)'", flat)
    spec = data.group(1) if data else None
    if spec and re.match(r"^(?:/|~|\.{1,2}/)", spec):
        spec = None  # a file on the runner's machine: its path says nothing to a reader
    return (model.group(1) if model else None), spec


def _settings(label: str, model, data) -> dict:
    m = _LABEL.match(label)
    kind = m.group("kind") if m else label
    value = float(m.group("value")) if m and m.group("value") else None
    rate, cap = guidellm_report.load(kind, value, value)
    return run_settings(label, FORMAT, model=model, dataset=data, request_rate=rate, max_concurrency=cap)


#: A title of the console's summary behind a comment sign (`# Benchmarks Stats:`): the summary pasted as comments,
#: as a shell script keeps the output of its command under it.
_COMMENTED_TITLE = re.compile(r"^(#+ ?)Benchmarks? (?:Metadata|Info|Stats):?\s*$")


def uncommented(text: str | Lines) -> list[str]:
    """The lines of `text`, those of a summary pasted as comments (`# ` before each, `#` alone on its empty
    ones: the prefix its titles carry) read without that prefix, line for line, as the console printed them."""
    lines = list(splitlines(text))
    m = next((m for line in lines if (m := _COMMENTED_TITLE.match(line))), None)
    if not m:
        return lines
    prefix = m.group(1)
    bare = prefix.rstrip()
    return [s[len(prefix) :] if s.startswith(prefix) else ("" if s.rstrip() == bare else s) for s in lines]


def read(text: str | Lines, source: str) -> tuple[list[dict], list[tuple[int, str, str]], list[str]]:
    """The records, rejects and messages of a 0.2 console summary (pasted as comments or not)."""
    lines = uncommented(text)
    text = "\n".join(lines)
    if (at := wrapped(lines)) is not None:
        raise ParseError(
            source,
            at,
            "GuideLLM 0.2's table captured at a terminal narrower than its rows: each row is wrapped over several "
            "lines padded to the width, so where a row and its last cell end is not marked; not read",
        )
    model, data = _metadata(text)
    records: list[dict] = []
    rejects: list[tuple[int, str, str]] = []
    messages: list[str] = []
    completed: dict[str, float] = {}
    found = False
    try:
        tables = list(_tables(lines))
    except ParseError as exc:
        raise ParseError(source, exc.line, exc.message) from None
    # the Info table first: it says which benchmarks completed nothing
    for kind, groups, subs, rows in sorted(tables, key=lambda t: t[0] != "Info"):
        found = True
        for ln, cells in rows:
            label = cells[0]
            settings = _settings(label, model, data)

            def keep(metric, stat, value, unit, note=None, ln=ln, settings=settings):
                records.append(
                    {
                        **settings,
                        "line": ln,
                        "metric": metric,
                        "statistic": stat,
                        "value": value,
                        "unit": unit,
                        "note": note,
                    }
                )

            counts: dict[str, float] = {}
            for c in range(1, min(len(cells), len(subs))):
                v = number(cells[c])
                if v is None:
                    continue  # a time of day (Start, End) or an empty cell
                group, sub = _group(groups[c]), subs[c]
                what = f"{label} {groups[c]} {sub}: {cells[c]}"
                if kind == "Info":
                    status = _STATUS.get(sub)
                    if group == "Metadata" and sub.startswith("Duration"):
                        keep("duration", "value", v, "s")
                    elif group == "Requests Made" and status:
                        counts[status] = v
                        keep(status, "count", v, "req")
                    elif group in ("Prompt Tok/Req", "Output Tok/Req") and status == "completed":
                        if completed.get(label, 1.0) == 0 or counts.get("completed") == 0:
                            rejects.append((ln, what, _EMPTY_WHY))
                            continue
                        name = "input_sequence_length" if group.startswith("Prompt") else "output_sequence_length"
                        keep(name, "mean", v, "tok")
                    elif group in ("Prompt Tok Total", "Output Tok Total") and status:
                        side = "input" if group.startswith("Prompt") else "output"
                        if status == "completed":
                            name = "total_input_tokens" if side == "input" else "total_generated_tokens"
                        else:
                            name = f"{status}_{side}_tokens"
                        keep(name, "count", v, "tok")
                    else:
                        rejects.append(
                            (ln, what, "tokens per request of incomplete or errored requests: not a serving metric")
                        )
                    continue
                key = f"{group}/{sub}" if group == "Request Stats" else group
                if group == "TPOT":
                    rejects.append((ln, what, _TPOT_WHY))
                    continue
                hit = _STATS.get(key)
                stat = _STAT.get(sub, "value") if group != "Request Stats" else "value"
                if hit is None or stat is None:
                    rejects.append((ln, what, f"a column {groups[c]!r} / {sub!r} this parser has no tidy name for"))
                    continue
                metric, unit, scale = hit
                if completed.get(label) == 0 and metric not in (
                    "request_throughput",
                    "output_throughput",
                    "total_token_throughput",
                ):
                    rejects.append((ln, what, _EMPTY_WHY))
                    continue
                if metric == "concurrency":
                    stat = "mean"
                elif unit in ("tok/s", "req/s"):
                    stat = "value"
                note = "converted from s (printed as request_latency, seconds)" if scale != 1.0 else None
                keep(metric, stat, v * scale, unit, note)
            if kind == "Info" and counts:
                completed[label] = counts.get("completed", math.nan)
                failed = counts.get("incomplete", 0.0) + counts.get("errored", 0.0)
                keep("failed", "count", failed, "req", "incomplete + errored (Requests Made)")
    if not found:
        raise ParseError(source, 1, "no GuideLLM 0.2 console table found (a 'Benchmarks Stats:' line above a === rule)")
    for label, n in completed.items():
        if n == 0:
            messages.append(f"{source}: {label}: no request completed (GuideLLM's zeros for it are set aside)")
    return records, rejects, messages


_SNIFF = (re.compile(r"^\s*Benchmarks? Stats:?\s*$", re.M), re.compile(r"Req Latency \((?:sec|ms)\)"))
#: The Info table's title with its rule of `=` below it (the console's own), for a copy that holds no Stats table.
_INFO_TITLE = re.compile(r"^\s*Benchmarks? Info:?\s*\n=+\s*$", re.M)
#: A rule of dashes and pipes (`---|---`) and its wrapped tail on the next line: a table captured at a
#: terminal narrower than its rows.
_COLUMN_RULE = re.compile(r"^\s*-+\|[-|]*\s*$")


def sniff(text: str | Lines) -> bool:
    text = "\n".join(uncommented(text))
    return all(search(p, text) for p in _SNIFF) or search(_INFO_TITLE, text)


def wrapped(lines) -> int | None:
    """The line (1-based) of a `---|---` rule continued on the next line, where a table was captured at a
    terminal narrower than its rows (each row then spans several lines padded to the width, its end
    unmarked, so its cells cannot be told apart); else None."""
    for i in range(len(lines) - 1):
        if _COLUMN_RULE.match(lines[i]) and _COLUMN_RULE.match(lines[i + 1]):
            return i + 1
    return None
