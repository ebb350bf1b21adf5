"""llm-d-benchmark's harness-agnostic benchmark report (YAML, `version: '0.1'`), in the serving
contract of vllm-bench-serve.

The report (llm-d-benchmark docs/benchmark_report.md): `metrics: {latency: {name: {mean, min, max,
p0p1, p1, ..., p99p9, units}}, requests: {total, failures, input_length: {...}, output_length:
{...}}, throughput: {output_tokens_per_sec, requests_per_sec, total_tokens_per_sec, ...}, time:
{duration}}`, then `scenario` (the harness's own configuration: its stages, the model) and
`version`. One report per stage of a run.

Mapping: `request_latency` -> `e2el`, `time_to_first_token` -> `ttft`, `time_per_output_token`
-> `tpot`, `inter_token_latency` -> `itl`, `normalized_time_per_output_token` keeps its name, all in
ms (the report's s and s/token converted); `requests.total` -> `sent` and the `num_prompts`
setting, `requests.failures` -> `failed`, `completed` = total - failures (the report prints no
completed count); `input_length` / `output_length` -> `input_sequence_length` /
`output_sequence_length`; `requests_per_sec` -> `request_throughput`, `output_tokens_per_sec` ->
`output_throughput`, `input_tokens_per_sec` -> `input_throughput`, `total_tokens_per_sec` ->
`total_token_throughput`; `time.duration` -> `duration`. Settings from the scenario: the model
(`server.model_name`, wherever the harness puts it), the stage's rate and concurrency level (the
stage named by `scenario.load.metadata.stage`, or the only stage; where that stage sends another number
of requests than `requests.total` and exactly one stage sends that many, that stage). Percentiles without a tidy name
(p0p1, p1, p5, p10, p25, p75, p99p9) are rejected with the reason; the scenario's numbers are
configuration, not cells.
"""

from __future__ import annotations

import math
import re

import yaml

from benchbook.ingest import inference_perf
from benchbook.ingest.core import Parsed, ParseError, Tool, finish, percentile, register
from benchbook.ingest.serving_settings import SETTINGS as CONTRACT
from benchbook.ingest.serving_settings import run_settings
from benchbook.ingest.text import Lines, fenced_blocks, only_block, search, whole

NAME = "llm-d-benchmark-report"
SETTINGS = dict(CONTRACT)
FORMAT = "benchmark report 0.1"
FORMAT_V02 = "benchmark report 0.2"
#: Version 0.2's throughput entries (each a statistics block; `mean` is the harness's rate).
THROUGHPUT_V02 = {
    "request_rate": ("request_throughput", "req/s"),
    "output_token_rate": ("output_throughput", "tok/s"),
    "input_token_rate": ("input_throughput", "tok/s"),
    "total_token_rate": ("total_token_throughput", "tok/s"),
}
UNITS_V02 = {"req/s": "queries/s", "tok/s": "tokens/s"}

#: The report's latency and throughput names are inference-perf's (llm-d's harness writes both).
LATENCY = {k: v for k, v in inference_perf.LATENCY.items() if k != "normalized_time_per_output_token"}
THROUGHPUT = inference_perf.THROUGHPUT
LENGTHS = {"input_length": "input_sequence_length", "output_length": "output_sequence_length"}
STATS = {
    "mean": "mean",
    "min": "min",
    "max": "max",
    "stddev": "std",
    "p50": "p50",
    "p90": "p90",
    "p95": "p95",
    "p99": "p99",
}
#: What the report records (`Tool.carries`).
_CARRIED = frozenset(
    {
        "model",
        "request_rate",
        "max_concurrency",
        "num_prompts",
        "completed",
        "failed",
        "duration",
        "ttft",
        "tpot",
        "itl",
        "e2el",
        "request_throughput",
        "output_throughput",
        "total_token_throughput",
    }
)
#: 0.2's `run.time.duration` is the harness run's (LLMDBENCH_HARNESS_DELTA, every stage), not the stage's.
CARRIES = {FORMAT: _CARRIED, FORMAT_V02: _CARRIED - {"duration"}}
METRICS = {
    "sent": "req: requests of the stage (requests.total)",
    "failed": "req: requests that failed (requests.failures)",
    "completed": "req: total - failures",
    "duration": "s: the stage's duration",
    "e2el": "ms: request latency",
    "ttft": "ms: time to first token",
    "tpot": "ms: per request (latency - TTFT) / (output tokens - 1), as the harness defines it",
    "itl": "ms: gaps between streamed chunks, pooled over requests",
    "normalized_time_per_output_token": "ms: per request latency / output tokens",
    "request_throughput": "req/s: requests per second",
    "output_throughput": "tok/s: output tokens per second",
    "input_throughput": "tok/s: prompt tokens per second",
    "total_token_throughput": "tok/s: prompt + output tokens per second",
    "input_sequence_length": "tok: prompt tokens per request",
    "output_sequence_length": "tok: output tokens per request",
}
_SCALE = {"s": 1000.0, "s/token": 1000.0, "ms": 1.0, "ms/token": 1.0}


def _rank(name: str) -> str | None:
    """The tidy percentile of a report's statistic key: llm-d's `Statistics` writes a rank's decimal
    point as `p` (`p0p1`, `p99p9`: the 0.1th and 99.9th), the others as `p1` ... `p99`."""
    return percentile(re.sub(r"^p(\d+)p(\d+)$", r"p\1.\2", name))


def _num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _find(d, key: str):
    """The first value under `key` anywhere in nested dicts (breadth first)."""
    todo = [d]
    while todo:
        cur = todo.pop(0)
        if isinstance(cur, dict):
            if key in cur and cur[key] is not None:
                return cur[key]
            todo.extend(cur.values())
    return None


def _stages(scenario: dict) -> list:
    load = scenario.get("load") if isinstance(scenario.get("load"), dict) else {}
    stages = _find(load, "stages")
    return stages if isinstance(stages, list) else []


def _sends(stage) -> int | None:
    """Requests a stage sends: inference-perf's load generator sends `int(rate * duration)` in a
    rate stage (inference_perf/loadgen/load_generator.py), `num_requests` in a concurrency stage."""
    if not isinstance(stage, dict):
        return None
    if _num(stage.get("num_requests")):
        return int(stage["num_requests"])
    if _num(stage.get("rate")) and _num(stage.get("duration")):
        return int(stage["rate"] * stage["duration"])
    return None


def _stage_no(scenario: dict) -> int | None:
    """The stage the report is about: `load.metadata.stage` (0.1), `load.standardized.stage` (0.2)."""
    load = scenario.get("load") if isinstance(scenario.get("load"), dict) else {}
    for part in ("metadata", "standardized"):
        meta = load.get(part) if isinstance(load.get(part), dict) else {}
        if isinstance(meta.get("stage"), int) and not isinstance(meta.get("stage"), bool):
            return meta["stage"]
    return None


def _stage(scenario: dict, total, source: str, messages: list[str]) -> tuple[str | None, dict]:
    """The stage the report is about (its run label, its settings): the one `metadata.stage` names, or
    the only one. Where the named stage sends another number of requests than the report counts and
    exactly one stage of the scenario sends that number, the report's own count decides: the index is
    the harness's label, the count is the measurement."""
    stages, k = _stages(scenario), _stage_no(scenario)
    label = f"stage {k}" if k is not None else None
    if not (isinstance(k, int) and 0 <= k < len(stages)):
        only = len(stages) == 1 and isinstance(stages[0], dict)
        return label, (stages[0] if only else {})
    named = stages[k] if isinstance(stages[k], dict) else {}
    n = _sends(named)
    if not _num(total) or n is None or n == int(total):
        return label, named
    fits = [j for j, st in enumerate(stages) if _sends(st) == int(total)]
    if len(fits) != 1:
        return label, named
    j = fits[0]
    messages.append(
        f"{source}: metadata.stage {k} names a stage that sends {n} requests ({_load(named)}), but the report "
        f"counts {int(total)}: only stage {j} ({_load(stages[j])}) sends that many, so the report is read as "
        f"stage {j}'s"
    )
    return f"stage {j} (labelled {k})", stages[j]


#: GuideLLM profiles whose `--rate` list gives one benchmark per value, in order: a rate for `constant`
#: and `poisson`, a number of concurrent streams for `concurrent` (guidellm benchmark/profiles.py).
_GUIDELLM_RATES = {"constant": "rate", "poisson": "rate", "concurrent": "concurrency_level"}


def _guidellm_stage(scenario: dict) -> dict:
    """The load of a stage of a report llm-d's GuideLLM importer wrote (version 0.1,
    `scenario.load.name: guidellm`): the importer copies GuideLLM's `args` (its profile and its
    `rate` list) and writes the benchmark's index as `metadata.stage` (llm-d-benchmark
    benchmark_report/native_to_br0_1.py `import_guidellm`), so the stage's rate is the list's entry
    at that index where the profile runs one benchmark per entry; no stage list is written."""
    load = scenario.get("load") if isinstance(scenario.get("load"), dict) else {}
    args = load.get("args") if isinstance(load.get("args"), dict) else {}
    key, k = _GUIDELLM_RATES.get(str(args.get("profile"))), _stage_no(scenario)
    rates = args.get("rate")
    rates = [rates] if _num(rates) else rates
    if load.get("name") != "guidellm" or key is None or not isinstance(rates, list) or k is None:
        return {}
    return {key: rates[k]} if 0 <= k < len(rates) and _num(rates[k]) else {}


def _seconds_as_ms(scenario: dict, key: str, units: str) -> bool:
    """llm-d's GuideLLM importer labels `request_latency` `ms`, but fills it from GuideLLM's
    `metrics.request_latency`, which GuideLLM measures in seconds (its millisecond metrics carry `_ms`
    in their names: `time_to_first_token_ms`); the report's other latencies are GuideLLM's `_ms` ones."""
    load = scenario.get("load") if isinstance(scenario.get("load"), dict) else {}
    return load.get("name") == "guidellm" and key == "request_latency" and units == "ms"


def _load(stage: dict) -> str:
    if _num(stage.get("num_requests")):
        return f"{stage['num_requests']:g} requests"
    return f"{stage['rate']:g} req/s for {stage['duration']:g} s"


class _Lines:
    """Line numbers of keys, found in the file's order."""

    def __init__(self, text: str):
        self.text, self.at = text, 0

    def __call__(self, key: str) -> int:
        m = re.compile(rf"^\s*-?\s*{re.escape(key)}\s*:", re.M).search(self.text, self.at)
        if m:
            self.at = m.end()
            return self.text.count("\n", 0, m.start()) + 1
        return self.text.count("\n", 0, self.at) + 1


def parse(text: str | Lines, source: str) -> Parsed:
    text = whole(text).replace("\r\n", "\n")
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        quoted = _fenced(text)  # a report quoted in a fenced block of a guide, its lines kept
        if quoted is None:
            mark = getattr(exc, "problem_mark", None)
            raise ParseError(source, mark.line + 1 if mark else 1, "not valid YAML (llm-d benchmark report)") from None
        text, doc = quoted, yaml.safe_load(quoted)
    if not isinstance(doc, dict) and (quoted := _fenced(text)) is not None:
        text, doc = quoted, yaml.safe_load(quoted)  # Markdown that happens to load as YAML (a string)
    line = _Lines(text)
    m = _aggregate_v02(doc, line) if isinstance(doc, dict) and "results" in doc else None
    if m is None and (not isinstance(doc, dict) or not isinstance(doc.get("metrics"), dict)):
        raise ParseError(source, 1, "expected an llm-d benchmark report (a YAML mapping with 'metrics')")
    v02 = m is not None
    m = m if v02 else doc["metrics"]
    scenario = doc.get("scenario") if isinstance(doc.get("scenario"), dict) else {}
    req = m.get("requests") if isinstance(m.get("requests"), dict) else {}
    total = req.get("total")
    messages: list[str] = []
    label, stage = _stage(scenario, total, source, messages)
    stage = stage or _guidellm_stage(scenario)
    model, engine = _engine(scenario) if v02 else (None, [])
    model = model or _find(scenario, "model_name")
    if model is None:
        name = (scenario.get("model") or {}).get("name") if isinstance(scenario.get("model"), dict) else None
        model = name if name and name != "unknown" else None
    rate, cap = stage.get("rate"), stage.get("concurrency_level")
    if v02 and not stage:  # no native stage list: the standardized load's own rate and cap
        std = (scenario.get("load") or {}).get("standardized") or {}
        rate, cap = std.get("rate_qps"), std.get("concurrency")
    cap = cap if _num(cap) and math.isfinite(cap) else None  # `.inf`: no cap
    settings = run_settings(
        label or (f"rate {rate:g}" if _num(rate) else "report"),
        FORMAT_V02 if v02 else FORMAT,
        model=str(model) if model else None,
        num_prompts=float(total) if _num(total) else math.nan,
        request_rate=float(rate) if _num(rate) else math.nan,
        max_concurrency=float(cap) if _num(cap) else math.nan,
        metadata="; ".join([f"version={doc.get('version')}", *engine]) if doc.get("version") is not None else None,
    )
    records: list[dict] = []
    rejects: list[tuple[int, str, str]] = []

    def keep(ln, metric, stat, value, unit, note=None):
        records.append(
            {**settings, "line": ln, "metric": metric, "statistic": stat, "value": value, "unit": unit, "note": note}
        )

    def stats(block: dict, metric: str, unit: str, scale: float, label: str, note: str | None = None):
        note = note or ("converted from s" if scale != 1.0 else None)
        for s, v in block.items():
            if s == "units":
                continue
            ln = line(s)
            if not _num(v):
                if v is not None:
                    rejects.append((ln, f"{label}.{s}: {v!r}"[:80], "expected a number"))
            elif s in STATS or _rank(s):
                keep(ln, metric, STATS.get(s) or _rank(s), float(v) * scale, unit, note)
            else:
                rejects.append((ln, f"{label}.{s}: {v}", f"{s} is not a statistic of the tidy table"))

    def rate_stats(block: dict, key: str):
        """A 0.2 throughput: its mean is the harness's one rate (llm-d's importers write a harness's
        requests_per_sec and the like there); a spread of rates over time is not a serving figure."""
        metric, unit = THROUGHPUT_V02[key]
        for s, v in block.items():
            if s == "units" or not _num(v):
                continue
            ln = line(s)
            if s != "mean":
                rejects.append(
                    (ln, f"{key}.{s}: {v}", "a statistic of a rate over time: the report's rate is its mean")
                )
            elif block.get("units") != UNITS_V02[unit]:
                rejects.append((ln, f"{key}.{s}: {v}", f"units {block.get('units')!r}, expected {UNITS_V02[unit]!r}"))
            else:
                keep(ln, metric, "value", float(v), unit)

    at: dict[str, int] = {}
    for section, block in m.items():  # in the file's order, so that each key is found after the last
        if section not in ("latency", "requests", "throughput", "time") or not isinstance(block, dict):
            continue
        line(section)
        for key, v in block.items():
            if section == "throughput" and key in THROUGHPUT_V02 and isinstance(v, dict):
                line(key)
                rate_stats(v, key)
            elif section == "latency" and isinstance(v, dict):
                line(key)
                units = str(v.get("units", "s"))
                if _seconds_as_ms(scenario, key, units):
                    note = "GuideLLM's request_latency is in s (llm-d's importer labels it ms): converted from s"
                    stats(v, LATENCY.get(key, key), "ms", 1000.0, key, note)
                else:
                    stats(v, LATENCY.get(key, key), "ms", _SCALE.get(units, 1.0), key)
            elif section == "requests" and key in LENGTHS and isinstance(v, dict):
                line(key)
                stats(v, LENGTHS[key], "tok", 1.0, key)
            elif section == "requests" and key in ("total", "failures") and _num(v):
                at[key] = line(key)
                keep(at[key], "sent" if key == "total" else "failed", "count", float(v), "req")
            elif section == "throughput" and key in THROUGHPUT and _num(v):
                metric, unit = THROUGHPUT[key]
                keep(line(key), metric, "value", float(v), unit)
            elif section == "time" and key == "duration" and _num(v):
                keep(line(key), "duration", "value", float(v), "s")
            elif _num(v):
                rejects.append((line(key), f"{section}.{key}: {v}", "a number this parser has no tidy name for"))
    if _num(total) and _num(req.get("failures")):
        keep(at["total"], "completed", "count", float(total - req["failures"]), "req", "total - failures")
        if req["failures"]:
            messages.append(f"{source}: {req['failures']:g} of {total:g} requests failed")
    return finish(TOOL, source, records, rejects, messages, empty="an llm-d benchmark report without a number")


def _aggregate_v02(doc: dict, line: _Lines) -> dict | None:
    """Version 0.2's `results.request_performance.aggregate` (requests, throughput, latency), the
    line finder moved to it; None where the report has none."""
    perf = (doc.get("results") or {}).get("request_performance") if isinstance(doc.get("results"), dict) else None
    agg = perf.get("aggregate") if isinstance(perf, dict) else None
    if not isinstance(agg, dict):
        return None
    for key in ("results", "request_performance", "aggregate"):
        line(key)
    return agg


def _engine(scenario: dict) -> tuple[str | None, list[str]]:
    """Version 0.2: the model of the stack's first inference engine (`stack[].standardized.model.name`)
    and what it says of its devices, as metadata items: `accelerator.count` ("total utilized
    accelerator count", schema_v0_2_components.py) of `accelerator.model`, a node's GPU product label
    (nvidia.com/gpu.product: the driver's name with '-' for spaces), and its parallelism."""
    for comp in scenario.get("stack") or []:
        std = comp.get("standardized") if isinstance(comp, dict) else None
        if not (isinstance(std, dict) and std.get("kind") == "inference_engine"):
            continue
        name = (std.get("model") or {}).get("name") if isinstance(std.get("model"), dict) else None
        acc = std.get("accelerator") if isinstance(std.get("accelerator"), dict) else {}
        items = []
        if isinstance(acc.get("model"), str) and acc["model"]:
            gpu = acc["model"].replace("-", " ")
            items.append(f"gpus={acc['count']}x{gpu}" if _num(acc.get("count")) else f"gpu={gpu}")
        par = acc.get("parallelism") if isinstance(acc.get("parallelism"), dict) else {}
        items += [f"{k}={par[k]}" for k in ("tp", "pp", "dp", "ep") if _num(par.get(k))]
        return (name if isinstance(name, str) and name else None), items
    return None, []


_SNIFF_V02 = (
    re.compile(r"^version:\s*['\"]?0\.2", re.M),
    re.compile(r"^results:\s*$", re.M),
    re.compile(r"^\s+request_performance:", re.M),
)
_SNIFF = (
    re.compile(r"^metrics:\s*$", re.M),
    re.compile(r"^scenario:\s*$", re.M),
    re.compile(r"^\s+latency:\s*$", re.M),
)


def _bare(text: str | Lines) -> bool:
    return all(search(p, text) for p in _SNIFF) or all(search(p, text) for p in _SNIFF_V02)


def _fenced(text: str) -> str | None:
    """The text with only its first fenced block that holds a report left (llm-d's guides quote the
    report in a ```yaml block, indented inside a `<details>`), every other line blanked so that each
    keeps its number; as CommonMark reads a fence indented N spaces, up to N spaces are taken off each
    line of its content. None where no block holds one (a block that does not load as a YAML mapping holds none)."""
    lines = text.split("\n")
    for opened, closed, body in fenced_blocks(lines):
        if closed < len(lines) and _bare("\n".join(body)):
            out = only_block(lines, opened, closed, body)
            try:
                if isinstance(yaml.safe_load(out), dict):
                    return out
            except yaml.YAMLError:
                pass
    return None


def sniff(text: str | Lines) -> bool:
    if _bare(text):
        return True
    return search(_FENCE_METRICS, text) and _fenced(whole(text).replace("\r\n", "\n")) is not None


#: What a fenced report shows before its fence is looked for: a `metrics:` or `results:` line at any indent.
_FENCE_METRICS = re.compile(r"^\s*(?:metrics|results):\s*$", re.M)


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="llm-d-benchmark benchmark report YAML (versions 0.1 and 0.2, one per stage; any harness) (serving contract)",
        command="llm-d-benchmark run_only.sh -c config.yaml (writes benchmark_report,_stage_N_*.yaml per stage)",
        metrics=METRICS,
        carries=CARRIES,
    )
)
