"""NVIDIA AIPerf `profile_export_aiperf.json` / `profile_export_aiperf.csv` and the per-request
`profile_export.jsonl`, in the serving contract of vllm-bench-serve.

* JSON: `{"records": {tag: {"tag", "unit", "header", "avg", "min", "max", "p1" ... "p99", "std",
  "count"}}, "input_config": {...}, "error_summary": [...]}` (schema 1.0-1.5; older exports put
  the metric dicts at the top level, as GenAI-Perf's `profile_export_genai_perf.json` does). A
  metric measured once per run (request throughput, duration, counts) has only `avg`; its other
  statistics are null, which are not numbers and not cells. Schema 1.1 added `count` (the records
  behind a record metric's distribution: kept as the statistic `count`) and `sum` (the sum of its
  observations, mean x count: the sums of the per-request input and output lengths are the run's
  token totals, kept as those where the export prints no total_isl / total_osl, set aside otherwise
  with the reason); 1.2-1.4 add `run_info` and `warmup_metrics`, which hold no measurement read here.
* CSV: sections separated by blank lines (CRLF in the files AIPerf writes): `Metric,avg,min,...`
  rows `Time to First Token (ms),2343.22,...`, then `Metric,Value` rows; newer exports put the unit
  in a column of its own (`Metric,Unit,avg,...`, rows named by tag: `request_latency,ms,...`).
* JSONL (`profile_export.jsonl`): one record per request, `{"metadata": {..., "credit_phase" |
  "benchmark_phase"}, "metrics": {tag: {"value", "unit"}}, "error": null | {...}}`. The table holds
  the run-level statistics computed from the profiling records as AIPerf computes its summary (a
  record with an `error`, cancelled or timed out, is a failure; warmup records are set aside);
  `requests()` returns the records one by one, for exact goodput.
* GPU telemetry in the JSON (`telemetry_data`): the GPUs' names go to `metadata` (`gpus=N x NAME`,
  which names the device a page measures against); their numbers are set aside here with the reason
  and read by `aiperf_telemetry` (the `aiperf-telemetry` tool) into the energy contract.
* The console table (`NVIDIA AIPerf | LLM Metrics`, the form most public runs are pasted in) is read
  by `aiperf_console`, with the command line beside it and AIPerf's Error Summary; its formats
  (`console`, a trace replay, a table with no command line) declare what they record too.
* Each format declares what it can record (`CARRIES`): only the JSON's `input_config` holds the
  model, concurrency and rate, so a page never calls a CSV or JSONL run uncapped. Numbers quoted with
  thousands separators (`"1,234.56"`, GenAI-Perf) are read; a section with another header is not
  read and its numbers are rejected with the reason.

Mapping to the serving contract (AIPerf's definitions): `request_latency` -> `e2el`; AIPerf's
"Inter Token Latency" is per request (latency - TTFT) / (output tokens - 1), vLLM's TPOT, so it
is `tpot`; "Inter Chunk Latency" (gaps between streamed chunks) is vLLM's `itl`;
`request_count` -> `completed`, `error_request_count` -> `failed` (0 where the JSON's `error_summary`
is an empty list and no error count is exported: AIPerf lists every failure there; 0 too where a CSV
has its Request Count row and no Error Request Count row: AIPerf computes `error_request_count` from
failed records only (`MetricFlags.ERROR_ONLY`, `MetricRecordProcessor.error_parse_funcs`), a metric
no record fed never reaches the results (`MetricResultsProcessor.process_result`), and the CSV
exporter writes a row for every result, so the row is absent exactly when none failed; AIPerf's own
`RequestErrorRateMetric` reads it with a 0 default for "a clean zero-error run"), `benchmark_duration`
-> `duration` (s), `total_isl` / `total_osl` -> `total_input_tokens` / `total_generated_tokens`,
`request_throughput`, `output_token_throughput` -> `output_throughput`. Other metrics keep AIPerf's
tag as their name. Settings: model, `--concurrency` (max_concurrency), `--request-rate`,
`--request-count` (num_prompts) from `input_config`, the command line in `metadata`.

Counting (cells_read == kept + rejected): every number of a metric's statistics is a cell. Every
percentile keeps its rank (p1, p5, p25, p75 as printed: `core.percentile`); the request timestamps (ns
since the epoch, not measurements) are rejected with the reason. A run where every request failed has no
throughput or latency to read: the parser says so (with the error summary) and keeps the counts.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd

from benchbook.ingest import aiperf_console, genai_perf, vllm_serve
from benchbook.ingest.core import Parsed, ParseError, Tool, cut_item, finish, percentile, register
from benchbook.ingest.serving_settings import SETTINGS as CONTRACT
from benchbook.ingest.serving_settings import run_settings
from benchbook.ingest.text import (
    Lines,
    contains,
    csv_blocks,
    fenced_blocks,
    first_char,
    head,
    json_object,
    only_block,
    search,
    split_n,
    whole,
)
from benchbook.nouns import counted

NAME = "aiperf"

SETTINGS = dict(CONTRACT)

#: AIPerf tag -> contract metric name (others keep their tag).
CONTRACT = {
    "request_latency": "e2el",
    "ttft": "ttft",
    "time_to_first_token": "ttft",
    "inter_token_latency": "tpot",
    "inter_chunk_latency": "itl",
    "request_count": "completed",
    "error_request_count": "failed",
    "benchmark_duration": "duration",
    "total_isl": "total_input_tokens",
    "total_osl": "total_generated_tokens",
    "request_throughput": "request_throughput",
    "output_token_throughput": "output_throughput",
}
#: AIPerf unit -> tidy unit.
UNITS = {
    "ms": "ms",
    "sec": "s",
    "s": "s",
    "ns": "ns",
    "tokens": "tok",
    "requests": "req",
    "tokens/sec": "tok/s",
    "requests/sec": "req/s",
    "tokens/sec/user": "tok/s/user",
    "per sec": "tok/s",
}
#: AIPerf statistic -> tidy statistic; its other percentiles (p1, p5, p10, p25, p75) keep their names
#: (`core.percentile`).
STATS = {
    "avg": "mean",
    "min": "min",
    "max": "max",
    "std": "std",
    "p50": "p50",
    "p90": "p90",
    "p95": "p95",
    "p99": "p99",
    "count": "count",
}
TIMESTAMPS = {"min_request_timestamp", "max_response_timestamp"}
#: Tags AIPerf defines as signed percentages: `osl_mismatch_diff_pct` is (actual OSL - requested OSL) /
#: requested OSL x 100 (`metrics/types/osl_mismatch_metrics.py`: negative = the output stopped early,
#: positive = longer than requested), so -73 % is a measurement, not a value out of a percentage's range.
SIGNED_PERCENT = {"osl_mismatch_diff_pct"}
SIGNED_PERCENT_UNIT = "signed %"
#: Schema 1.1+ `sum` (the sum of a record metric's observations): the per-request lengths' sums are
#: the run's token totals, kept as those where the export has no total_isl / total_osl of its own.
SUMS = {"input_sequence_length": "total_isl", "output_sequence_length": "total_osl"}

METRICS = {
    **{k: vllm_serve.METRICS[k] for k in ("completed", "failed", "duration", "total_input_tokens")},
    "total_generated_tokens": "tok: output tokens incl. reasoning tokens (AIPerf total_osl)",
    "request_throughput": vllm_serve.METRICS["request_throughput"],
    "output_throughput": vllm_serve.METRICS["output_throughput"],
    "ttft": vllm_serve.METRICS["ttft"],
    "tpot": "ms: AIPerf 'Inter Token Latency', per request (latency - ttft) / (output tokens - 1)",
    "itl": "ms: AIPerf 'Inter Chunk Latency', gaps between streamed chunks",
    "e2el": "ms: AIPerf 'Request Latency'",
    "ttst": "ms: time to second token",
    "input_sequence_length": "tok: prompt tokens per request",
    "output_sequence_length": "tok: output tokens per request, incl. reasoning",
    "output_token_count": "tok: non-reasoning output tokens per request",
    "reasoning_token_count": "tok: reasoning tokens per request",
    "output_token_throughput_per_user": "tok/s/user: per-request output tokens / (latency - ttft)",
    "total_output_tokens": "tok: non-reasoning output tokens of the run",
    "total_reasoning_tokens": "tok: reasoning tokens of the run",
}
ALL_FAILED = "every request failed: no throughput or latency was measured"
#: The `format` of a JSON export without `input_config` (the oldest exports): it records no setting.
JSON_BARE = "json without input_config"
#: The `format` of an export quoted in a write-up whose copy ends inside it: what it held after the cut is
#: not in the file, so it declares nothing carried (no absence is claimed).
QUOTED_CUT = "json quoted in a write-up, cut"
#: What each format can record (`Tool.carries`): the JSON export's `input_config` holds the model,
#: the concurrency, the request rate and count; the CSV and the per-request JSONL hold none of them.
_MEASURED = {
    "completed",
    "failed",
    "duration",
    "ttft",
    "tpot",
    "itl",
    "e2el",
    "request_throughput",
    "output_throughput",
    "total_input_tokens",
    "total_generated_tokens",
}
_CONSOLE = {"completed", "ttft", "tpot", "e2el", "request_throughput", "output_throughput"}
CARRIES = {
    "json": frozenset(_MEASURED | {"model", "max_concurrency", "request_rate", "num_prompts", "metadata"}),
    JSON_BARE: frozenset(_MEASURED),
    "csv": frozenset(_MEASURED),
    "jsonl": frozenset(_MEASURED),
    # the console table: no failed count (errors print in a summary of their own), no inter-chunk
    # latency or token totals (not shown by default); settings only from a command line beside it
    "console": frozenset(_CONSOLE | {"model", "max_concurrency", "request_rate", "num_prompts", "metadata"}),
    aiperf_console.TRACE: frozenset(_CONSOLE | {"model", "max_concurrency", "num_prompts", "metadata"}),
    aiperf_console.BARE: frozenset(_CONSOLE),
    # rows alone: whatever rows the paste kept, so no absence is claimed
    aiperf_console.HEADLESS: frozenset(),
    # an author's table: whatever rows the author kept (no absence claimed), the settings of the command above it
    aiperf_console.RETYPED: frozenset({"model", "max_concurrency", "request_rate", "num_prompts", "metadata"}),
    aiperf_console.RETYPED_BARE: frozenset(),
    aiperf_console.RETYPED_RUNS: frozenset(),
    QUOTED_CUT: frozenset(),
}


def _snake(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.strip().lower()).strip("_")


def _metric(tag: str, unit: str, stat: str, single: bool) -> tuple[str, str, str]:
    """(metric, statistic, unit) of one AIPerf number; `single` when the metric has only an avg."""
    metric = CONTRACT.get(tag, tag)
    u = UNITS.get(unit.strip().lower(), unit.strip() or "count")
    if tag in ("request_count", "error_request_count"):
        u = "req"
    if tag in SIGNED_PERCENT and u == "%":
        u = SIGNED_PERCENT_UNIT
    statistic = STATS.get(stat) or percentile(stat)
    if single and stat == "avg":
        statistic = "count" if u in ("req", "tok") and ("count" in tag or tag.startswith("total")) else "value"
    if stat == "count":
        u = "count"
    return metric, statistic, u


# ---------------------------------------------------------------------------------------------
# JSON


def _settings(obj: dict, run: str, fmt: str) -> dict:
    cfg = obj.get("input_config") if isinstance(obj.get("input_config"), dict) else {}
    ep = cfg.get("endpoint") if isinstance(cfg.get("endpoint"), dict) else {}
    lg = cfg.get("loadgen") if isinstance(cfg.get("loadgen"), dict) else {}
    names = ep.get("model_names") if isinstance(ep.get("model_names"), list) else []

    def num(v):
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else math.nan

    return run_settings(
        run,
        fmt,
        model=str(names[0]) if names else None,
        num_prompts=num(lg.get("request_count")),
        request_rate=num(lg.get("request_rate")),
        max_concurrency=num(lg.get("concurrency")),
        metadata="; ".join(
            ([f"cli_command={cfg['cli_command']}"] if isinstance(cfg.get("cli_command"), str) else []) + _gpus(obj)
        )
        or None,
    )


def _gpus(obj: dict) -> list[str]:
    """The GPUs AIPerf's telemetry saw (`telemetry_data.endpoints.*.gpus.*.gpu_name`), as
    `gpus=N x NAME` per distinct name: the device a page measures against, named by the file."""
    tel = obj.get("telemetry_data") if isinstance(obj.get("telemetry_data"), dict) else {}
    ends = tel.get("endpoints") if isinstance(tel.get("endpoints"), dict) else {}
    names: dict[str, int] = {}
    for ep in ends.values():
        gpus = ep.get("gpus") if isinstance(ep, dict) and isinstance(ep.get("gpus"), dict) else {}
        for g in gpus.values():
            if isinstance(g, dict) and isinstance(g.get("gpu_name"), str):
                names[g["gpu_name"]] = names.get(g["gpu_name"], 0) + 1
    return [f"gpus={n} x {name}" for name, n in names.items()]


def _json(text: str, source: str, messages: list[str], quoted: tuple[dict, tuple | None] | None = None):
    """(records, rejects, cells) of the JSON export; `quoted`: the object of an export quoted in a fenced
    block of a write-up (`_fenced`) and, where the copy ends inside it, the rejected item of its cut number."""
    what = "AIPerf profile_export_aiperf.json"
    if quoted is None:
        obj = json_object(text, source, f"not valid JSON ({what})", f"expected one JSON object ({what})")
    else:
        obj = quoted[0]
    metrics = obj.get("records") if isinstance(obj.get("records"), dict) else obj
    metrics = {k: v for k, v in metrics.items() if isinstance(v, dict) and "unit" in v and "avg" in v}
    if not metrics:
        raise ParseError(source, 1, "a JSON object without metric records (unit/avg): not an AIPerf export")
    fmt = "json" if isinstance(obj.get("input_config"), dict) else JSON_BARE
    settings = _settings(obj, "aiperf", QUOTED_CUT if quoted is not None and quoted[1] else fmt)
    records, rejects, cells = [], [], 0
    if quoted is not None and quoted[1]:
        rejects.append(quoted[1])
        cells += 1
        messages.append(
            f"{source}:{quoted[1][0]}: the copy ends inside the quoted AIPerf JSON export, at line {quoted[1][0]}: "
            "the whole numbers above it read, that one not; what the export held after it is not in the file"
        )
    for tag, m in metrics.items():
        at = text.find(f'"{tag}": {{')
        stats = [(k, v) for k, v in m.items() if k in STATS or k == "sum" or re.fullmatch(r"p\d+(\.\d+)?", k)]
        single = all(v is None for k, v in stats if k not in ("avg", "count", "sum"))
        for k, v in stats:
            if v is None:
                continue
            k_at = text.find(f'"{k}"', at)
            ln = text.count("\n", 0, max(k_at, 0)) + 1
            cells += 1
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                rejects.append((ln, f"{tag}.{k}: {v!r}"[:80], "expected a number"))
            elif tag in TIMESTAMPS:
                rejects.append((ln, f"{tag}.{k}: {v}", "a timestamp (ns since the epoch), not a measurement"))
            elif k == "sum":
                total = SUMS.get(tag)
                if total and total not in metrics:
                    note = f"the sum of {tag} over the requests (schema 1.1 `sum`)"
                    records.append(
                        {**settings, "line": ln, "metric": CONTRACT[total], "statistic": "count", "value": float(v)}
                        | {"unit": "tok", "note": note}
                    )
                else:
                    why = f"kept as {total}" if total else "not a statistic of the tidy table"
                    rejects.append((ln, f"{tag}.sum: {v}", f"the sum of the per-request values (mean x count): {why}"))
            elif k not in STATS and percentile(k) is None:
                rejects.append((ln, f"{tag}.{k}: {v}", f"{k} is not a statistic of the tidy table"))
            elif single and k == "count":
                rejects.append((ln, f"{tag}.{k}: {v}", "the sample count of a once-per-run metric (always 1)"))
            else:
                metric, stat, unit = _metric(tag, str(m.get("unit", "")), k, single)
                records.append(
                    {**settings, "line": ln, "metric": metric, "statistic": stat, "value": float(v), "unit": unit}
                )
    telemetry = _telemetry(obj, text)
    if telemetry:
        cells += len(telemetry)
        rejects.extend(telemetry)
        messages.append(
            f"{source}: {counted(len(telemetry), 'GPU telemetry number')} (power, utilisation, memory, temperature) set aside: "
            "the serving contract has no column for them (the `aiperf-telemetry` tool reads the power and energy into "
            "the energy contract); the GPU's name is kept in `metadata`"
        )
    _failures(obj, metrics, source, messages)
    if obj.get("was_cancelled") is True:
        messages.append(_cancelled(obj, text, source))
    if obj.get("error_summary") == [] and "error_request_count" not in metrics:
        # AIPerf lists every failed or cancelled request in `error_summary` (by error type) and exports
        # `error_request_count` only when there is one: an empty list is the file saying none failed.
        cells += 1
        ln = text.count("\n", 0, max(text.find('"error_summary"'), 0)) + 1
        note = "error_summary is empty and no error_request_count is exported: no request failed"
        records.append({**settings, "line": ln, "metric": "failed", "statistic": "count", "value": 0.0, "unit": "req"})
        records[-1]["note"] = note
    return records, rejects, cells


def _cancelled(obj: dict, text: str, source: str) -> str:
    """The note of a run AIPerf cancelled (`was_cancelled: true`: stopped before its end, by the user or by
    `--failed-request-threshold`), with its measured duration beside the `--benchmark-duration` it asked for:
    its numbers are of the part it ran."""
    ln = text.count("\n", 0, max(text.find('"was_cancelled"'), 0)) + 1
    ran = obj.get("benchmark_duration", {}).get("avg") if isinstance(obj.get("benchmark_duration"), dict) else None
    cfg = obj.get("input_config") if isinstance(obj.get("input_config"), dict) else {}
    asked = (cfg.get("loadgen") or {}).get("benchmark_duration") if isinstance(cfg.get("loadgen"), dict) else None
    span = ""
    if isinstance(ran, (int, float)) and isinstance(asked, (int, float)) and asked > 0:
        span = f" after {ran:.0f} s of the {asked:g} s it was asked to run (--benchmark-duration)"
    return f"{source}:{ln}: AIPerf cancelled this run (was_cancelled: true){span}: its numbers are of the part it ran"


#: AIPerf's request count as its export writes it: RequestCountMetric's unit is `requests` (GenAI-Perf's
#: top-level export, otherwise alike, writes `count`).
_AIPERF_COUNT = re.compile(r'"request_count":\s*\{\s*(?:"tag":\s*"request_count",\s*)?"unit":\s*"requests"')
#: One whole member of a JSON object on its line (`"p99": 6.5,`): followed by a comma, so not cut.
_MEMBER = re.compile(r'^\s*"(\w+)":\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|null|"[^"\\]*")\s*,\s*$')


def _is_aiperf_json(body: str) -> bool:
    """A JSON object that is AIPerf's export: its schema's markers, or top-level metric dicts with
    AIPerf's request count unit (GenAI-Perf's alike export writes `count`)."""
    start = body[:20000]
    if not ('"unit"' in start and '"avg"' in start):
        return False
    markers = ('"records"', '"aiperf_version"', '"schema_version"')
    return any(k in start for k in markers) or bool(_AIPERF_COUNT.search(start))


def _salvage(lines: list[str], lo: int, hi: int) -> tuple[dict, tuple[int, str, str] | None]:
    """The object of a top-level JSON export whose copy ends at line `hi` (exclusive, 0-based), from
    its `{` at line `lo`: each top-level member decoded whole, the last one's whole members (each
    followed by a comma) kept; the rejected item of the line the copy ends on, cut short."""
    text = "\n".join(lines[lo:hi])
    dec = json.JSONDecoder()
    obj: dict = {}
    key = re.compile(r'\s*"(\w+)"\s*:\s*')
    at = text.index("{") + 1
    while True:
        m = key.match(text, at)
        if not m:
            break
        try:
            value, end = dec.raw_decode(text, m.end())
        except json.JSONDecodeError:
            part: dict = {}
            for line in text[m.end() :].split("\n")[1:]:
                if mm := _MEMBER.match(line):
                    part[mm.group(1)] = json.loads(mm.group(2))
            obj[m.group(1)] = part
            break
        obj[m.group(1)] = value
        at = end + (1 if text[end : end + 1] == "," else 0)
    last = max(i for i in range(lo, hi) if lines[i].strip())
    return obj, cut_item(last, lines[last])


def _fenced(text: str) -> tuple[str, dict, tuple[int, str, str] | None] | None:
    """The first fenced block of a write-up that quotes AIPerf's JSON export (`_is_aiperf_json`): the text
    with every other line blanked (each keeps its number), its object, and where the copy ends inside the
    block (its fence never closed, the file's last line inside it), the rejected item of the cut line;
    None where no block quotes one."""
    lines = text.split("\n")
    for opened, closed, body in fenced_blocks(lines):
        quoted = "\n".join(body)
        if quoted.lstrip().startswith("{") and _is_aiperf_json(quoted):
            kept = only_block(lines, opened, closed, lines[opened + 1 : closed])
            try:
                return kept, json.loads(quoted), None
            except json.JSONDecodeError:
                if closed < len(lines):  # closed and still not JSON: not an export
                    continue
                obj, cut = _salvage(lines, opened + 1, closed)
                return kept, obj, cut
    return None


def _telemetry(obj: dict, text: str) -> list[tuple[int, str, str]]:
    """Every number of `telemetry_data` (per GPU, per metric, per statistic) as a rejected cell,
    each at its line (found in the file's order)."""
    tel = obj.get("telemetry_data") if isinstance(obj.get("telemetry_data"), dict) else {}
    ends = tel.get("endpoints") if isinstance(tel.get("endpoints"), dict) else {}
    out, at = [], max(text.find('"telemetry_data"'), 0)
    for ep in ends.values():
        gpus = ep.get("gpus") if isinstance(ep, dict) and isinstance(ep.get("gpus"), dict) else {}
        for gid, g in gpus.items():
            ms = g.get("metrics") if isinstance(g, dict) and isinstance(g.get("metrics"), dict) else {}
            for name, m in ms.items():
                at = max(text.find(f'"{name}"', at), at)
                for k, v in m.items() if isinstance(m, dict) else []:
                    if isinstance(v, (int, float)) and not isinstance(v, bool):
                        at = max(text.find(f'"{k}"', at), at)
                        out.append(
                            (
                                text.count("\n", 0, at) + 1,
                                f"{gid}.{name}.{k}: {v}",
                                "GPU telemetry, not a serving metric",
                            )
                        )
    return out


def _failures(obj: dict, metrics: dict, source: str, messages: list[str]) -> None:
    completed = (metrics.get("request_count") or {}).get("avg")
    failed = (metrics.get("error_request_count") or {}).get("avg")
    summary = obj.get("error_summary") if isinstance(obj.get("error_summary"), list) else []
    kinds = [
        f"{e.get('count')} x {(e.get('error_details') or {}).get('type')}"
        for e in summary
        if isinstance(e, dict) and isinstance(e.get("error_details"), dict)
    ]
    if failed and not completed:
        messages.append(f"{source}: {ALL_FAILED} ({failed:g} failed" + (f": {', '.join(kinds)})" if kinds else ")"))
    elif failed:
        why = f" ({', '.join(kinds)})" if kinds else ""
        messages.append(f"{source}: {failed:g} of {failed + (completed or 0):g} requests failed{why}")


# ---------------------------------------------------------------------------------------------
# CSV

_HEADER_UNIT = re.compile(r"^(?P<name>.*?)\s*\((?P<unit>[^()]*)\)\s*$")
#: CSV header (AIPerf and GenAI-Perf spellings) -> AIPerf tag, where the snake case differs.
CSV_TAGS = {
    "time_to_first_token": "ttft",
    "time_to_second_token": "ttst",
    "total_input_sequence_length": "total_isl",
    "total_output_sequence_length": "total_osl",
    "output_token_throughput_per_request": "output_token_throughput_per_user",
    "osl_mismatch_diff": "osl_mismatch_diff_pct",  # the CSV's `OSL Mismatch Diff % (%)`
}


#: The head of the CSV's GPU telemetry section, and what that header with no row under it means:
#: AIPerf's exporter writes the header once telemetry is set up and a row only per GPU sampled.
TELEMETRY_HEADER = ["Endpoint", "GPU_Index", "GPU_Name", "GPU_UUID", "Metric"]
EMPTY_TELEMETRY = "AIPerf's GPU telemetry section has its header and no rows: no GPU was sampled, so no power or energy"


def _csv_number(cell: str) -> float | None:
    t = cell.strip().replace(",", "")
    try:
        return float(t)
    except ValueError:
        return None


def _csv(text: str, source: str, messages: list[str]):
    lines = text.split("\n")
    settings = _settings({}, "aiperf", "csv")
    records, rejects, cells = [], [], 0
    metrics: dict[str, dict] = {}
    for start, rows in csv_blocks(lines, source):
        header = [h.strip() for h in rows[0]]
        # newer exports name the unit in a column of its own (`Metric,Unit,avg,...`, the metric by its tag)
        first = 2 if header[1:2] == ["Unit"] else 1
        known = header[0] == "Metric" and (
            header[first:] == ["Value"]
            or all(h in STATS or h == "sum" or re.fullmatch(r"p\d+", h) for h in header[first:])
        )
        if header[:5] == TELEMETRY_HEADER and len(rows) == 1:
            messages.append(f"{source}:{start + 1}: {EMPTY_TELEMETRY}")
        for r_i, row in enumerate(rows[1:], start=start + 2):
            nums = [(h, c) for h, c in zip(header[first:], row[first:], strict=False) if c.strip() not in ("", "N/A")]
            if not known:
                for h, c in nums:
                    if _csv_number(c) is not None:
                        cells += 1
                        rejects.append(
                            (
                                r_i,
                                f"{row[0]} {h}: {c}",
                                f"table not read (line {start + 1}): columns {', '.join(header)}",
                            )
                        )
                continue
            m = _HEADER_UNIT.match(row[0])
            name, unit = (m.group("name"), m.group("unit")) if m else (row[0], "")
            if first == 2:
                unit = row[1] if len(row) > 1 else ""
            tag = _snake(name)
            tag = CSV_TAGS.get(tag, tag)
            stats = {("avg" if h == "Value" else h): c for h, c in nums}
            single = header[first:] == ["Value"] or (first == 2 and list(stats) == ["avg"])
            metrics[tag] = {"avg": _csv_number(stats.get("avg", "")), "line": r_i}
            for k, c in stats.items():
                cells += 1
                v = _csv_number(c)
                if v is None:
                    rejects.append((r_i, f"{row[0]} {k}: {c}"[:80], "expected a number"))
                elif tag in TIMESTAMPS:
                    rejects.append((r_i, f"{row[0]}: {c}", "a timestamp (ns since the epoch), not a measurement"))
                elif k == "sum":
                    rejects.append((r_i, f"{row[0]} sum: {c}", "the sum of the per-request values (mean x count)"))
                elif k not in STATS and percentile(k) is None:
                    rejects.append((r_i, f"{row[0]} {k}: {c}", f"{k} is not a statistic of the tidy table"))
                else:
                    metric, stat, u = _metric(tag, unit, k, single)
                    records.append(
                        {**settings, "line": r_i, "metric": metric, "statistic": stat, "value": v, "unit": u}
                    )
    _failures({}, metrics, source, messages)
    if "request_count" in metrics and "error_request_count" not in metrics:
        # AIPerf writes an Error Request Count row only when a request failed (see the module's rule)
        cells += 1
        ln = metrics["request_count"]["line"]
        note = "Request Count is exported and Error Request Count is not: AIPerf writes that row only when a request failed"
        records.append({**settings, "line": ln, "metric": "failed", "statistic": "count", "value": 0.0, "unit": "req"})
        records[-1]["note"] = note
    return records, rejects, cells


# ---------------------------------------------------------------------------------------------
# JSONL: one request per line (profile_export.jsonl)

#: Statistics computed from per-request values (AIPerf's own set, less p1/p5/p25/p75).
_ROW_STATS = {"mean": np.mean, "min": np.min, "max": np.max, "std": np.std}
_ROW_PCTS = {"p50": 50, "p90": 90, "p95": 95, "p99": 99}
#: Per-request tags that are not measurements of the request (counts of 1, timestamps).
_ROW_SKIP = {"request_count", "error_request_count", *TIMESTAMPS}


def _is_jsonl(text: str | Lines) -> bool:
    """A per-request export: its first line a record with `metadata` and `metrics` objects."""
    first = next((s for line in split_n(text) if (s := line.strip())), "")
    return first.startswith("{") and '"metadata":' in first and '"metrics":' in first


def _rows(text: str, source: str) -> list[tuple[int, dict]]:
    """(line, record) of every non-blank line, each one JSON object."""
    out = []
    for i, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise ParseError(
                source, i, "not a JSON object (AIPerf profile_export.jsonl: one record per line)"
            ) from None
        if not isinstance(obj, dict) or not isinstance(obj.get("metrics"), dict):
            raise ParseError(source, i, "expected a record with a 'metrics' object (AIPerf profile_export.jsonl)")
        out.append((i, obj))
    return out


def _phase(obj: dict) -> str:
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    return str(meta.get("credit_phase") or meta.get("benchmark_phase") or "profiling")


def _value(m) -> float | None:
    v = m.get("value") if isinstance(m, dict) else None
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _span(obj: dict) -> tuple[float | None, float | None]:
    """(send, last response) of a record in ns: the timestamp metrics, or (newer exports) the
    metadata's request_start_ns / request_end_ns."""
    m = obj["metrics"]
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    start = _value(m.get("min_request_timestamp"))
    end = _value(m.get("max_response_timestamp"))
    if start is None and isinstance(meta.get("request_start_ns"), int):
        start = float(meta["request_start_ns"])
    if end is None and isinstance(meta.get("request_end_ns"), int):
        end = float(meta["request_end_ns"])
    return start, end


def requests(path) -> pd.DataFrame:
    """One row per profiling request of an AIPerf `profile_export.jsonl`, in the columns of
    `vllm_serve.REQUEST_COLUMNS`: `success` is a record without `error` (a cancelled or timed-out
    request is a failure), `tpot_ms` is AIPerf's per-request Inter Token Latency ((latency - TTFT) /
    (output tokens - 1)), `duration_s` the run's (last response - first request, AIPerf's benchmark
    duration over the requests the file holds). Empty for a file that is not a per-request export."""
    from benchbook import config
    from benchbook.ingest import _load_text

    p = config.resolve(path)
    text = _load_text(p).replace("\r\n", "\n")
    if not _is_jsonl(text):
        return pd.DataFrame(columns=vllm_serve.REQUEST_COLUMNS)
    rows = [obj for _, obj in _rows(text, p.name) if _phase(obj) == "profiling"]
    out = []
    for k, obj in enumerate(rows):
        m = obj["metrics"]
        icl = (m.get("inter_chunk_latency") or {}).get("value")
        icl = icl if isinstance(icl, list) else []
        out.append(
            {
                "request": k,
                "success": obj.get("error") is None,
                "input_len": _value(m.get("input_sequence_length")),
                "output_len": _value(m.get("output_sequence_length")),
                "ttft_ms": _value(m.get("ttft") or m.get("time_to_first_token")),
                "e2el_ms": _value(m.get("request_latency")),
                "tpot_ms": _value(m.get("inter_token_latency")),
                "n_chunks": float(len(icl)) if icl else math.nan,
                "itl_mean_ms": float(np.mean(icl)) if icl else math.nan,
                "start_ns": _span(obj)[0],
                "end_ns": _span(obj)[1],
            }
        )
    df = pd.DataFrame(out)
    if df.empty:
        return pd.DataFrame(columns=vllm_serve.REQUEST_COLUMNS)
    df = df.astype({c: float for c in df.columns if c not in ("request", "success")})
    first, last = df["start_ns"].min(), df["end_ns"].max()
    df["start_time_s"] = (df["start_ns"] - first) / 1e9
    df["duration_s"] = (last - first) / 1e9
    df["queue_time_ms"] = math.nan
    df["source"], df["run"] = vllm_serve.source_name(p), "aiperf"
    # a request with one output token has no TPOT: 0, as vLLM's goodput rule counts it
    df.loc[df["success"] & df["tpot_ms"].isna() & (df["output_len"] == 1), "tpot_ms"] = 0.0
    return df[vllm_serve.REQUEST_COLUMNS]


def _jsonl(text: str, source: str, messages: list[str]):
    """Run-level statistics of the per-request records (the tidy table holds runs, not requests:
    `requests()` reads them one by one). Computed as AIPerf computes its own summary: each metric
    over the successful profiling requests, inter-chunk gaps pooled, the duration from the first
    request's send to the last response, throughput = completed (or output tokens) / duration."""
    rows = _rows(text, source)
    warm = [ln for ln, obj in rows if _phase(obj) != "profiling"]
    rows = [(ln, obj) for ln, obj in rows if _phase(obj) == "profiling"]
    ok = [(ln, obj) for ln, obj in rows if obj.get("error") is None]
    bad = [(ln, obj) for ln, obj in rows if obj.get("error") is not None]
    settings = _settings({}, "aiperf", "jsonl")
    records: list[dict] = []
    rejects: list[tuple[int, str, str]] = []
    first_line = rows[0][0] if rows else 1

    def keep(metric, stat, value, unit, note=None, line=first_line):
        records.append(
            {**settings, "line": line, "metric": metric, "statistic": stat, "value": value, "unit": unit, "note": note}
        )

    keep("completed", "count", float(len(ok)), "req", "records without an error")
    keep("failed", "count", float(len(bad)), "req", "records with an error (cancelled and timed-out requests included)")
    values: dict[str, list[float]] = {}
    units: dict[str, str] = {}
    for ln, obj in ok:
        for tag, m in obj["metrics"].items():
            if not isinstance(m, dict):
                continue
            v = m.get("value")
            if tag == "inter_chunk_latency" and isinstance(v, list):
                values.setdefault(tag, []).extend(float(x) for x in v if isinstance(x, (int, float)))
            elif tag not in _ROW_SKIP and _value(m) is not None:
                values.setdefault(tag, []).append(_value(m))
            elif tag not in _ROW_SKIP and v is not None and tag != "inter_chunk_latency":
                rejects.append((ln, f"{tag}: {v!r}"[:80], "expected a number"))
            units.setdefault(tag, str(m.get("unit", "")))
    n = len(ok)
    for tag, vs in values.items():
        arr = np.asarray(vs, dtype=float)
        metric, _, unit = _metric(tag, units[tag], "avg", False)
        what = "pooled gaps" if tag == "inter_chunk_latency" else "requests"
        note = f"computed from {len(arr)} {what} ({n} successful requests)"
        for stat, f in _ROW_STATS.items():
            keep(metric, STATS["avg"] if stat == "mean" else stat, float(f(arr)), unit, note)
        for stat, q in _ROW_PCTS.items():
            keep(metric, stat, float(np.percentile(arr, q)), unit, note)
    spans = [_span(o) for _, o in rows]
    starts, ends = [a for a, _ in spans], [b for _, b in spans]
    starts, ends = [x for x in starts if x is not None], [x for x in ends if x is not None]
    if starts and ends and max(ends) > min(starts):
        duration = (max(ends) - min(starts)) / 1e9
        how = "last response - first request timestamp"
        keep("duration", "value", duration, "s", how)
        keep("request_throughput", "value", n / duration, "req/s", f"completed / duration ({how})")
        if "output_sequence_length" in values:
            total = float(np.sum(values["output_sequence_length"]))
            keep("total_generated_tokens", "count", total, "tok", "sum over successful requests")
            keep("output_throughput", "value", total / duration, "tok/s", f"output tokens / duration ({how})")
        if "input_sequence_length" in values:
            keep("total_input_tokens", "count", float(np.sum(values["input_sequence_length"])), "tok")
    kinds: dict[str, int] = {}
    for _, obj in bad:
        e = obj.get("error") if isinstance(obj.get("error"), dict) else {}
        kind = f"{e.get('code', '?')} {e.get('type', 'error')}"
        kinds[kind] = kinds.get(kind, 0) + 1
    said = ", ".join(f"{c} x {k}" for k, c in kinds.items())
    messages.append(
        f"{source}: {len(rows)} per-request records ({len(ok)} completed, {len(bad)} failed"
        + (f": {said}" if said else "")
        + "); the table holds their run-level statistics, `benchbook.ingest.aiperf.requests()` the rows"
    )
    if warm:
        messages.append(
            f"{source}: {counted(len(warm), 'warmup record')} (first at line {warm[0]}) {'is' if len(warm) == 1 else 'are'} not part of the run"
        )
        rejects.extend((ln, "warmup request", "a warmup request, not measured") for ln in warm)
    if bad and not ok:
        messages.append(f"{source}: {ALL_FAILED}")
    return records, rejects, len(records) + len(rejects)


# ---------------------------------------------------------------------------------------------
# the Tool


#: The header of an author's Markdown table of an AIPerf run (`| Metric | avg | p50 | p99 |`).
_METRIC_HEADER = re.compile(r"^\s*\|\s*Metric\s*\|", re.M | re.I)
_LOAD_HEADER = re.compile(r"^\s*\|\s*(?:concurrency|request[ _]rate)\s*\|", re.M | re.I)


def _is_json(text: str | Lines) -> bool:
    return first_char(text) == "{"


def sniff(text: str | Lines) -> bool:
    if search(aiperf_console.TITLE_RE, text) and contains(aiperf_console.BOX_HEAD, text):
        return True
    if contains(aiperf_console.BOX_ROW, text) and aiperf_console.is_headless(whole(text)):
        return True
    if (search(_METRIC_HEADER, text) or search(_LOAD_HEADER, text)) and aiperf_console.is_retyped(whole(text)):
        return True
    if genai_perf.is_json_export(text) or genai_perf.is_csv_export(text):  # GenAI-Perf's, read by genai-perf
        return False
    if _is_jsonl(text):
        start = head(text, 20000)
        return '"credit_phase"' in start or '"benchmark_phase"' in start or '"error_request_count"' in start
    if not _is_json(text) and contains("```", text) and contains('"request_count"', text):
        return _fenced(whole(text)) is not None
    if _is_json(text):
        start = head(text, 20000)
        return (
            '"unit"' in start
            and '"avg"' in start
            and (
                '"ttft"' in start
                or '"request_latency"' in start
                or '"time_to_first_token"' in start
                # a run where every request failed: its only metric is the error count
                or ('"error_request_count"' in start and ('"input_config"' in start or '"error_summary"' in start))
            )
        )
    first = next((s for line in split_n(text) if (s := line.strip())), "")
    return first.startswith("Metric,") and any(
        contains(k, text)
        for k in (
            "Time to First Token",
            "Request Latency",
            "Time To First Token",
            "request_latency,",
            "time_to_first_token,",
        )
    )


def parse(text: str | Lines, source: str) -> Parsed:
    text = whole(text).replace("\r\n", "\n").replace("\r", "\n")  # a JSON document or a small CSV
    messages: list[str] = []
    if aiperf_console.is_console(text):
        records, rejects, cells = aiperf_console.parse(text, source, messages)
    elif aiperf_console.is_headless(text):
        records, rejects, cells = aiperf_console.parse_headless(text, source, messages)
    elif aiperf_console.is_retyped(text):
        records, rejects, cells = aiperf_console.parse_retyped(text, source, messages)
    elif _is_jsonl(text):
        records, rejects, cells = _jsonl(text, source, messages)
    elif _is_json(text):
        records, rejects, cells = _json(text, source, messages)
    elif text.lstrip().startswith("Metric,"):
        records, rejects, cells = _csv(text, source, messages)
    elif (quoted := _fenced(text)) is not None:
        text, obj, cut = quoted
        records, rejects, cells = _json(text, source, messages, (obj, cut))
    else:
        raise ParseError(
            source,
            1,
            "neither an AIPerf JSON export, a CSV starting with 'Metric,' nor an 'NVIDIA AIPerf | LLM Metrics' table",
        )
    if not records and not rejects:
        raise ParseError(source, 1, "no AIPerf metric found")
    return finish(TOOL, source, records, rejects, messages, cells)


#: A summary another program wrote from an AIPerf run in vLLM bench serve's key names (tt-inference-server's
#: `"backend": "aiperf"` records): AIPerf's own export keys each metric as a dict (`"time_to_first_token":
#: {"unit": "ms", "avg": ...}`), vLLM's result holds a `duration`.
_WRAPPED = re.compile(r'^\s*"backend":\s*"aiperf"\s*,?\s*$')


def _wrapped(text: str) -> tuple[int, str] | None:
    """(line, why) of a JSON object in vLLM bench serve's key names with `"backend": "aiperf"` and no
    `duration`, else None."""
    lines = text.split("\n")
    for i, raw in enumerate(lines):
        if not _WRAPPED.match(raw):
            continue
        start = next((k for k in range(i, -1, -1) if lines[k].strip() == "{"), i)
        end = next((k for k in range(i, len(lines)) if lines[k].strip().startswith("}")), len(lines) - 1)
        body = "\n".join(lines[start : end + 1])
        if '"mean_ttft_ms"' in body and '"duration"' not in body:
            return start + 1, (
                'a result JSON another program wrote from an AIPerf run ("backend": "aiperf" at line '
                f"{i + 1}, in vLLM bench serve's key names such as mean_ttft_ms, without a duration): neither "
                "AIPerf's own export nor vLLM's result; not read"
            )
    return None


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        refuses=lambda text: aiperf_console.refuses(whole(text)) or _wrapped(whole(text)),
        description="NVIDIA AIPerf profile_export_aiperf.json / .csv, per-request profile_export.jsonl and the "
        "console table 'NVIDIA AIPerf | LLM Metrics' (serving contract)",
        command="aiperf profile --model MODEL --url URL --concurrency N (artifacts/.../profile_export_aiperf.json, .csv)",
        metrics=METRICS,
        carries=CARRIES,
    )
)
