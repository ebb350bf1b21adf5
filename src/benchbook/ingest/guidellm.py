"""GuideLLM (vllm-project/guidellm) outputs, in the serving contract of vllm-bench-serve: the
benchmarks report (JSON or YAML, both schema generations: `guidellm_report`), the 0.1 console
report (`guidellm_console_v01`), the 0.2 / 0.3 console (`guidellm_console_v02`) and, here, the console summaries of 0.5 and later.

What the tool prints (guidellm/benchmark/outputs/console.py) after its setup lines (`✔ ...
backend validated with model M`, the profile: `strategy_type='constant' rate=[1.0, 5.0]
max_concurrency=None ... strategy_types=[...]`): titled tables (`ℹ Run Summary Info`, `ℹ Text
Metrics Statistics (Completed Requests)`, `ℹ Request Token Statistics ...`, `ℹ Request Latency
Statistics ...`, `ℹ Server Throughput Statistics`), each framed by `|===|` rules, with two or three
header rows whose cells span several columns (`| Timings |||||` spans five) and one row per
benchmark, in the order they ran (its strategy in the first cell).

Mapping (GuideLLM's request_stats.py): `Request Latency` (s) -> `e2el` (ms); `TTFT` -> `ttft`;
GuideLLM's `ITL` is per request (last token - first token) / (output tokens - 1), vLLM's TPOT, so it
is `tpot`; GuideLLM's `TPOT` is (last token - request start) / output tokens, the first token
included, so it is `normalized_time_per_output_token`; no pooled inter-chunk gap is printed, so
there is no `itl`. Distributions are GuideLLM's (percentiles weighted by output tokens). Run
Summary: `Dur` -> `duration`, `Warm` / `Cool` -> `warmup_duration` / `cooldown_duration`, completed
input / output token totals -> `total_input_tokens` / `total_generated_tokens`, those of incomplete
and errored requests -> `incomplete_*` / `errored_*_tokens`. Server Throughput: requests per second
(mean -> `request_throughput`), measured `concurrency` (requests in flight), input / output / total
tokens per second (mean -> `input_throughput` / `output_throughput` / `total_token_throughput`),
medians beside them. Per-request token counts -> `input_sequence_length` /
`output_sequence_length` (printed twice: the screen keeps one), total tokens, stream iterations,
tokens per iteration. Text statistics (words, characters, and that table's per-second rates) are
set aside with the reason. Settings: the model, each benchmark's strategy and rate
(`constant` / `poisson`: request rate; `concurrent`: streams as the concurrency cap, `synchronous`:
cap 1, both at an unlimited rate, the next request leaving as one completes; `throughput`:
unlimited rate). The console prints no request counts, so `completed` and
`failed` are not looked for (errored tokens are said when not zero).
"""

from __future__ import annotations

import math
import re

from benchbook.ingest import guidellm_console_v01, guidellm_console_v02, guidellm_report
from benchbook.ingest.core import Parsed, ParseError, Tool, finish, heading_words, number, register
from benchbook.ingest.serving_settings import SETTINGS as CONTRACT
from benchbook.ingest.serving_settings import run_settings
from benchbook.ingest.text import Lines, contains, splitlines
from benchbook.nouns import counted

NAME = "guidellm"
SETTINGS = dict(CONTRACT)
FORMAT = "console 0.5+"
#: A 0.5+ console benchmark at a rate (constant, poisson) whose rate the file does not print: the
#: tables name the strategy only, the rate is on the profile line (`rate=[...]`) above them.
UNRATED = "console 0.5+ tables without the profile line"
#: A 0.5+ console `concurrent` benchmark whose streams the file does not print (the profile line's
#: `rate=[...]` gives them): a fixed number of streams, each sending its next request as one completes,
#: so capped, at a cap the file leaves unknown, never "no cap".
UNSTREAMED = "console 0.5+ concurrent tables without the profile line"
_SERVING = frozenset(
    {
        "model",
        "dataset",
        "request_rate",
        "max_concurrency",
        "duration",
        "ttft",
        "tpot",
        "e2el",
        "request_throughput",
        "output_throughput",
        "total_input_tokens",
        "total_generated_tokens",
    }
)
#: What each format records (`Tool.carries`): the 0.5+ console prints no request counts; the 0.2
#: console's Info table and both reports count completed, errored and incomplete requests.
CARRIES = {
    FORMAT: _SERVING,
    UNRATED: _SERVING - {"request_rate"},
    UNSTREAMED: _SERVING - {"max_concurrency"},
    guidellm_console_v02.FORMAT: _SERVING | {"completed", "failed"},
    # 0.1 prints no in-flight limit (GUIDELLM__MAX_CONCURRENCY, 512 by default, bounds its asynchronous
    # and throughput modes) and its ITL is the pooled gap, not a per-request TPOT
    guidellm_console_v01.FORMAT: (_SERVING - {"max_concurrency", "tpot"}) | {"completed", "failed", "itl"},
    guidellm_report.OLD: _SERVING | {"completed", "failed"},
    guidellm_report.NEW: _SERVING | {"completed", "failed", "normalized_time_per_output_token"},
}

METRICS = {
    "duration": "s: the benchmark's duration (Run Summary `Dur`)",
    "warmup_duration": "s: warmup excluded from the statistics",
    "cooldown_duration": "s: cooldown excluded from the statistics",
    "total_input_tokens": "tok: prompt tokens of the completed requests",
    "total_generated_tokens": "tok: output tokens of the completed requests",
    "incomplete_input_tokens": "tok: prompt tokens of requests cut off at the end",
    "incomplete_output_tokens": "tok: output tokens of requests cut off at the end",
    "errored_input_tokens": "tok: prompt tokens of requests that errored",
    "errored_output_tokens": "tok: output tokens of requests that errored",
    "e2el": "ms: request latency (printed in s)",
    "ttft": "ms: time to first token",
    "tpot": "ms: GuideLLM's ITL, per request (last token - first token) / (output tokens - 1)",
    "itl": "ms: GuideLLM 0.1's Inter Token Latency, every decode gap of every request pooled",
    "normalized_time_per_output_token": "ms: GuideLLM's TPOT, (last token - request start) / output tokens",
    "request_throughput": "req/s: requests completed per second (mean; median beside it)",
    "concurrency": "req: requests in flight, measured (mean, median)",
    "input_throughput": "tok/s: prompt tokens per second",
    "output_throughput": "tok/s: output tokens per second",
    "total_token_throughput": "tok/s: prompt + output tokens per second",
    "input_sequence_length": "tok: prompt tokens per request",
    "output_sequence_length": "tok: output tokens per request",
    "total_sequence_length": "tok: prompt + output tokens per request",
    "stream_iterations": "count: streamed chunks per request",
    "output_tokens_per_iteration": "tok: output tokens per streamed chunk",
    "completed": "req: successful requests (0.2 console Info, reports' request_totals)",
    "errored": "req: requests that errored",
    "incomplete": "req: requests cut off when the benchmark ended",
    "failed": "req: errored + incomplete",
}

#: A table's title line; pasted as a Markdown list item (`- ℹ ...`), it keeps the marker.
_TITLE = re.compile(r"^\s*(?:[-*+]\s+)?ℹ\s+(?P<title>\S.*?)\s*$")
_RULE = re.compile(r"^\s*\|=+(?:\|=+)*\|\s*$")
_SEP = re.compile(r"^\s*\|-+(?:\|-+)*\|\s*$")
#: A time of day as the Run Summary prints a benchmark's Start and End (`10:13:04`).
_CLOCK = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?")
CLOCK = "a time of day (the benchmark's start or end), not a measurement"
_STAT = {"Mdn": "median", "Mean": "mean", "p50": "median", "p90": "p90", "p95": "p95", "p99": "p99"}

#: (table word, group, sub-header) -> (metric, unit, scale); sub "*" matches any.
_COLUMNS = {
    ("Summary", "Timings", "Dur"): ("duration", "s", 1.0),
    ("Summary", "Timings", "Warm"): ("warmup_duration", "s", 1.0),
    ("Summary", "Timings", "Cool"): ("cooldown_duration", "s", 1.0),
    ("Summary", "Input Tokens", "Comp"): ("total_input_tokens", "tok", 1.0),
    ("Summary", "Input Tokens", "Inc"): ("incomplete_input_tokens", "tok", 1.0),
    ("Summary", "Input Tokens", "Err"): ("errored_input_tokens", "tok", 1.0),
    ("Summary", "Output Tokens", "Comp"): ("total_generated_tokens", "tok", 1.0),
    ("Summary", "Output Tokens", "Inc"): ("incomplete_output_tokens", "tok", 1.0),
    ("Summary", "Output Tokens", "Err"): ("errored_output_tokens", "tok", 1.0),
    ("Text", "Input Tokens", "Per Request"): ("input_sequence_length", "tok", 1.0),
    ("Text", "Output Tokens", "Per Request"): ("output_sequence_length", "tok", 1.0),
    ("Token", "Input Tok", "Per Req"): ("input_sequence_length", "tok", 1.0),
    ("Token", "Output Tok", "Per Req"): ("output_sequence_length", "tok", 1.0),
    ("Token", "Total Tok", "Per Req"): ("total_sequence_length", "tok", 1.0),
    ("Token", "Stream Iter", "Per Req"): ("stream_iterations", "count", 1.0),
    ("Token", "Output Tok", "Per Stream Iter"): ("output_tokens_per_iteration", "tok", 1.0),
    ("Latency", "Request Latency", "Sec"): ("e2el", "ms", 1000.0),
    ("Latency", "Request Latency", "ms"): ("e2el", "ms", 1.0),
    ("Latency", "TTFT", "ms"): ("ttft", "ms", 1.0),
    ("Latency", "ITL", "ms"): ("tpot", "ms", 1.0),
    ("Latency", "TPOT", "ms"): ("normalized_time_per_output_token", "ms", 1.0),
    ("Throughput", "Requests", "Per Sec"): ("request_throughput", "req/s", 1.0),
    ("Throughput", "Requests", "Concurrency"): ("concurrency", "req", 1.0),
    ("Throughput", "Input Tokens", "Per Sec"): ("input_throughput", "tok/s", 1.0),
    ("Throughput", "Output Tokens", "Per Sec"): ("output_throughput", "tok/s", 1.0),
    ("Throughput", "Total Tokens", "Per Sec"): ("total_token_throughput", "tok/s", 1.0),
}
_KIND = {
    "Run Summary": "Summary",
    "Text Metrics": "Text",
    "Request Token": "Token",
    "Request Latency": "Latency",
    "Server Throughput": "Throughput",
}


def _rounded_to_zero(cell: str, unit: str) -> str:
    """Why a rate printed as zero is set aside: the console rounds every cell to a fixed number of
    decimals (one in the Server Throughput table), so `0.0` is a rate under half its last digit (a
    synchronous run of minute-long requests does about 0.03 req/s), not a rate of zero."""
    decimals = len(cell.split(".", 1)[1]) if "." in cell else 0
    return (
        f"a rate printed as {cell}: under {0.5 * 10**-decimals:g} {unit} at the table's "
        f"{counted(decimals, 'decimal')}, rounded to zero, not a zero rate"
    )


#: Throughput means that are the run's value (the tool's rate over the benchmark), not a mean of requests.
_VALUE_MEANS = {"request_throughput", "input_throughput", "output_throughput", "total_token_throughput"}


def _spans(line: str) -> list[str]:
    """A header row's cells, one per column: a cell followed by k pipes spans k columns."""
    s = line.strip()[1:]
    out: list[str] = []
    for m in re.finditer(r"([^|]*)(\|+)", s):
        out.extend([m.group(1).strip()] * len(m.group(2)))
    return out


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _profile(text: str) -> tuple[str | None, list[str], list[float], str | None]:
    """(model, per-benchmark strategies, rates, data spec) from the setup lines (wrapped: joined)."""
    flat = " ".join(line.strip() for line in splitlines(text) if not line.lstrip().startswith("|"))
    model = re.search(r"backend validated with model (\S+)", flat)
    kinds = re.search(r"strategy_types=\[([^\]]*)\]", flat)
    rates = re.search(r"\brate=\[([^\]]*)\]", flat)
    data = re.search(r"'data': \"(\[.*?\])\"", flat)
    names = [k.strip(" '\"") for k in kinds.group(1).split(",")] if kinds else []
    values = [float(x) for x in re.findall(r"[-+]?\d+(?:\.\d+)?", rates.group(1))] if rates else []
    return (model.group(1) if model else None), names, values, (data.group(1) if data else None)


def _settings(k: int, strategy: str, model, kinds, rates, data) -> dict:
    value = rates[k] if k < len(rates) and (not kinds or k < len(kinds)) else None
    rate, cap = guidellm_report.load(strategy, value, value)
    label = strategy
    if math.isfinite(rate):
        label += f" {rate:g} req/s"
    elif math.isfinite(cap) and strategy == "concurrent":
        label += f" {cap:g} streams"
    unrated = strategy in ("constant", "poisson", "async") and not math.isfinite(rate)
    unstreamed = strategy == "concurrent" and not math.isfinite(cap)
    return run_settings(
        label if label != strategy or k == 0 else f"{strategy} #{k + 1}",
        UNRATED if unrated else UNSTREAMED if unstreamed else FORMAT,
        model=model,
        dataset=data,
        request_rate=rate,
        max_concurrency=cap,
    )


def _tables(lines: list[str]):
    """(title, title's line number, header rows, [(line number, cells)]) of every titled table; a
    table of two stacked parts (Text Metrics) is two."""
    i = 0
    while i < len(lines):
        m = _TITLE.match(lines[i])
        if not m or i + 1 >= len(lines) or not _RULE.match(lines[i + 1]):
            i += 1
            continue
        title, at, i = m.group("title"), i + 1, i + 2
        while i < len(lines) and lines[i].lstrip().startswith("| Benchmark"):
            head = []
            while i < len(lines) and not _SEP.match(lines[i]) and not _RULE.match(lines[i]):
                head.append(_spans(lines[i]))
                i += 1
            i += 1
            rows = []
            while i < len(lines) and lines[i].lstrip().startswith("|") and not _RULE.match(lines[i]):
                rows.append((i + 1, _cells(lines[i])))
                i += 1
            yield title, at, head, rows
            i += 1  # the closing rule


def _sweeps(tables: list) -> list:
    """Each table with the GuideLLM run it belongs to: the console prints each kind of table once per
    `guidellm benchmark` run (console.py), so a kind printed again (under another title line; the
    two stacked parts of Text Metrics share one) starts the next run. With one run, None (its
    settings come from the profile line); with several, `(n, line of the run's first title)`."""
    out, seen, n, start = [], {}, 1, None
    for t in tables:
        title, at = t[0], t[1]
        kind = next((v for k, v in _KIND.items() if title.startswith(k)), title)
        if seen.get(kind, at) != at:
            n, seen, start = n + 1, {}, at
        start = at if start is None else start
        seen[kind] = at
        out.append((t, (n, start)))
    return out if n > 1 else [(t, None) for t, _ in out]


def _of_run(settings: dict, sweep: tuple[int, int], heading: str | None) -> dict:
    """A benchmark of one of several runs printed in one file, labelled by its run; each run is its own
    series (`deployment`), named with the write-up's headings above it where there are any (`GB10 /
    512 prompt`). The profile line above the first run says nothing of the others' rates."""
    n, line = sweep
    under = f", under {heading}" if heading else ""
    return {
        **settings,
        "run": f"run {n}: {settings['run']}",
        "metadata": f"deployment=GuideLLM run {n} (line {line}{under})",
    }


#: A markdown heading a write-up puts above a set of GuideLLM's tables (`## GB10`, `### 512 prompt ...`).
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(?P<text>\S.*?)[\s#*]*$")


def _heading(lines: list[str], at: int) -> str | None:
    """The headings a run's tables sit under, the outer one first, each to its first comma (`GB10
    (DGX spark) / 512 prompt + 256 output tokens`): the nearest heading above its first table and the
    nearest heading of a higher level above that one; None where no heading is above it."""
    chain: list[str] = []
    level = 7
    for line in reversed(lines[: at - 1]):
        m = _HEADING.match(line)
        if m and len(m.group(1)) < level:
            chain.insert(0, heading_words(m.group("text")).strip("* "))
            level = len(m.group(1))
            if level == 1:
                break
    chain = [c.split(",")[0].strip() for c in chain if c]  # a heading's first clause names its section
    return " / ".join(chain[-2:]) if chain else None


def parse(text: str | Lines, source: str) -> Parsed:
    """Any of GuideLLM's outputs: the report (JSON or YAML, either generation), the 0.2 console or
    the 0.5+ console."""
    if guidellm_report.sniff(text):
        records, rejects, messages, version = guidellm_report.read(text, source)
        return finish(TOOL, source, records, rejects, messages, version=version, empty=guidellm_report.EMPTY)
    if guidellm_console_v01.sniff(text) and not _sniff_v05(text):
        records, rejects, messages = guidellm_console_v01.read(text, source)
        return finish(TOOL, source, records, rejects, messages, version=guidellm_console_v01.FORMAT, empty=_EMPTY)
    if guidellm_console_v02.sniff(text) and not _sniff_v05(text):
        records, rejects, messages = guidellm_console_v02.read(text, source)
        return finish(TOOL, source, records, rejects, messages, version=guidellm_console_v02.FORMAT, empty=_EMPTY)
    return _parse_v05(text, source)


_EMPTY = "GuideLLM console tables without a number"


def _parse_v05(text: str | Lines, source: str) -> Parsed:
    lines = list(splitlines(text))
    model, kinds, rates, data = _profile(text)
    records: list[dict] = []
    rejects: list[tuple[int, str, str]] = []
    messages: list[str] = []
    found = False
    strategies: list[str] = []
    sweeps = _sweeps(list(_tables(lines)))
    for (title, _, head, rows), sweep in sweeps:
        found = True
        kind = next((v for k, v in _KIND.items() if title.startswith(k)), None)
        n = max(len(h) for h in head)
        for ln, cells in rows:
            k = len([r for r in rows if r[0] < ln])
            strategy = cells[0]
            first = sweep is None or sweep[0] == 1  # the profile line above the tables is the first run's
            if first and len(strategies) <= k:
                strategies.append(strategy)
            settings = _settings(k, strategy, model, *((kinds, rates, data) if first else ([], [], None)))
            if sweep is not None:
                settings = _of_run(settings, sweep, _heading(lines, sweep[1]))
            for c in range(1, min(n, len(cells))):
                v = number(cells[c])
                group = head[0][c] if len(head[0]) > c else ""
                sub = head[1][c] if len(head) > 1 and len(head[1]) > c else ""
                stat_word = head[-1][c] if len(head) > 2 and len(head[-1]) > c else ""
                what = f"{group} {sub} {stat_word}".strip()
                if v is None:
                    if _CLOCK.fullmatch(cells[c]):  # the Run Summary's Start and End
                        rejects.append((ln, f"{strategy} {what}: {cells[c]}", CLOCK))
                    continue  # an empty cell
                hit = _COLUMNS.get((kind, group, sub)) if kind else None
                if hit is None:
                    why = "text statistics (words, characters, per-second text rates): not a serving metric"
                    if kind != "Text":
                        why = f"a column {title!r} / {what!r} this parser has no tidy name for"
                    rejects.append((ln, f"{strategy} {what}: {cells[c]}", why))
                    continue
                metric, unit, scale = hit
                if unit.endswith("/s") and v == 0:  # a rate under the table's last digit, not a zero rate
                    rejects.append((ln, f"{strategy} {what}: {cells[c]}", _rounded_to_zero(cells[c], unit)))
                    continue
                stat = _STAT.get(stat_word, "value" if stat_word in ("Sec", "Tot", "") else None)
                if metric in _VALUE_MEANS and stat == "mean":
                    stat = "value"
                if stat is None:
                    rejects.append((ln, f"{strategy} {what}: {cells[c]}", f"statistic {stat_word!r} has no tidy name"))
                    continue
                if stat == "value" and unit == "tok" and kind == "Summary":
                    stat = "count"
                records.append(
                    {
                        **settings,
                        "line": ln,
                        "metric": metric,
                        "statistic": stat,
                        "value": v * scale,
                        "unit": unit,
                        "note": f"converted from {cells[c]} s" if scale != 1.0 else None,
                    }
                )
    if not found:
        raise ParseError(source, 1, "no GuideLLM console table found (a line 'ℹ Run Summary Info' above a |===| rule)")
    if kinds and len(kinds) != len(strategies):
        messages.append(
            f"{source}: the profile lists {len(kinds)} strategies, the tables {len(strategies)} benchmarks: "
            "rates not assigned"
        )
    errored = [r for r in records if r["metric"].startswith("errored_") and r["value"] > 0]
    for r in errored:
        messages.append(f"{source}:{r['line']}: {r['run']}: {r['value']:g} {r['metric'].replace('_', ' ')}")
    return finish(TOOL, source, records, rejects, messages, empty=_EMPTY)


def _sniff_v05(text: str | Lines) -> bool:
    """Any table of the 0.5+ console (console.py titles each `ℹ ... Statistics` or `ℹ Run Summary
    Info` above a `|===|` rule and a `| Benchmark` header row): a write-up may paste one alone (the
    Server Throughput table of a pull request)."""
    if contains("Run Summary Info", text):
        return True
    if not (contains("Statistics", text) and contains("| Benchmark", text)):
        return False
    return any(kind in title for title, *_ in _tables(list(splitlines(text))) for kind in _KIND)


def sniff(text: str | Lines) -> bool:
    return (
        _sniff_v05(text)
        or guidellm_console_v02.sniff(text)
        or guidellm_report.sniff(text)
        or guidellm_console_v01.sniff(text)
    )


#: One of GuideLLM's distribution summaries (its report's DistributionSummary: count, mean, median,
#: percentiles p001 ... p999, std_dev, total_sum, ...) printed as one JSON dict after a label by another
#: program (llm-d-autoscaling's boxed benchmark summary prints `TTFT (ms): {...}`).
_DISTRIBUTION = re.compile(r'^(?P<label>[^{]*?)\s*\{"count":\s*(?P<count>\d+),(?=.*"median":)')


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of a GuideLLM output this module does not read (`Tool.refuses`): distribution summaries
    another program printed, or a 0.1 console panel without its tables (`guidellm_console_v01.refuses`)."""
    return _distributions(text) or _args_only(text) or _metric_extract(text) or guidellm_console_v01.refuses(text)


#: One metric of a GuideLLM report's `metrics` (0.2 to 0.4: `"time_to_first_token_ms": {"successful": {...}}`,
#: its statistics per request status) quoted alone in an issue.
_METRIC_OPEN = re.compile(r'^\s*"(?P<name>[a-z_]+)"\s*:\s*\{\s*$')
_STATUS_OPEN = re.compile(r'^\s*"(?:successful|errored|incomplete|total)"\s*:\s*\{\s*$')
_METRIC_STAT = re.compile(r'^\s*"(?P<key>mean|median|count)"\s*:\s*(?P<v>-?[\d.]+(?:e[+-]?\d+)?)', re.I)


def _metric_extract(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of one metric of a GuideLLM report quoted without its report (no `"benchmarks"`, no other
    metric: guidellm issue 216's `time_to_first_token_ms`), else None (`Tool.refuses`): its statistics belong to
    a benchmark whose strategy, rate and other metrics are not in the file. A negative mean or median is said:
    a time no request took."""
    lines = splitlines(text)
    if any('"benchmarks"' in raw for raw in lines):
        return None
    for i, raw in enumerate(lines):
        m = _METRIC_OPEN.match(raw)
        nxt = next((x for x in lines[i + 1 : i + 3] if x.strip()), "")
        if not m or not _STATUS_OPEN.match(nxt):
            continue
        stats = {k["key"].lower(): float(k["v"]) for x in lines[i + 1 : i + 20] if (k := _METRIC_STAT.match(x))}
        if not stats:
            continue
        values = f"{int(stats['count']):,} values" if "count" in stats else "its statistics"
        negative = [k for k in ("mean", "median") if stats.get(k, 0) < 0]
        artifact = (
            f"; its {' and '.join(negative)} {'is' if len(negative) == 1 else 'are'} negative, a time no request took"
            if negative and m["name"].endswith(("_ms", "_s", "latency"))
            else ""
        )
        return i + 1, (
            f"one metric of a GuideLLM benchmarks report quoted alone (`{m['name']}`, {values}), without the benchmark "
            f"around it (strategy, rate, the other metrics){artifact}; not read"
        )
    return None


#: The report's `args` object (GuideLLM 0.2 to 0.4: the command's settings, first in the JSON) and its
#: keys that only a GuideLLM report's `args` holds together.
_ARGS_OPEN = re.compile(r'^\s*"args"\s*:\s*\{\s*$')
_ARGS_KEYS = ('"target"', '"profile"', '"rate"', '"output_formats"')


def _args_only(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of a GuideLLM report JSON whose copy holds its `args` (the command's settings) and no
    `"benchmarks"` (`Tool.refuses`): cut before its first benchmark, so nothing measured is in the file."""
    lines = splitlines(text)
    at = next((i for i, raw in enumerate(lines) if _ARGS_OPEN.match(raw)), None)
    if at is None or any('"benchmarks"' in raw for raw in lines):
        return None
    body = "\n".join(lines[at : at + 80])
    if not all(k in body for k in _ARGS_KEYS):
        return None
    return at + 1, (
        "a GuideLLM benchmarks report whose copy holds its `args` (the command's settings) and ends before its "
        "`benchmarks`: nothing measured is in the file; not read"
    )


def _distributions(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of GuideLLM distribution summaries printed one per line as JSON by another program
    (a wrapper's console, not GuideLLM's report or its own console), else None (`Tool.refuses`): such a
    dict is one metric's distribution without the benchmark around it (strategy, rate, request counts,
    the other metrics), and a copy may end inside one."""
    found = [(i, m) for i, raw in enumerate(splitlines(text)) if (m := _DISTRIBUTION.match(raw))]
    if not found:
        return None
    i, m = found[0]
    label = m["label"].strip(" │|:\t") or "a metric"
    cut = [k + 1 for k, d in found if not d.string.rstrip().endswith("}")]
    ends = f"; the copy ends inside the one at line {cut[0]}" if cut else ""
    return i + 1, (
        f"{counted(len(found), 'GuideLLM distribution summary', 'GuideLLM distribution summaries')} printed as JSON by "
        f"another program's console (the first, {label}: {int(m['count']):,} values), not GuideLLM's report or its "
        f"console{ends}; not read"
    )


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="GuideLLM: the benchmarks report (benchmarks.json or .yaml, 0.2/0.3 and 0.4+ schemas), "
        "the 0.1 console report (Requests Data, Tokens Data, Performance Stats and Summary by Benchmark), "
        "the 0.2/0.3 console (Benchmarks Info and Benchmarks Stats tables) and the 0.5+ console (Run Summary, "
        "Request Latency, Server Throughput ...) (serving contract)",
        command="guidellm benchmark --target URL --rate-type sweep --max-seconds 30 --output-path benchmarks.json "
        "| tee run.log",
        metrics=METRICS,
        carries=CARRIES,
        refuses=refuses,
    )
)
