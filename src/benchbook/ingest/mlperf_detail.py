"""MLPerf LoadGen's `mlperf_log_detail.txt`, read into the summary's tidy names (`mlperf` finishes it).

LoadGen writes one `:::MLLOG {json}` line per key (loadgen/logging.cc): the build (`loadgen_version`), the
settings it ran with (`effective_*`: scenario, mode, target QPS, samples per query, latency limit and
percentile), then the results its summary is printed from (`PerformanceSummary::LogDetail`,
loadgen/results.cc): `result_validity` and the checks (`result_*_met`), the rates, the latencies in ns
(`result_{min,max,mean}_latency_ns`, `result_<P>_percentile_latency_ns`; `first_token` and
`time_to_output_token` / `time_per_output_token` rows for the LLMs) and `num_errors`.

Every number of a `result_*` key, of `num_errors` and in the early-stopping text is a cell: kept under the
summary's name or set aside with the reason (the rate without LoadGen's overhead is 1 / mean latency; the
over-latency count counts queries over a `target_latency` a stream or LLM run leaves 0; the token rates the
summary does not print). The `effective_*` keys are the run's configuration, read as settings, not cells,
and so are an LLM run's TTFT and TPOT limits, which LoadGen logs as `requested_server_ttft_latency` and
`requested_server_tpot_latency` only (`TOKEN_LIMITS`). A
query is one sample in the Server and SingleStream scenarios, so `result_query_count` is their requests
completed; an Offline query holds every sample and a MultiStream one `samples_per_query`, so theirs is not.
"""

from __future__ import annotations

import json
import math
import re

from benchbook.ingest.core import NUMBER, ParseError, percentile
from benchbook.ingest.text import Lines, head, split_n

NS_NOTE = "LoadGen logged ns; converted to ms"
#: A detail log's line: LoadGen's prefix, then one JSON object.
LINE_RE = re.compile(r"^:::MLLOG (\{.*\})\s*$")
#: The opening keys LoadGen writes first (loadgen/version.cc), found near the top.
SNIFF_RE = re.compile(r'^:::MLLOG \{"key": "loadgen_version"', re.MULTILINE)

RATES = {
    "result_completed_samples_per_sec": ("request_throughput", "req/s"),
    "result_samples_per_second": ("request_throughput", "req/s"),
    "result_qps_with_loadgen_overhead": ("request_throughput", "req/s"),
    "result_scheduled_samples_per_sec": ("scheduled_request_rate", "req/s"),
    "result_completed_tokens_per_second": ("output_throughput", "tok/s"),
    "result_tokens_per_second": ("output_throughput", "tok/s"),
}
#: result_<kind><stat>: the latency rows, in ns, and the tidy metric each is.
LATENCY_RE = re.compile(
    r"^result_(?P<kind>first_token_|time_to_output_token_|time_per_output_token_)?"
    r"(?:(?P<word>min|max|mean)(?:_latency)?|(?P<p>\d+(?:\.\d+)?)_percentile(?:_latency)?)(?:_ns)?$"
)
KINDS = {None: "e2el", "first_token_": "ttft", "time_to_output_token_": "tpot", "time_per_output_token_": "tpot"}
SET_ASIDE = {
    "result_qps_without_loadgen_overhead": "1 / the mean latency (LoadGen's stream scenarios), a latency restated, not a rate",
    "result_overlatency_query_count": "queries over a target_latency that a stream or LLM run sets to 0, so every query is counted",
    "result_token_throughput": "a token rate the summary does not print (its unit not stated)",
    "result_token_throughput_with_loadgen_overhead": "a token rate the summary does not print",
}
#: An LLM run's TTFT and TPOT limits (ns), logged among the requested settings only (the summary prints
#: them as `ttft_latency (ns)` and `tpot_latency (ns)`); read where `requested_use_token_latencies` is
#: true, as NVIDIA's harness reads them against the p99s (LoadgenLogReader, `latency_usage_ttft`).
TOKEN_LIMITS = {"requested_server_ttft_latency": "ttft_limit_ms", "requested_server_tpot_latency": "tpot_limit_ms"}
CHECKS = {
    "result_perf_constraints_met": "Performance constraints satisfied",
    "result_min_duration_met": "Min duration satisfied",
    "result_min_queries_met": "Min queries satisfied",
    "early_stopping_met": "Early stopping satisfied",
}


def sniff(text: str | Lines) -> bool:
    return bool(SNIFF_RE.search(head(text, 4000)))


def read(text: str | Lines, source: str) -> tuple[list[dict], list[tuple[int, str, str]], list[str]]:
    """The records (each with the run's settings), the numbers set aside and the messages, for `mlperf`
    to finish as its own."""
    lines = split_n(text)
    entries = []
    for i, line in enumerate(lines):
        m = LINE_RE.match(line.strip())
        if not m:
            continue
        try:
            e = json.loads(m.group(1))
        except json.JSONDecodeError:
            if i == len(lines) - 1 or not any(s.strip() for s in lines[i + 1 :]):
                break  # a copy cut inside its last line
            raise ParseError(source, i + 1, "a ':::MLLOG' line that is not one JSON object") from None
        if isinstance(e, dict) and isinstance(e.get("key"), str):
            entries.append((i + 1, e["key"], e.get("value")))
    if not entries:
        raise ParseError(source, 1, "no ':::MLLOG' line: not a LoadGen mlperf_log_detail.txt")
    settings = {k: None for k in ("run", "scenario", "mode", "sut", "model", "result", "checks")}
    settings.update(run="detail log", loadgen_file="detail log", target_qps=math.nan, parameters_line=math.nan)
    settings.update(errors_logged=math.nan, sut_line=math.nan)
    settings.update(errors_line=math.nan, samples_per_query=math.nan, result_percentile=math.nan)
    settings.update(dict.fromkeys(("latency_limit_ms", "ttft_limit_ms", "tpot_limit_ms"), math.nan))
    records, rejects, checks, messages = [], [], [], []
    percentile = math.nan
    token_limits, use_token_latencies = {}, False
    for ln, key, value in entries:
        if key == "effective_scenario":
            settings["scenario"] = str(value)
        elif key == "effective_test_mode":
            settings["mode"] = str(value)
        elif key == "sut_name":
            settings.update(sut=str(value), sut_line=float(ln))
        elif key == "result_validity":
            settings["result"] = str(value)
        elif key == "effective_target_qps":
            settings["target_qps"] = float(value)
        elif key == "effective_samples_per_query":
            settings["samples_per_query"] = float(value)
        elif key == "effective_target_latency_ns" and float(value) > 0:  # 0: the scenario has no such limit
            settings["latency_limit_ms"] = float(value) / 1e6
        elif key == "effective_target_latency_percentile":
            percentile = 100 * float(value)
        elif key == "requested_use_token_latencies":
            use_token_latencies = value is True
        elif key in TOKEN_LIMITS and isinstance(value, (int, float)) and value > 0:
            token_limits[TOKEN_LIMITS[key]] = float(value) / 1e6
        elif key in CHECKS:
            checks.append(f"{CHECKS[key]}={'Yes' if value else 'NO'}")
        elif key == "num_errors":
            settings.update(errors_logged=float(value), errors_line=float(ln))
            if value:
                messages.append(f"{source}:{ln}: LoadGen logged {value} errors")
        elif key.startswith("early_stopping") and isinstance(value, str):
            checks.append(value.strip())
            for x in re.findall(rf"(?<![\w.]){NUMBER}(?![\w.])", value):
                rejects.append(
                    (ln, f"{key}: {value.strip()[:60]}", f"early-stopping note ({x}), not a tidy measurement")
                )
        elif key.startswith("result_") and isinstance(value, (int, float)) and not isinstance(value, bool):
            records.extend(_result(ln, key, float(value), rejects))
    if use_token_latencies:
        settings.update(token_limits)
    if settings["scenario"] is None or not (records or rejects):
        raise ParseError(source, 1, "a LoadGen detail log without an effective_scenario or any result")
    if settings["scenario"] in ("SingleStream", "MultiStream") and math.isfinite(percentile):
        settings["result_percentile"] = percentile  # the stream scenarios' result (loadgen/test_settings.h)
    settings["checks"] = "; ".join(checks) or None
    if settings["scenario"] not in ("Server", "SingleStream"):  # a query is not one sample there
        records = [r for r in records if r["metric"] != "completed"]
    if settings["result"] and settings["result"] != "VALID":
        messages.append(f"{source}: LoadGen marked the run {settings['result']} ({settings['checks']})")
    return [{**settings, **r} for r in records], rejects, messages


def _result(ln: int, key: str, value: float, rejects: list) -> list[dict]:
    """The tidy record of one numeric `result_*` key, or none with the reason set aside."""
    text = f"{key}: {value:g}"
    if key in RATES:
        metric, unit = RATES[key]
        return [dict(line=ln, metric=metric, statistic="value", value=value, unit=unit, note=None)]
    if key == "result_query_count":
        return [dict(line=ln, metric="completed", statistic="value", value=value, unit="req", note="queries")]
    if key in SET_ASIDE:
        rejects.append((ln, text, SET_ASIDE[key]))
        return []
    m = LATENCY_RE.match(key)
    if m is None:
        rejects.append((ln, text, "a LoadGen result this parser has no tidy name for"))
        return []
    stat = m["word"] or percentile(m["p"])
    if stat is None:
        rejects.append((ln, text, f"percentile P{m['p']} is no rank between 0 and 100"))
        return []
    return [dict(line=ln, metric=KINDS[m["kind"]], statistic=stat, value=value / 1e6, unit="ms", note=NS_NOTE)]
