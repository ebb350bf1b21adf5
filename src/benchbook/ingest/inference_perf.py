"""kubernetes-sigs inference-perf lifecycle reports (`summary_lifecycle_metrics.json`,
`stage_N_lifecycle_metrics.json`), in the serving contract of vllm-bench-serve; and its Prometheus
reports of the model server's own metrics (`_parse_prometheus`).

The report (inference_perf/reportgen): `{"load_summary": {"count", "schedule_delay": {stats},
"send_duration", "requested_rate", "achieved_rate"}, "successes": {"count", "latency": {name:
{stats}}, "throughput": {...}, "prompt_len": {stats}, "output_len": {stats}}, "failures": {"count",
"request_latency": {stats} | null, "prompt_len": {stats} | null}}`; latencies in seconds, stats
`mean`, `min`, `max`, `median`, `p0.1` ... `p99.9` (older reports: `p10`, `p50`, `p90`). Per-stage
reports add the stage's `requested_rate`; the summary spans every stage, so it has none.

Mapping (inference-perf's docs/metrics.md): `successes.count` -> `completed`, `failures.count` ->
`failed`, `load_summary.count` -> the `num_prompts` setting (requests sent), `requested_rate` ->
the `request_rate` setting; `request_latency` -> `e2el`, `time_to_first_token` -> `ttft`,
`time_per_output_token` ((latency - TTFT) / (output tokens - 1), per request) -> `tpot`,
`inter_token_latency` (gaps between streamed chunks, pooled) -> `itl`, all converted from s to
ms; `normalized_time_per_output_token` (latency / output tokens) keeps its name, in ms;
`prompt_len` / `output_len` -> `input_sequence_length` / `output_sequence_length` (tok);
`requests_per_sec` -> `request_throughput`, `output_tokens_per_sec` -> `output_throughput`,
`input_tokens_per_sec` -> `input_throughput`, `total_tokens_per_sec` -> `total_token_throughput`;
`schedule_delay` (s, how late the load generator sent each request) -> `schedule_delay` (ms),
`send_duration` (s), `achieved_rate` (req/s), `benchmark_time_seconds` -> `duration`. A failed
request's latency and prompt length keep a `failed_` prefix. No concurrency cap is set by the
tool (its load is a request rate), so `max_concurrency` is empty: that is said, not looked for.

Counting: every number is a cell; every percentile keeps its rank (p0.1, p1, p5, p10, p25, p75,
p99.9 as printed: `core.percentile`). A stage with no streamed tokens prints null for the token
metrics (not numbers, not cells; the parser says which were null).
"""

from __future__ import annotations

import json
import math
import re

from benchbook.ingest import inference_perf_report
from benchbook.ingest.core import Parsed, ParseError, Tool, finish, percentile, register
from benchbook.ingest.serving_settings import SETTINGS as CONTRACT
from benchbook.ingest.serving_settings import run_settings
from benchbook.ingest.text import Lines, first_char, head, json_object, split_n, whole

NAME = "inference-perf"
SETTINGS = dict(CONTRACT)

#: latency name -> contract metric (seconds in the file, ms in the table).
LATENCY = {
    "request_latency": "e2el",
    "time_to_first_token": "ttft",
    "time_per_output_token": "tpot",
    "inter_token_latency": "itl",
    "normalized_time_per_output_token": "normalized_time_per_output_token",
}
THROUGHPUT = {
    "requests_per_sec": ("request_throughput", "req/s"),
    "output_tokens_per_sec": ("output_throughput", "tok/s"),
    "input_tokens_per_sec": ("input_throughput", "tok/s"),
    "total_tokens_per_sec": ("total_token_throughput", "tok/s"),
}
#: inference-perf statistic -> tidy statistic (other percentiles keep their rank: `core.percentile`).
STATS = {
    "mean": "mean",
    "min": "min",
    "max": "max",
    "std": "std",
    "median": "median",
    "p50": "median",
    "p90": "p90",
    "p95": "p95",
    "p99": "p99",
}
METRICS = {
    "completed": "req: requests that succeeded (successes.count)",
    "failed": "req: requests that failed (failures.count)",
    "duration": "s: benchmark_time_seconds (newer reports)",
    "request_throughput": "req/s: successes per second",
    "output_throughput": "tok/s: output tokens of the successes per second",
    "input_throughput": "tok/s: prompt tokens of the successes per second",
    "total_token_throughput": "tok/s: prompt + output tokens per second",
    "ttft": "ms: time to first token (streaming only)",
    "tpot": "ms: per request (latency - ttft) / (output tokens - 1) (streaming only)",
    "itl": "ms: gaps between streamed chunks, pooled over requests (streaming only)",
    "e2el": "ms: request latency",
    "normalized_time_per_output_token": "ms: per request latency / output tokens",
    "input_sequence_length": "tok: prompt tokens per request",
    "output_sequence_length": "tok: output tokens per request",
    "sent": "req: requests the load generator sent (load_summary.count)",
    "requested_rate": "req/s: the stage's configured request rate",
    "schedule_delay": "ms: how late the load generator sent each request",
    "send_duration": "s: time spent sending the stage's requests",
    "achieved_rate": "req/s: requests sent per second",
    "failed_e2el": "ms: latency of the failed requests",
    "failed_input_sequence_length": "tok: prompt tokens of the failed requests",
    "success_rate": "%: successes / (successes + failures), as a report prints it (no count beside it)",
}


#: The `format` of a report over every stage, and of one stage's report (which adds its rate).
SUMMARY, STAGE = "summary lifecycle report", "stage lifecycle report"
_MEASURED = {
    "completed",
    "failed",
    "ttft",
    "tpot",
    "itl",
    "e2el",
    "request_throughput",
    "output_throughput",
    "input_throughput",
    "total_token_throughput",
    "num_prompts",
}
#: What each report records (`Tool.carries`): neither names the model nor sets a concurrency cap
#: (the load is a request rate); only a stage's report gives its rate.
CARRIES = {SUMMARY: frozenset(_MEASURED), STAGE: frozenset(_MEASURED | {"request_rate"})}
#: The Prometheus report (the server's metrics): no sent, failed or rate, no per-request lengths.
PROMETHEUS = "Prometheus report"
CARRIES[inference_perf_report.FORMAT] = inference_perf_report.CARRIES
CARRIES[PROMETHEUS] = frozenset(
    {"completed", "ttft", "tpot", "itl", "e2el", "request_throughput", "output_throughput", "input_throughput"}
)


#: A median schedule delay above this (s) means the load generator fell behind its rate
#: (inference-perf docs/loadgen.md: "median delay should be less than 10 milliseconds").
LATE_S = 0.010


def _num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class _Reader:
    """Walks the report, one record or reject per number; each number's line is found by its key
    after its block's key, in the order the file prints them."""

    def __init__(self, text: str, source: str, settings: dict):
        self.text, self.source, self.settings = text, source, settings
        self.records: list[dict] = []
        self.rejects: list[tuple[int, str, str]] = []
        self.nulls: list[str] = []
        self.at = 0

    def line(self, key: str) -> int:
        k = self.text.find(f'"{key}"', self.at)
        if k >= 0:
            self.at = k + 1
        return self.text.count("\n", 0, max(k, 0)) + 1

    def keep(self, ln: int, metric: str, stat: str, value: float, unit: str, note: str | None = None) -> None:
        self.records.append(
            {
                **self.settings,
                "line": ln,
                "metric": metric,
                "statistic": stat,
                "value": value,
                "unit": unit,
                "note": note,
            }
        )

    def scalar(self, key: str, v, metric: str, stat: str, unit: str, scale: float = 1.0) -> None:
        if v is None:
            self.nulls.append(key)
            return
        ln = self.line(key)
        if not _num(v):
            self.rejects.append((ln, f"{key}: {v!r}"[:80], "expected a number"))
        else:
            self.keep(ln, metric, stat, float(v) * scale, unit)

    def stats(self, key: str, block, metric: str, unit: str, scale: float = 1.0) -> None:
        """A distribution block: each statistic with a tidy name kept, the other percentiles rejected."""
        if block is None:
            self.nulls.append(key)
            return
        ln = self.line(key)
        if not isinstance(block, dict):
            self.rejects.append((ln, f"{key}: {block!r}"[:80], "expected a block of statistics"))
            return
        note = "converted from s" if scale != 1.0 else None
        for s, v in block.items():
            ln = self.line(s)
            if not _num(v):
                if v is not None:
                    self.rejects.append((ln, f"{key}.{s}: {v!r}"[:80], "expected a number"))
            elif s in STATS or percentile(s):
                self.keep(ln, metric, STATS.get(s) or percentile(s), float(v) * scale, unit, note)
            else:
                self.rejects.append((ln, f"{key}.{s}: {v}", f"{s} is not a statistic of the tidy table"))


def _parse_json(text: str, source: str):
    not_report = "expected an inference-perf lifecycle report (an object with 'successes')"
    obj = json_object(text, source, "not valid JSON (inference-perf lifecycle report)", not_report)
    if not isinstance(obj.get("successes"), dict):
        raise ParseError(source, 1, not_report)
    return obj


def parse(text: str | Lines, source: str) -> Parsed:
    if first_char(text) != "{" and inference_perf_report.sniff(text):
        return _parse_markdown(text, source)
    text = whole(text).replace("\r\n", "\n")
    obj = _parse_json(text, source)
    if _is_prometheus(obj):
        return _parse_prometheus(obj, text, source)
    load = obj.get("load_summary") if isinstance(obj.get("load_summary"), dict) else {}
    ok = obj["successes"]
    bad = obj.get("failures") if isinstance(obj.get("failures"), dict) else {}
    rate = load.get("requested_rate")
    settings = run_settings(
        NAME,
        STAGE if _num(rate) or source.startswith("stage_") else SUMMARY,
        num_prompts=float(load["count"]) if _num(load.get("count")) else math.nan,
        request_rate=float(rate) if _num(rate) else math.nan,
    )
    r = _Reader(text, source, settings)
    messages: list[str] = []
    if load:
        r.line("load_summary")
        if "count" in load:
            r.scalar("count", load["count"], "sent", "count", "req")
        for key, val in load.items():
            if key == "schedule_delay":
                r.stats(key, val, "schedule_delay", "ms", 1000.0)
            elif key == "send_duration":
                r.scalar(key, val, "send_duration", "value", "s")
            elif key == "achieved_rate":
                r.scalar(key, val, "achieved_rate", "value", "req/s")
            elif key == "requested_rate" and _num(val):
                r.scalar(key, val, "requested_rate", "value", "req/s")
    if _num(obj.get("benchmark_time_seconds")):
        r.at = 0
        r.scalar("benchmark_time_seconds", obj["benchmark_time_seconds"], "duration", "value", "s")
    r.at = text.find('"successes"')
    r.scalar("count", ok.get("count"), "completed", "count", "req")
    latency = ok.get("latency") if isinstance(ok.get("latency"), dict) else {}
    for key, block in latency.items():
        metric = LATENCY.get(key, key)
        r.stats(key, block, metric, "ms", 1000.0)
    throughput = ok.get("throughput") if isinstance(ok.get("throughput"), dict) else {}
    for key, v in throughput.items():
        metric, unit = THROUGHPUT.get(key, (key, "tok/s" if "tokens" in key else "req/s"))
        r.scalar(key, v, metric, "value", unit)
    for key, metric in (("prompt_len", "input_sequence_length"), ("output_len", "output_sequence_length")):
        if key in ok:
            r.stats(key, ok[key], metric, "tok")
    if bad:
        r.at = text.find('"failures"')
        r.scalar("count", bad.get("count"), "failed", "count", "req")
        if bad.get("request_latency") is not None:
            r.stats("request_latency", bad["request_latency"], "failed_e2el", "ms", 1000.0)
        if bad.get("prompt_len") is not None:
            r.stats("prompt_len", bad["prompt_len"], "failed_input_sequence_length", "tok")
        n_bad = bad.get("count")
        n_ok = ok.get("count")
        if _num(n_bad) and n_bad > 0:
            messages.append(f"{source}: {n_bad:g} of {n_bad + (n_ok or 0):g} requests failed")
    delay = load.get("schedule_delay") if isinstance(load.get("schedule_delay"), dict) else {}
    late = delay.get("median", delay.get("p50"))
    if _num(late) and late > LATE_S:
        messages.append(
            f"{source}: the load generator sent requests late (median schedule delay {late:.3g} s, mean "
            f"{delay.get('mean', math.nan):.3g} s): the load the server saw is not the configured one"
        )
    streamed = [k for k in ("time_to_first_token", "time_per_output_token", "inter_token_latency") if k in r.nulls]
    if streamed:
        messages.append(
            f"{source}: {', '.join(streamed)} null (inference-perf measures them only with `streaming: true`)"
        )
    return finish(TOOL, source, r.records, r.rejects, messages, empty="no number found in the lifecycle report")


def _parse_markdown(text: str | Lines, source: str) -> Parsed:
    """llm-d-kv-cache-manager's "Inference-Perf Benchmark Report" (`inference_perf_report`): one run per
    per-QPS row, each experiment its own deployment."""
    records, rejects = inference_perf_report.read(text, run_settings(NAME, inference_perf_report.FORMAT))
    return finish(TOOL, source, records, rejects, [], empty="no per-QPS table found in the report")


def _is_prometheus(obj: dict) -> bool:
    """The Prometheus report: the server's histograms directly under `successes`, beside its `rate`."""
    ok = obj["successes"]
    return "latency" not in ok and isinstance(ok.get("request_latency"), dict) and "rate" in ok


def _parse_prometheus(obj: dict, text: str, source: str) -> Parsed:
    """inference-perf's `summary_prometheus_metrics.json` / `stage_N_prometheus_metrics.json`
    (reportgen/base.py `summarize_prometheus_metrics`): the model server's own Prometheus metrics
    over the stage's window (from its start to its end plus a scrape interval and a buffer), with
    empty `load_summary` and `failures` ("model server doesn't report failed requests").

    What each number is (client/modelserver/metrics): `count` is the increase of the server's
    request-success counter over the window (server-side completions), `rate` its per-second rate;
    a histogram's `mean` is sum / count and `median`, `p90`, `p99` are histogram_quantile
    (interpolated within the server's buckets); `prompt_len` / `output_len` are token counters whose
    `rate` is tokens per second and whose `mean` is avg_over_time of that rate, not a length per
    request (set aside). Gauges and cache counters (queue, KV cache, preemptions, prefix hits) are
    not in the serving contract. No request was counted as sent or failed: the report cannot say."""
    ok = obj["successes"]
    r = _Reader(text, source, run_settings(NAME, PROMETHEUS))
    r.at = text.find('"successes"')
    server = "server-side (the model server's Prometheus metrics over the stage's window)"
    for key, v in ok.items():
        if key == "count":
            r.scalar(key, v, "completed", "count", "req")
            r.records[-1]["note"] = server if r.records and r.records[-1]["metric"] == "completed" else None
        elif key == "rate":
            r.scalar(key, v, "request_throughput", "value", "req/s")
        elif key in ("prompt_len", "output_len") and isinstance(v, dict):
            r.line(key)
            metric = "input_throughput" if key == "prompt_len" else "output_throughput"
            for stat, x in v.items():
                if stat == "rate":
                    r.scalar(stat, x, metric, "value", "tok/s")
                elif _num(x):
                    why = "a token counter's avg_over_time of its per-second rate, not tokens per request"
                    r.rejects.append((r.line(stat), f"{key}.{stat}: {x}", why))
        elif key in LATENCY and isinstance(v, dict):
            before = len(r.records)
            r.stats(key, v, LATENCY[key], "ms", 1000.0)
            for rec in r.records[before:]:
                rec["note"] = "converted from s; " + server + ", percentiles interpolated within its histogram buckets"
        else:
            _set_aside(r, key, v)
    return finish(TOOL, source, r.records, r.rejects, [], empty="no number found in the Prometheus report")


def _set_aside(r: _Reader, key: str, v) -> None:
    """Every number of a server metric the serving contract has no place for, rejected at its line."""
    if _num(v):
        r.rejects.append((r.line(key), f"{key}: {v}", "a server metric not in the serving contract"))
    elif isinstance(v, dict):
        r.line(key)
        for stat, x in v.items():
            if _num(x):
                r.rejects.append((r.line(stat), f"{key}.{stat}: {x}", "a server metric not in the serving contract"))


def sniff(text: str | Lines) -> bool:
    if first_char(text) != "{":
        return inference_perf_report.sniff(text)
    start = head(text, 4000)
    if '"successes"' in start and '"request_latency"' in start and '"rate"' in start and '"latency"' not in start:
        return True  # the Prometheus report
    return '"successes"' in start and ('"load_summary"' in start or '"failures"' in start) and '"latency"' in start


#: A writer's cut inside a JSON block: a line of `...` alone (the rest of the object left out).
_ELLIPSIS = re.compile(r"^\s*(?:\.\.\.|…)\s*$")
_SUCCESSES = re.compile(r'^\s*"successes"\s*:\s*\{')
#: A report of no request: its `successes` count is 0 (a Prometheus report with no server to query
#: prints every metric 0).
_NOTHING = re.compile(r'"successes"\s*:\s*\{\s*"count"\s*:\s*0\s*[,}]')
NOTHING_MEASURED = (
    "an inference-perf report of no request (its `successes` count is 0, every metric 0): nothing was "
    "measured, and nothing here is read"
)
FRAGMENTS = (
    'fragments of inference-perf lifecycle reports (a `"successes": {` block closed by a `...` line): the writer '
    "cut each report short, so none holds its load and its results whole, and nothing here is read"
)


#: The first keys of a lifecycle or Prometheus report, on the line under its opening `{`.
_REPORT_KEY = re.compile(r'^\s*"(?:load_summary|successes|failures)"\s*:\s*\{')
_FENCE = re.compile(r"^\s*(?:`{3,}|~{3,})")


def _cut_short(lines: list[str]) -> tuple[int, str] | None:
    """(line, why) of a report quoted in a text (a `{` line, a report's key under it) that the copy ends
    inside: no closing fence after it and its JSON unclosed at the file's end."""
    for i, line in enumerate(lines):
        nxt = next((x for x in lines[i + 1 : i + 4] if x.strip()), "")
        if line.strip() != "{" or not _REPORT_KEY.match(nxt):
            continue
        body = []
        for x in lines[i:]:
            if _FENCE.match(x):
                break
            body.append(x)
        else:
            try:
                json.loads("\n".join(body))
            except (json.JSONDecodeError, RecursionError):
                end = i + 1 + max(k for k, x in enumerate(body) if x.strip())  # the copy's last line
                return i + 1, CUT.format(end=end)
    return None


CUT = (
    "an inference-perf report (lifecycle or Prometheus) that the copy ends inside, at line {end}: its load and "
    "results after that line are not in the file, so nothing here is read"
)


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of a text that quotes lifecycle reports in fragments (`Tool.refuses`): a
    `"successes": {` block (the report's own key) with a `...` line inside it before any line at the
    block's indent closes it, in a text that is no report itself (it does not open with `{`); one report
    the copy ends inside (`_cut_short`); or a one-line report of no request (`_NOTHING`). None else."""
    if first_char(text) == "{":
        return None
    lines = split_n(text)
    cut = _cut_short(lines)
    if cut is not None:
        return cut
    for i, line in enumerate(lines):
        if _NOTHING.search(line) and '"load_summary"' in line:
            return i + 1, NOTHING_MEASURED
    for i, line in enumerate(lines):
        if not _SUCCESSES.match(line):
            continue
        indent = len(line) - len(line.lstrip())
        for nxt in lines[i + 1 : i + 40]:
            if _ELLIPSIS.match(nxt):
                return i + 1, FRAGMENTS
            if nxt.strip() and len(nxt) - len(nxt.lstrip()) <= indent:
                break
    return None


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        refuses=refuses,
        description="kubernetes-sigs inference-perf summary_lifecycle_metrics.json / stage_N_lifecycle_metrics.json, "
        'the *_prometheus_metrics.json reports of the server\'s own metrics, and the "Inference-Perf Benchmark Report" '
        "markdown llm-d-kv-cache-manager's analysis script writes from stage files (serving contract)",
        command="inference-perf --config_file config.yml (reports: summary_lifecycle_metrics.json, "
        "stage_N_lifecycle_metrics.json)",
        metrics=METRICS,
        carries=CARRIES,
    )
)
