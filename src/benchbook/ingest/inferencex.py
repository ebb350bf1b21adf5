"""SemiAnalysis InferenceX (formerly InferenceMAX) result JSONs, in the serving contract of
vllm-bench-serve.

Three shapes, all written by the project's `utils/` scripts (SemiAnalysisAI/InferenceX):

* **a point** (`agg_<name>.json`, `utils/process_result.py`): one fixed-sequence-length benchmark
  point, reduced from the benchmark client's result. Its settings come from the job's environment
  (`hw` is the runner type, `tp`, `ep`, `dp_attention`, `framework`, `precision`, `spec_decoding`,
  `isl`, `osl`, multinode prefill/decode workers); `conc` is the client's max concurrency. Every
  latency is the client's `<stat>_<name>_ms` divided by 1000 (seconds); `<stat>_intvty` is
  1000 / `<stat>_tpot_ms` (so `p99_intvty` is the speed of the p99 TPOT, and `std_intvty` is 1000 /
  the TPOT's standard deviation: neither is a statistic of per-user speed). Throughput is per GPU:
  single node, `tput_per_gpu` = total token throughput / TP (`output_`, `input_` likewise);
  multinode, total / (prefill + decode GPUs), output / decode GPUs, input / prefill GPUs.
* **an aggregate** (`agg_<exp>.json`, `utils/collect_results.py`): a JSON list of such points (any
  hardware x framework x TP x concurrency).
* **an agentic point** (`scenario_type: agentic-coding`, `utils/agentic/process_agentic_result.py`,
  the flat schema, or the nested one of `build_agg`: `request_metrics.{latency,tokens,qps,throughput}`,
  `request_accounting`, `server_metrics`, power), alone or in an aggregate list: aiperf's trace replay reduced to `mean`, `p75`,
  `p90`, `p95`, `std` (population) of TTFT, E2EL, ITL (TPOT is ITL there), `intvty` (per request
  1 / ITL), token counts and 1 s windowed completions (`qps`); totals (`total_tput_tps`,
  `duration_seconds`, request counts) and per-GPU throughput (total / GPUs).

* **a sweep summary** (`metadata` and `results`, `benchmark_tool: InferenceX`, as SemiAnalysis's dashboard
  repository keeps one per model and machine: `glm-4.7/results/glm47_gaudi3_summary.json`): the machine
  (`hardware`, `8x Intel Gaudi 3 HL-325L`), TP, precision, framework and lengths once, then one result per
  concurrency with the run's totals (`output_throughput`, `total_throughput`), their per-GPU shares, the
  client's latency statistics in ms (`<stat>_<name>_ms`), token counts, completed requests and duration.

Mapping: latencies s -> ms (`ttft`, `tpot`, `itl`, `e2el`); per-GPU throughputs keep their meaning
as `*_throughput_per_gpu` (tok/s per GPU), and the run's own rate is per GPU x the GPUs it spans
(`total_token_throughput`, `output_throughput`, `input_throughput`; the note says which GPU count);
an agentic file's totals are read as printed, its `request_throughput` is completed / duration.
Settings: `conc` -> `max_concurrency`; the request rate is not recorded (NaN); `run` names the
point; hardware (`gpus=<N>x<hw>`), TP/EP/PP/DP attention, precision (`quantization`, or `dtype` for
bf16/fp16), speculative method, KV offloading, framework, image and ISL/OSL go to `metadata`.

Counting: every number that is not a setting is a cell; the fixed-length `intvty` numbers and numbers
without a tidy name are rejected with the reason; every percentile keeps its rank (p75, p99.9:
`core.percentile`). A nested point is read through the flat schema's names (`request_metrics.latency.ttft.p50`
is `p50_ttft`); its error-dropped requests are `failed`, its warm-up requests are counted apart (and
left out of `num_prompts`); a nested number without a flat name keeps its dotted path and is rejected.
A flat point of AIPerf's trace replay (`p75_qps`) counts only the requests it kept, in both of its
counts (`replay_counts_kept`): the requests sent, and so the failed ones, are unknown (`num_prompts` NaN).
"""

from __future__ import annotations

import json
import math
import re

from benchbook.ingest import inferencex_table
from benchbook.ingest.core import Parsed, ParseError, Tool, finish, percentile, register
from benchbook.ingest.serving_settings import SETTINGS as CONTRACT
from benchbook.ingest.serving_settings import run_settings
from benchbook.ingest.text import Lines, contains, fenced_blocks, only_block, search, whole
from benchbook.nouns import counted

NAME = "inferencex"
SETTINGS = dict(CONTRACT)

POINT, AGGREGATE = "result json", "aggregate json"
AGENTIC_POINT, AGENTIC_AGGREGATE = "agentic result json", "agentic aggregate json"
AGENTIC_NESTED = "agentic result json (request_metrics)"
AGENTIC_FIRST = "agentic result json (users, ttlt)"
TABLE = "result table (a write-up's)"
SUMMARY = "sweep summary json"

_FIXED_CARRIES = frozenset(
    {"model", "max_concurrency", "ttft", "tpot", "itl", "e2el", "output_throughput", "total_token_throughput"}
)
_AGENTIC_CARRIES = _FIXED_CARRIES | {
    "num_prompts",
    "completed",
    "duration",
    "request_throughput",
    "total_input_tokens",
    "total_generated_tokens",
}
#: What each shape records (`Tool.carries`): neither records a request rate, nor failed requests.
CARRIES = {
    POINT: _FIXED_CARRIES,
    AGGREGATE: _FIXED_CARRIES,
    AGENTIC_POINT: _AGENTIC_CARRIES,
    AGENTIC_AGGREGATE: _AGENTIC_CARRIES,
    AGENTIC_NESTED: _AGENTIC_CARRIES | {"failed"},
    AGENTIC_FIRST: _AGENTIC_CARRIES,
    TABLE: _FIXED_CARRIES,
    SUMMARY: _FIXED_CARRIES
    | {"completed", "duration", "request_throughput", "total_input_tokens", "total_generated_tokens"},
}

METRICS = {
    "ttft": "ms: time to first token (the file's seconds x 1000)",
    "tpot": "ms: time per output token (agentic: equal to ITL)",
    "itl": "ms: inter-token latency",
    "e2el": "ms: request latency",
    "total_token_throughput_per_gpu": "tok/s: tput_per_gpu, (prompt + output tokens) / s / GPU",
    "output_throughput_per_gpu": "tok/s: output_tput_per_gpu (multinode: per decode GPU)",
    "input_throughput_per_gpu": "tok/s: input_tput_per_gpu (multinode: per prefill GPU)",
    "total_token_throughput": "tok/s: the run's, per GPU x its GPUs (agentic: total_tput_tps)",
    "output_throughput": "tok/s: the run's output tokens per second",
    "input_throughput": "tok/s: the run's prompt tokens per second",
    "completed": "req: agentic, num_requests_successful",
    "server_requests_completed": "req: agentic, the server's own count of completed requests",
    "duration": "s: agentic, first request start to last request end",
    "request_throughput": "req/s: agentic, completed / duration",
    "total_input_tokens": "tok: agentic, prompt tokens of the completed requests",
    "total_generated_tokens": "tok: agentic, output tokens of the completed requests",
    "input_sequence_length": "tok: agentic, prompt tokens per request",
    "output_sequence_length": "tok: agentic, output tokens per request",
    "expected_output_sequence_length": "tok: agentic, the trace's output length per request",
    "output_token_throughput_per_user": "tok/s/user: agentic, per request 1 / its ITL",
    "completions_per_s_window": "req/s: agentic, requests ending in each 1 s window",
    "theoretical_cache_hit_rate": "fraction: agentic, prefix reuse the trace allows",
    "server_gpu_cache_hit_rate": "fraction: agentic, the server's GPU prefix-cache hit rate",
    "server_cpu_cache_hit_rate": "fraction: agentic, the server's CPU prefix-cache hit rate",
    "spec_decode_acceptance_length": "tok: observed_tokens_per_step, decode tokens / decode iterations per request",
}

_LATENCIES = ("ttft", "tpot", "itl", "e2el")
_STATS = {"mean": "mean", "median": "median", "std": "std", "p50": "p50", "p90": "p90", "p95": "p95", "p99": "p99"}
_STAT_KEY = re.compile(r"^(mean|median|std|p\d+(?:\.\d+)?)_(.+)$")
#: Agentic distributions: file name -> (metric, unit).
_AGENTIC_DISTS = {
    "intvty": ("output_token_throughput_per_user", "tok/s/user"),
    "input_tokens": ("input_sequence_length", "tok"),
    "output_tokens_actual": ("output_sequence_length", "tok"),
    "output_tokens_expected": ("expected_output_sequence_length", "tok"),
    "qps": ("completions_per_s_window", "req/s"),
}
_PER_GPU = {
    "tput_per_gpu": ("total_token_throughput", "tot"),
    "output_tput_per_gpu": ("output_throughput", "out"),
    "input_tput_per_gpu": ("input_throughput", "in"),
}
#: A fixed-batch writer's tokens each request gains per decode step (`observed_tokens_per_step`: total decode
#: tokens / total decode iterations, its README): 1 + the drafts accepted per step, the acceptance length of a run
#: with speculative decoding (trtllm-bench's `AL`, tokens per decoding iteration per request).
_STEP_TOKENS = "observed_tokens_per_step"
#: Agentic totals and counts: key -> (metric, statistic, unit).
_AGENTIC_VALUES = {
    "input_tput_tps": ("input_throughput", "value", "tok/s"),
    "output_tput_tps": ("output_throughput", "value", "tok/s"),
    "total_tput_tps": ("total_token_throughput", "value", "tok/s"),
    "duration_seconds": ("duration", "value", "s"),
    "num_requests_successful": ("completed", "count", "req"),
    "total_requests_completed": ("server_requests_completed", "count", "req"),
    "total_prompt_tokens": ("total_input_tokens", "count", "tok"),
    "total_generation_tokens": ("total_generated_tokens", "count", "tok"),
    "theoretical_cache_hit_rate": ("theoretical_cache_hit_rate", "value", "fraction"),
    "server_gpu_cache_hit_rate": ("server_gpu_cache_hit_rate", "value", "fraction"),
    "server_cpu_cache_hit_rate": ("server_cpu_cache_hit_rate", "value", "fraction"),
    "records_error_dropped": ("failed", "count", "req"),
    "records_warmup_dropped": ("warmup_requests", "count", "req"),
}
#: The nested agentic schema (process_agentic_result.py's `build_agg`): path -> the flat key.
_NESTED = {
    ("request_accounting", "records_error_dropped"): "records_error_dropped",
    ("request_accounting", "records_warmup_dropped"): "records_warmup_dropped",
    ("request_metrics", "throughput", "input", "tokens_per_second"): "input_tput_tps",
    ("request_metrics", "throughput", "output", "tokens_per_second"): "output_tput_tps",
    ("request_metrics", "throughput", "total", "tokens_per_second"): "total_tput_tps",
    ("request_metrics", "throughput", "duration_seconds"): "duration_seconds",
    ("request_metrics", "throughput", "per_gpu", "total_tput_tps"): "tput_per_gpu",
    ("request_metrics", "throughput", "per_gpu", "output_tput_tps"): "output_tput_per_gpu",
    ("request_metrics", "throughput", "per_gpu", "input_tput_tps"): "input_tput_per_gpu",
    ("request_metrics", "cache", "theoretical_cache_hit_rate"): "theoretical_cache_hit_rate",
    ("server_metrics", "cache", "gpu_cache_hit_rate"): "server_gpu_cache_hit_rate",
    ("server_metrics", "cache", "cpu_cache_hit_rate"): "server_cpu_cache_hit_rate",
}
#: Nested distributions: (section, name) -> the flat name (`<stat>_<name>`).
_NESTED_DISTS = {
    ("latency", "ttft"): "ttft",
    ("latency", "tpot"): "tpot",
    ("latency", "itl"): "itl",
    ("latency", "e2el"): "e2el",
    ("latency", "intvty"): "intvty",
    ("tokens", "input"): "input_tokens",
    ("tokens", "output_actual"): "output_tokens_actual",
    ("tokens", "output_expected"): "output_tokens_expected",
}
#: Nested numbers that are settings or bookkeeping, not measurements.
_NESTED_SETTINGS = {
    ("request_accounting", "records_total"),
    ("request_accounting", "records_profiled"),
    ("request_accounting", "records_dropped_total"),
    ("request_metrics", "qps", "window_seconds"),
    ("request_metrics", "qps", "samples"),
    ("dataset", "num_dataset_entries"),
    ("server_metrics", "metric_count"),
    ("power_metric_schema_version",),
    ("power_valid",),
}

#: Numeric keys that are settings of the point, not measurements.
_SETTING_KEYS = {
    "conc",
    "tp",
    "ep",
    "pp",
    "isl",
    "osl",
    "num_gpus",
    "dcp_size",
    "pcp_size",
    "allocated_cpu_dram_gb",
    "num_requests_total",
    "num_prefill_gpu",
    "num_decode_gpu",
    "kv_cache_pool_tokens",
}
_SETTING_PREFIXES = ("prefill_", "decode_")
#: What process_result.py writes under a role's prefix as a setting (`prefill_tp`, `decode_dp_attention`,
#: ...); any other prefixed number is a measurement of the role (`decode_gpu_energy_j`,
#: `decode_avg_power_w`, a write-up's `decode_round_tpot_ms`) and counts as a cell.
_ROLE_SETTINGS = {"tp", "pp", "ep", "dcp_size", "pcp_size", "dp_attention", "dp_attn", "num_workers", "hw"}


def _role_setting(key: str) -> bool:
    """Whether a prefixed key is a role's setting (`decode_tp`), not a role's measurement."""
    return any(key.startswith(p) and key[len(p) :] in _ROLE_SETTINGS for p in _SETTING_PREFIXES)


def _num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(float(v))


def _int(v) -> int | None:
    return int(v) if _num(v) and float(v) == int(v) else None


class _Lines:
    """Line numbers of keys, found in the file's order (json.dump writes one key a line)."""

    def __init__(self, text: str):
        self.text, self.at = text, 0

    def __call__(self, key: str) -> int:
        m = re.compile(rf'"{re.escape(key)}"\s*:').search(self.text, self.at)
        if m:
            self.at = m.end()
            return self.text.count("\n", 0, m.start()) + 1
        return self.text.count("\n", 0, self.at) + 1


def gpus(point: dict) -> tuple[int | None, int | None, int | None]:
    """(GPUs the point spans, prefill GPUs, decode GPUs) as the producers count them: `num_gpus`
    where given; multinode, prefill + decode GPUs; a run not disaggregated (`disagg: false`) whose prefill and
    decode GPU counts agree, that count (one instance does both: a fixed-batch writer's rows); single node,
    TP x PP x PCP (process_result.py divides by TP, the agentic script by TP x PP x PCP)."""
    pre, dec = _int(point.get("num_prefill_gpu")), _int(point.get("num_decode_gpu"))
    if _int(point.get("num_gpus")):
        return _int(point["num_gpus"]), pre, dec
    if point.get("is_multinode") and pre is not None and dec is not None:
        return pre + dec, pre, dec
    if point.get("disagg") is False and pre and pre == dec:  # not disaggregated: the same GPUs prefill and decode
        return pre, pre, dec
    tp = _int(point.get("tp"))
    if not tp:
        return None, pre, dec
    return tp * (_int(point.get("pp")) or 1) * (_int(point.get("pcp_size")) or 1), pre, dec


#: InferenceX's hardware labels whose card form is ambiguous in the hardware table: its GPU
#: specifications page (https://inferencex.semianalysis.com/gpu-specs) lists them as SXM parts.
_SXM = {"h100": "h100-sxm", "h200": "h200-sxm"}


def device_label(hw: str | None) -> str | None:
    """The device a runner label names: `mi355x-amds_05`, `cluster:h100-dgxc` or `h100-cr` are
    runners of `mi355x` and `h100` (the fleet's suffix dropped); H100 and H200 are the SXM parts."""
    if not hw:
        return None
    base = re.split(r"[-_]", str(hw).lower().removeprefix("cluster:"), maxsplit=1)[0]
    return _SXM.get(base, base) or None


def _text(v) -> str | None:
    return str(v).strip() if v is not None and str(v).strip() not in ("", "none", "None", "null") else None


def _metadata(point: dict, n: int | None) -> str | None:
    hw = _text(point.get("hw"))
    prec = _text(point.get("precision"))
    prec_key = "dtype" if prec and prec.lower() in ("bf16", "fp16", "bfloat16", "float16") else "quantization"
    offload = point.get("offloading", point.get("kv_offloading"))  # "none" is a setting here, said as such
    offload = str(offload).strip() if offload is not None and str(offload).strip() else None
    items = [
        ("gpus", f"{n}x{device_label(hw)}" if n and hw else None),
        ("hw", hw),
        ("framework", _text(point.get("framework"))),
        ("tp", _text(point.get("tp"))),
        ("ep", _text(point.get("ep"))),
        ("pp", _text(point.get("pp"))),
        ("dp_attention", _text(point.get("dp_attention"))),
        (prec_key, prec),
        ("speculative", _text(point.get("spec_decoding"))),
        ("kv_offloading", offload),
        (
            "prefix_reuse",
            "multi-turn trace replay" if str(point.get("scenario_type", "")).startswith("agentic") else None,
        ),
        ("disagg", "true" if point.get("disagg") is True else None),
        ("multinode", "true" if point.get("is_multinode") is True else None),
        *[(k, _text(point.get(k))) for k in ("num_prefill_gpu", "num_decode_gpu", "prefill_tp", "decode_tp")],
        ("isl", _text(point.get("isl"))),
        ("osl", _text(point.get("osl"))),
        ("image", _text(point.get("image"))),
    ]
    return "; ".join(f"{k}={v}" for k, v in items if v) or None


def _run(point: dict, agentic: bool) -> str:
    parts = [_text(point.get("hw")), _text(point.get("framework"))]
    if _text(point.get("tp")):
        parts.append(f"TP{point['tp']}" + (f" EP{point['ep']}" if _int(point.get("ep")) not in (None, 1) else ""))
    if str(point.get("dp_attention")).lower() == "true":
        parts.append("DP attention")
    if _text(point.get("spec_decoding")):
        parts.append(str(point["spec_decoding"]).upper())
    offload = _text(point.get("offloading", point.get("kv_offloading")))
    if agentic and offload:
        parts.append(f"KV offload {offload}")
    if not agentic and _num(point.get("isl")) and _num(point.get("osl")):
        parts.append(f"ISL {point['isl']}/OSL {point['osl']}")
    parts.append(f"conc {point.get('conc')}")
    return " ".join(p for p in parts if p)


#: The first agentic writer (utils/process_agentic_result.py, April 2026) names by the trace replay's
#: own words what later versions call `conc` and `e2el`: `users` (the USERS replaying at once, each
#: sending its next turn when the last one ends: the concurrency) and `ttlt` (each request's time to
#: its last token: its latency), and `offload_mode` for `offloading`.
_FIRST_NAMES = {"users": "conc", "offload_mode": "offloading"}


def first_agentic(point: dict) -> bool:
    """Whether a point is in the first agentic schema (`users` and `<stat>_ttlt`, no `conc`)."""
    return "conc" not in point and _num(point.get("users")) and any(k.endswith("_ttlt") for k in point)


def _rename_first(point: dict, line: _Lines) -> tuple[dict, dict, dict]:
    """A first-schema point under the later names (in the file's order), each key's line, and each
    key's name as the file writes it."""
    out, lines, written = {}, {}, {}
    for key, v in point.items():
        m = _STAT_KEY.match(key)
        new = _FIRST_NAMES.get(key) or (f"{m.group(1)}_e2el" if m and m.group(2) == "ttlt" else key)
        out[new], lines[new], written[new] = v, line(key), key
    return out, lines, written


def nested(point: dict) -> bool:
    """Whether a point is in the nested agentic schema (`request_metrics: {...}`)."""
    return isinstance(point.get("request_metrics"), dict) and "mean_ttft" not in point


def _flatten(point: dict, line: _Lines) -> tuple[dict, dict]:
    """A nested agentic point as the flat schema's keys (in the file's order), and each key's line.
    Every key is looked up in order, so the lines follow the file; a number without a flat name
    keeps its dotted path (and is rejected as such)."""
    flat, lines = {}, {}

    def walk(d: dict, path: tuple):
        for k, v in d.items():
            here = (*path, str(k))
            ln = line(str(k))
            if isinstance(v, dict):
                walk(v, here)
                continue
            if here in _NESTED_SETTINGS or (len(here) == 1 and k in point and not isinstance(v, dict)):
                if len(here) == 1 and here not in _NESTED_SETTINGS:
                    flat[k] = v  # a top-level key: as in the flat schema
                    lines[k] = ln
                continue
            if here[:2] == ("request_metrics", "qps") and len(here) == 3:
                key = f"{here[2]}_qps"
            elif here[0] == "request_metrics" and len(here) == 4 and tuple(here[1:3]) in _NESTED_DISTS:
                key = f"{here[3]}_{_NESTED_DISTS[tuple(here[1:3])]}"
            else:
                key = _NESTED.get(here, ".".join(here))
            flat[key] = v
            lines[key] = ln

    walk(point, ())
    return flat, lines


def _point(point: dict, index: int | None, fmt: str, line: _Lines, source: str, records, rejects, messages):
    """The records of one point (`index`: its place in an aggregate list, None for a lone point)."""
    where = f"point {index}" if index is not None else "the point"
    agentic = str(point.get("scenario_type", "")).startswith("agentic")
    lines: dict = {}
    written: dict = {}  # a renamed key -> the key as the file writes it, for the set-aside report
    if nested(point):
        point, lines = _flatten(point, line)
    elif agentic and first_agentic(point):
        point, lines, written = _rename_first(point, line)
    if not _num(point.get("conc")) or not _num(point.get("tput_per_gpu")):
        raise ParseError(
            source,
            lines.get("hw") or line("hw") if "hw" in point else 1,
            f"{where}: an InferenceX result needs numbers conc and tput_per_gpu",
        )
    n, pre, dec = gpus(point)
    settings = run_settings(
        _run(point, agentic),
        fmt,
        model=_text(point.get("model")),
        dataset=str(point["scenario_type"])
        if agentic
        else (
            f"ISL {point['isl']} / OSL {point['osl']}" if _num(point.get("isl")) and _num(point.get("osl")) else None
        ),
        num_prompts=_sent(point),
        max_concurrency=float(point["conc"]),
        metadata=_metadata(point, n),
    )

    def keep(ln, metric, stat, value, unit, note=None):
        records.append(
            {**settings, "line": ln, "metric": metric, "statistic": stat, "value": value, "unit": unit, "note": note}
        )

    role_scoped = any(k.endswith(("_per_decode_gpu", "_per_prefill_gpu")) for k in point)
    multinode = bool(point.get("is_multinode")) and not agentic and not role_scoped
    counts = {"tot": n, "out": dec if multinode else n, "in": pre if multinode else n}
    words = {
        "tot": "GPUs",
        "out": "decode GPUs" if multinode else "GPUs",
        "in": "prefill GPUs" if multinode else "GPUs",
    }
    for key, v in point.items():
        if isinstance(v, float) and not math.isfinite(v):  # 1e999 or NaN in the file: seen, not a measurement
            rejects.append((lines.get(key) or line(key), f"{written.get(key, key)}: {v}", "not a finite number"))
            continue
        if not _num(v) or key in _SETTING_KEYS or _role_setting(key):
            continue
        ln = lines.get(key) or line(key)
        v = float(v)
        m = _STAT_KEY.match(key)
        if key in _PER_GPU:
            metric, role = _PER_GPU[key]
            keep(ln, f"{metric}_per_gpu", "value", v, "tok/s", "per GPU, as the file gives it")
            if not agentic and counts[role]:
                keep(ln, metric, "value", v * counts[role], "tok/s", f"{key} x {counts[role]} {words[role]}")
        elif key == _STEP_TOKENS:
            keep(ln, "spec_decode_acceptance_length", "value", v, "tok", "decode tokens / decode iterations")
        elif agentic and key in _AGENTIC_VALUES:
            metric, stat, unit = _AGENTIC_VALUES[key]
            keep(ln, metric, stat, v, unit)
        elif m and m.group(2) in _LATENCIES:
            stat = _STATS.get(m.group(1)) or percentile(m.group(1))
            if stat is None:
                rejects.append(
                    (ln, f"{written.get(key, key)}: {v:g}", f"percentile {m.group(1)} is no rank between 0 and 100")
                )
            else:
                keep(ln, m.group(2), stat, v * 1000.0, "ms", "converted from s")
        elif m and m.group(2) == "intvty" and not agentic:
            rejects.append(
                (
                    ln,
                    f"{written.get(key, key)}: {v:g}",
                    "interactivity: 1000 / this TPOT statistic, not a statistic of per-user speed",
                )
            )
        elif m and agentic and m.group(2) in _AGENTIC_DISTS:
            metric, unit = _AGENTIC_DISTS[m.group(2)]
            stat = _STATS.get(m.group(1)) or percentile(m.group(1))
            if stat is None:
                rejects.append(
                    (ln, f"{written.get(key, key)}: {v:g}", f"percentile {m.group(1)} is no rank between 0 and 100")
                )
            else:
                keep(ln, metric, stat, v, unit)
        else:
            rejects.append((ln, f"{written.get(key, key)}: {v:g}", "a number this parser has no tidy name for"))
    if agentic:
        done, dur = point.get("num_requests_successful"), point.get("duration_seconds")
        if _num(done) and _num(dur) and dur > 0:
            ln = line.text.count("\n", 0, line.at) + 1
            keep(ln, "request_throughput", "value", done / dur, "req/s", "num_requests_successful / duration_seconds")
        total = point.get("num_requests_total")
        warm, err = point.get("records_warmup_dropped"), point.get("records_error_dropped")
        if _num(warm) and _num(err) and (warm or err):
            messages.append(f"{source}: {where}: {counted(warm, 'warm-up request')} not counted; {err:g} failed")
        elif replay_counts_kept(point) and _num(total):
            messages.append(
                f"{source}: {where}: num_requests_total ({total:g}) counts only the requests kept, as "
                "num_requests_successful does (the replay's processor drops every request with an error), "
                "so the requests sent and failed are not recorded"
            )
        elif not _num(warm) and _num(done) and _num(total) and total > done:
            messages.append(
                f"{source}: {where}: {total - done:g} of {total:g} requests not counted "
                "(warm-up or errors; the file does not say which)"
            )
        tot = point.get("total_tput_tps")
        if n and _num(tot) and abs(point["tput_per_gpu"] * n - tot) > 0.01 * tot:
            messages.append(f"{source}: {where}: tput_per_gpu x {n} GPUs is not total_tput_tps ({tot:g} tok/s)")
    elif not n:
        messages.append(f"{source}: {where}: no TP or GPU count, so the per-GPU throughput is not scaled to the run")


#: A summary result's keys: key -> (metric, statistic, unit); the latencies are `<stat>_<name>_ms` (ms as printed).
_SUMMARY_VALUES = {
    "output_throughput": ("output_throughput", "value", "tok/s"),
    "total_throughput": ("total_token_throughput", "value", "tok/s"),
    "output_tput_per_gpu": ("output_throughput_per_gpu", "value", "tok/s"),
    "total_tput_per_gpu": ("total_token_throughput_per_gpu", "value", "tok/s"),
    "total_input_tokens": ("total_input_tokens", "count", "tok"),
    "total_output_tokens": ("total_generated_tokens", "count", "tok"),
    "completed_requests": ("completed", "count", "req"),
    "duration_s": ("duration", "value", "s"),
}
_SUMMARY_MS = re.compile(r"^(mean|median|std|p\d+(?:\.\d+)?)_(ttft|tpot|itl|e2el)_ms$")


def summary(doc) -> bool:
    """Whether `doc` is a sweep summary: `metadata` naming InferenceX as its tool, and a `results` list."""
    meta = doc.get("metadata") if isinstance(doc, dict) else None
    return (
        isinstance(meta, dict)
        and "inferencex" in str(meta.get("benchmark_tool", "")).lower()
        and isinstance(doc.get("results"), list)
    )


def _summary(doc: dict, text: str, source: str) -> Parsed:
    """A sweep summary's records: each result a run at its concurrency, settings from `metadata`."""
    meta = doc["metadata"]
    line = _Lines(text)
    for key in meta:
        line(key)  # the metadata's keys come first: the results' lines are found after them
    hw = _text(meta.get("hardware"))
    n = re.match(r"^\s*(\d+)\s*[x×]\s*(.+)$", hw or "")
    point = {
        "hw": n.group(2) if n else hw,
        "framework": meta.get("framework"),
        "tp": meta.get("tensor_parallel"),
        "precision": meta.get("precision"),
        "isl": meta.get("input_len"),
        "osl": meta.get("output_len"),
    }
    records: list[dict] = []
    rejects: list[tuple[int, str, str]] = []
    for i, res in enumerate(doc["results"]):
        if not isinstance(res, dict) or not _num(res.get("concurrency")):
            raise ParseError(source, line("results"), f"result {i}: an InferenceX summary result needs its concurrency")
        count = _int(res.get("num_gpus")) or (int(n.group(1)) if n else None)
        settings = run_settings(
            f"conc {res['concurrency']:g}" if isinstance(res["concurrency"], float) else f"conc {res['concurrency']}",
            SUMMARY,
            model=_text(meta.get("model")),
            dataset=f"ISL {point['isl']} / OSL {point['osl']}" if _num(point["isl"]) and _num(point["osl"]) else None,
            max_concurrency=float(res["concurrency"]),
            # the machine as the summary names it (a product, not a runner label `device_label` shortens)
            metadata="; ".join(
                x
                for x in (f"gpus={count}x {point['hw']}" if count and point["hw"] else None, _metadata(point, None))
                if x
            ),
        )
        for key, v in res.items():
            if not _num(v) or key in ("concurrency", "num_gpus"):
                continue
            ln, v = line(key), float(v)
            m = _SUMMARY_MS.match(key)
            if key in _SUMMARY_VALUES:
                metric, stat, unit = _SUMMARY_VALUES[key]
            elif m and (stat := _STATS.get(m.group(1)) or percentile(m.group(1))):
                metric, unit = m.group(2), "ms"
            elif key == "interactivity":
                rejects.append(
                    (ln, f"{key}: {v:g}", "interactivity: 1000 / the mean TPOT, not a statistic of per-user speed")
                )
                continue
            else:
                rejects.append((ln, f"{key}: {v:g}", "a number this parser has no tidy name for"))
                continue
            records.append(
                {**settings, "line": ln, "metric": metric, "statistic": stat, "value": v, "unit": unit, "note": None}
            )
        done, dur = res.get("completed_requests"), res.get("duration_s")
        if _num(done) and _num(dur) and dur > 0:
            at = next(r["line"] for r in records[::-1] if r["metric"] == "completed")
            records.append(
                {**settings, "line": at, "metric": "request_throughput", "statistic": "value", "value": done / dur}
                | {"unit": "req/s", "note": "completed_requests / duration_s"}
            )
    return finish(TOOL, source, records, rejects, [], version="summary", empty="an InferenceX summary without a number")


def _sent(point: dict) -> float:
    """Requests sent after warm-up: the nested schema's total less its warm-up requests; the flat
    schema's `num_requests_total`, except where the file is the AIPerf replay's (`replay_counts_kept`)."""
    total, warm = point.get("num_requests_total"), point.get("records_warmup_dropped")
    if not _num(total) or replay_counts_kept(point):
        return math.nan
    return float(total - warm) if _num(warm) else float(total)


def replay_counts_kept(point: dict) -> bool:
    """Whether a flat agentic point counts only the requests it kept. InferenceX's
    `utils/process_agentic_result.py` for AIPerf's trace replay (from 2026-05-15; its QPS statistics
    are `p75_qps`/`p95_qps`) drops every record with an error and writes that one count as both
    `num_requests_total` and `num_requests_successful`: the two are equal by construction, so the
    total is not the requests sent and says nothing of failures. The kv-cache-tester version before it
    (`median_qps`/`p99_qps`) counts every row as the total and the rows that succeeded apart."""
    return "request_metrics" not in point and "p75_qps" in point and "median_qps" not in point


def _fenced(text: str) -> str | None:
    """The text with only its first fenced block that holds an InferenceX result left (a write-up quoting
    `agg_bmk.json`), every other line blanked so that each keeps its number; None where no block does."""
    lines = text.split("\n")
    for opened, closed, body in fenced_blocks(lines):
        if closed < len(lines) and sniff("\n".join(body)):
            try:
                json.loads("\n".join(body))
            except json.JSONDecodeError:
                continue
            return only_block(lines, opened, closed, lines[opened + 1 : closed])
    return None


def parse(text: str | Lines, source: str) -> Parsed:
    text = whole(text).removeprefix("\ufeff")  # a byte-order mark an editor added
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        quoted = _fenced(text)  # a result quoted in a fenced block of a write-up, its lines kept
        if quoted is None and _NAMED_RE.search(text):
            tabled, rejects = inferencex_table.points(text.split("\n"))
            if tabled:
                return _read_table(tabled, rejects, source)
        if quoted is None:
            raise ParseError(source, exc.lineno, f"not valid JSON (an InferenceX result): {exc.msg}") from None
        text, doc = quoted, json.loads(quoted)
    if summary(doc):
        return _summary(doc, text, source)
    points = doc if isinstance(doc, list) else [doc]
    if not points or not all(isinstance(p, dict) for p in points):
        raise ParseError(
            source, 1, "expected an InferenceX result: a JSON object with hw, conc and tput_per_gpu, or a list of them"
        )
    line = _Lines(text)
    records: list[dict] = []
    rejects: list[tuple[int, str, str]] = []
    messages: list[str] = []
    for i, point in enumerate(points):
        agentic = str(point.get("scenario_type", "")).startswith("agentic")
        fmt = (
            AGENTIC_NESTED
            if nested(point)
            else AGENTIC_FIRST
            if agentic and first_agentic(point)
            else (AGENTIC_AGGREGATE if agentic else AGGREGATE)
            if isinstance(doc, list)
            else (AGENTIC_POINT if agentic else POINT)
        )
        _point(point, i if isinstance(doc, list) else None, fmt, line, source, records, rejects, messages)
    version = "agentic" if any(str(p.get("scenario_type", "")).startswith("agentic") for p in points) else None
    return finish(
        TOOL, source, records, rejects, messages, version=version, empty="an InferenceX result without a number"
    )


def _read_table(tabled, rejects: list, source: str) -> Parsed:
    """The points of a write-up's tables (`inferencex_table`), each read as a point of process_result.py."""
    records: list[dict] = []
    messages: list[str] = []
    for k, (point, where, header) in enumerate(tabled):
        _point(point, k, TABLE, lambda key, w=where, h=header: w.get(key, h), source, records, rejects, messages)
    return finish(TOOL, source, records, rejects, messages, empty="an InferenceX result without a number")


#: A write-up of InferenceX runs names the project (a bot's comment links its workflow runs).
_NAMED_RE = re.compile(r"\bInference(?:X|MAX)\b", re.I)
#: A table row that spells a point's per-GPU throughput (`| Total tput/GPU (tok/s) |`, `| Throughput/GPU |`).
_TABLE_SNIFF_RE = re.compile(r"(?im)^\s*\|\s*(?:\*\*)?(?:(?:total|output|input)\s+)?(?:tput|throughput)\s*/\s*gpu\b")


def sniff(text: str | Lines) -> bool:
    """A point's keys: `hw`, `conc` and per-GPU throughput (`tput_per_gpu`, or the nested agentic
    schema's `request_metrics`); or a text naming InferenceX with a table of a point's keys in words
    (`inferencex_table`)."""
    keys = contains('"hw"', text) and (
        contains('"conc"', text) or contains('"users"', text) and contains("_ttlt", text)
    )
    if keys and (contains('"tput_per_gpu"', text) or contains('"request_metrics"', text)):
        return True
    if contains('"benchmark_tool"', text) and contains('"results"', text) and contains("InferenceX", text):
        return True  # a sweep summary (`summary`)
    if not (search(_TABLE_SNIFF_RE, text) and search(_NAMED_RE, text)):
        return False
    return bool(inferencex_table.points(whole(text).split("\n"))[0])


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description=(
            "SemiAnalysis InferenceX / InferenceMAX result JSON: one point (agg_*.json), an aggregate list, "
            "agentic results (serving contract; per-GPU throughput x the GPUs the point spans)"
        ),
        command="InferenceX's benchmark workflow (utils/process_result.py, utils/collect_results.py, "
        "utils/agentic/process_agentic_result.py)",
        metrics=METRICS,
        carries=CARRIES,
    )
)
