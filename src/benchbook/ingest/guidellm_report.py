"""GuideLLM's benchmarks report (`--output-path benchmarks.json`, or `.yaml`: the same schema), both
generations, read for `guidellm`.

The report is `{"benchmarks": [...]}`; each benchmark holds `metrics`, a mapping of
`StatusDistributionSummary`s: per status (`successful`, `errored`, `incomplete`, `total`) a
distribution `{mean, median, mode, variance, std_dev, min, max, count, total_sum, percentiles:
{p001 ... p999}}`. Two generations (guidellm/benchmark/benchmark.py, then schemas/):
- 0.2 / 0.3: a benchmark has `args` (`profile`, `strategy` {type_, rate | streams}), `run_stats`
  (`requests_made`), `worker` (`backend_model`), `request_loader` (`data`), `duration` and
  `request_totals`;
- 0.4 / 0.5+: the file adds `metadata` (`guidellm_version`) and `args` (the command line); a
  benchmark has `config` (`strategy`, `backend` {model}, `requests` {data}), `scheduler_metrics`
  (`requests_made`, `measure_start_time`, `measure_end_time`) and `metrics.request_totals`.
The generation is told by structure (`config` / `scheduler_metrics` against `args` / `run_stats`).

Mapping (only the successful requests' distributions are read: the tool's statistics describe
them, and the errored / incomplete ones are counted, not measured): the metrics' `request_totals`
(the requests the distributions describe; the scheduler's `requests_made`, which in 0.5 also counts
requests queued and cancelled when the window closed, is only said where it differs) successful ->
`completed`, errored / incomplete -> `errored` / `incomplete`, and `failed` = errored + incomplete
(an incomplete request was cut off when the benchmark ended: it did not complete);
`requests_per_second` (successful, mean: what the console prints as requests per second) ->
`request_throughput`, `output_tokens_per_second` / `tokens_per_second` / `prompt_tokens_per_second`
-> `output_throughput` / `total_token_throughput` / `input_throughput` (the other statistics of a
rate's distribution are per-interval spreads, set aside); `request_concurrency` -> `concurrency`
(requests in flight); `request_latency` (s) -> `e2el` (ms); `time_to_first_token_ms` -> `ttft`;
`inter_token_latency_ms`, per request (last token - first token) / (output tokens - 1) -> `tpot`;
`time_per_output_token_ms`: in 0.4+ (last token - request start) / output tokens, the first token
included -> `normalized_time_per_output_token`; in 0.2 / 0.3 (last token - first token) / output
tokens, which has no tidy name and is set aside; `prompt_token_count` / `output_token_count` ->
`input_sequence_length` / `output_sequence_length` and their sums -> `total_input_tokens` /
`total_generated_tokens`; `request_streaming_iterations_count` -> `stream_iterations`,
`output_tokens_per_iteration` keeps its name; the measured window (0.4+: `measure_end_time -
measure_start_time`; 0.2: `duration`) -> `duration`. Statistics: mean, median, std_dev -> std, min,
max, p90, p95, p99. A distribution of no request (count 0) is GuideLLM's zeros, set aside. Other
metrics (modality blocks `text`, `image` ..., per-iteration token counts) are set aside by name.
The load (`strategy.type_`): `constant` / `poisson` -> request rate `rate`; `concurrent` ->
`streams` as the concurrency cap and `synchronous` cap 1, both with an unlimited rate (the next
request leaves as soon as one completes); `throughput` -> unlimited rate (the
user's `max_concurrency`, when set, as the cap: in 0.4+ the profile's, as every strategy carries a
default in-flight limit of 512).
"""

from __future__ import annotations

import json
import math
import re

import yaml

from benchbook.ingest.core import ParseError
from benchbook.ingest.serving_settings import run_settings
from benchbook.ingest.text import Lines, head, whole

OLD, NEW = "report 0.2-0.3", "report 0.4+"
EMPTY = "a GuideLLM report whose benchmarks hold no metric"

_STATS = {"mean": "mean", "median": "median", "std_dev": "std", "min": "min", "max": "max"}
_PERCENTILES = {"p90": "p90", "p95": "p95", "p99": "p99"}
#: report metric -> (tidy metric, unit, scale); rates keep only their mean, as a value.
_DISTRIBUTIONS = {
    "request_latency": ("e2el", "ms", 1000.0),
    "time_to_first_token_ms": ("ttft", "ms", 1.0),
    "inter_token_latency_ms": ("tpot", "ms", 1.0),
    "request_concurrency": ("concurrency", "req", 1.0),
    "prompt_token_count": ("input_sequence_length", "tok", 1.0),
    "output_token_count": ("output_sequence_length", "tok", 1.0),
    "request_streaming_iterations_count": ("stream_iterations", "count", 1.0),
    "output_tokens_per_iteration": ("output_tokens_per_iteration", "tok", 1.0),
}
_RATES = {
    "requests_per_second": ("request_throughput", "req/s"),
    "output_tokens_per_second": ("output_throughput", "tok/s"),
    "tokens_per_second": ("total_token_throughput", "tok/s"),
    "prompt_tokens_per_second": ("input_throughput", "tok/s"),
}
_SUMS = {"prompt_token_count": "total_input_tokens", "output_token_count": "total_generated_tokens"}
_TPOT_OLD = (
    "GuideLLM 0.2/0.3's TPOT, (last token - first token) / output tokens: no tidy name (its ITL is kept as tpot)"
)
_EMPTY_WHY = "no successful request: GuideLLM prints 0.0 for an empty distribution"


def _num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _get(d, *path):
    for k in path:
        if not isinstance(d, dict):
            return None
        d = d.get(k)
    return d


def _load(text: str, source: str):
    if text.lstrip().startswith("{"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise ParseError(source, exc.lineno, f"not valid JSON (GuideLLM report): {exc.msg}") from None
    try:
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ParseError(source, mark.line + 1 if mark else 1, "not valid YAML (GuideLLM report)") from None


def _lines(text: str, n: int) -> list[int]:
    """The line each of the `n` benchmarks starts on (YAML: its `- ` item; JSON on one line: 1)."""
    starts = [m.start() for m in re.finditer(r"^- ", text, re.M)] if not text.lstrip().startswith("{") else []
    if len(starts) < n:
        return [1] * n
    return [text.count("\n", 0, s) + 1 for s in starts[:n]]


def _counts(d: dict) -> str:
    return ", ".join(f"{d.get(k)} {k}" for k in ("successful", "errored", "incomplete"))


def load(kind: str, rate, streams) -> tuple[float, float]:
    """(request rate, concurrency cap) of a GuideLLM strategy, for every GuideLLM reader: constant,
    poisson or async at `rate`; concurrent with `streams` (NaN where not given) and synchronous (cap 1) at an unlimited rate,
    each stream sending its next request as soon as one completes; throughput at an unlimited rate
    with no cap of its own. NaN where the strategy does not say."""
    if kind in ("constant", "poisson", "async") and _num(rate):
        return float(rate), math.nan
    if kind == "concurrent":  # streams not given: capped all the same, at a cap unknown (NaN)
        return math.inf, float(streams) if _num(streams) else math.nan
    if kind == "synchronous":
        return math.inf, 1.0
    if kind == "throughput":
        return math.inf, math.nan
    return math.nan, math.nan


def _label(kind: str, rate, streams) -> str:
    if kind in ("constant", "poisson", "async") and _num(rate):
        return f"{kind}@{rate:.2f}"
    if kind == "concurrent" and _num(streams):
        return f"{kind}@{streams:g}"
    return kind or "benchmark"


def _settings(b: dict, doc: dict, fmt: str) -> dict:
    if fmt == NEW:
        strategy = _get(b, "config", "strategy")
        model = _get(b, "config", "backend", "model") or _get(doc, "args", "model")
        data = _get(doc, "args", "data")
    else:
        strategy = _get(b, "args", "strategy")
        model = _get(b, "worker", "backend_model")
        data = _get(b, "request_loader", "data")
    strategy = strategy if isinstance(strategy, dict) else {}
    kind = str(strategy.get("type_") or "")
    rate, streams = strategy.get("rate"), strategy.get("streams")
    if isinstance(data, list):
        data = ", ".join(str(x) for x in data)
    if isinstance(data, str) and re.match(r"^(?:/|~|\.{1,2}/)", data):
        data = None  # a file on the runner's machine
    request_rate, cap = load(kind, rate, streams)
    if kind == "throughput":
        # the user's cap: 0.4+ keeps it in the profile (its strategy carries a default of 512 in-flight)
        limit = _get(b, "config", "profile", "max_concurrency") if fmt == NEW else strategy.get("max_concurrency")
        if _num(limit):
            cap = float(limit)
    return run_settings(
        _label(kind, rate, streams),
        fmt,
        model=str(model) if model else None,
        dataset=str(data) if data else None,
        request_rate=request_rate,
        max_concurrency=cap,
    )


def read(text: str | Lines, source: str) -> tuple[list[dict], list[tuple[int, str, str]], list[str], str]:
    """The records, rejects, messages and version of a GuideLLM report."""
    text = whole(text)
    doc = _load(text, source)
    benchmarks = doc.get("benchmarks") if isinstance(doc, dict) else None
    if not isinstance(benchmarks, list) or not all(isinstance(b, dict) for b in benchmarks):
        raise ParseError(source, 1, "expected a GuideLLM report: a mapping with a 'benchmarks' list")
    if not benchmarks:
        raise ParseError(source, 1, "a GuideLLM report with no benchmark")
    fmt = NEW if any("config" in b or "scheduler_metrics" in b for b in benchmarks) else OLD
    version = _get(doc, "metadata", "guidellm_version")
    records: list[dict] = []
    rejects: list[tuple[int, str, str]] = []
    messages: list[str] = []
    for b, ln in zip(benchmarks, _lines(text, len(benchmarks)), strict=True):
        settings = _settings(b, doc, fmt)
        run = settings["run"]

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

        metrics = b.get("metrics") if isinstance(b.get("metrics"), dict) else {}
        # the metrics' own totals (the requests their distributions describe); the scheduler's
        # requests_made can count more (0.5: requests queued and cancelled when the window closed) or
        # fewer (GuideLLM's stripped test asset), so it is only said when it differs
        made = _get(b, "scheduler_metrics", "requests_made") or _get(b, "run_stats", "requests_made")
        totals = metrics.get("request_totals") or b.get("request_totals") or made or {}
        keys = ("successful", "errored", "incomplete")
        if isinstance(made, dict) and isinstance(totals, dict) and any(made.get(k) != totals.get(k) for k in keys):
            messages.append(
                f"{source}:{ln}: {run}: request_totals {_counts(totals)}; the scheduler's requests_made "
                f"{_counts(made)}: request_totals kept"
            )
        if isinstance(totals, dict) and _num(totals.get("successful")):
            errored, incomplete = (float(totals[k]) if _num(totals.get(k)) else 0.0 for k in ("errored", "incomplete"))
            keep("completed", "count", float(totals["successful"]), "req")
            keep("errored", "count", float(errored), "req")
            keep("incomplete", "count", float(incomplete), "req")
            keep("failed", "count", float(errored + incomplete), "req", "errored + incomplete")
            if errored + incomplete:
                messages.append(
                    f"{source}:{ln}: {run}: {errored:g} errored and {incomplete:g} incomplete of "
                    f"{errored + incomplete + totals['successful']:g} requests"
                )
        start, end = (
            _get(b, "scheduler_metrics", "measure_start_time"),
            _get(b, "scheduler_metrics", "measure_end_time"),
        )
        if fmt == NEW and _num(start) and _num(end):
            keep("duration", "value", float(end - start), "s", "measure_end_time - measure_start_time")
        elif _num(b.get("duration")):
            keep("duration", "value", float(b["duration"]), "s")
        for name, summary in metrics.items():
            if name == "request_totals":
                continue
            dist = summary.get("successful") if isinstance(summary, dict) else None
            where = f"{run} metrics.{name}"
            if not isinstance(dist, dict) or not any(k in dist for k in ("mean", "count")):
                rejects.append(
                    (ln, where, "a metric this parser has no tidy name for (not a distribution of requests)")
                )
                continue
            if name == "time_per_output_token_ms" and fmt == OLD:
                rejects.append((ln, f"{where}.successful.mean: {dist.get('mean')}", _TPOT_OLD))
                continue
            if dist.get("count") == 0:
                rejects.append((ln, f"{where}.successful: count 0", _EMPTY_WHY))
                continue
            if name in _RATES:
                metric, unit = _RATES[name]
                if _num(dist.get("mean")):
                    keep(metric, "value", float(dist["mean"]), unit, f"{name}.successful.mean")
                continue
            if name == "time_per_output_token_ms":
                hit = ("normalized_time_per_output_token", "ms", 1.0)
            else:
                hit = _DISTRIBUTIONS.get(name)
            if hit is None:
                rejects.append((ln, where, "a metric this parser has no tidy name for"))
                continue
            metric, unit, scale = hit
            note = "converted from s" if scale != 1.0 else None
            for key, stat in _STATS.items():
                if _num(dist.get(key)):
                    keep(metric, stat, float(dist[key]) * scale, unit, note)
            pct = dist.get("percentiles") if isinstance(dist.get("percentiles"), dict) else {}
            for key, stat in _PERCENTILES.items():
                if _num(pct.get(key)):
                    keep(metric, stat, float(pct[key]) * scale, unit, note)
            if name in _SUMS and _num(dist.get("total_sum")):
                keep(_SUMS[name], "count", float(dist["total_sum"]), "tok", f"{name}.successful.total_sum")
    return records, rejects, messages, f"{fmt}" + (f", guidellm {version}" if version else "")


_MARKERS = ("guidellm_version", "strategy_index", "generative_benchmark", "time_to_first_token_ms", "run_stats")


def sniff(text: str | Lines) -> bool:
    start = head(text, 8192)
    s = start.lstrip()
    opens = s.startswith("{") and re.match(r'\{\s*"(?:metadata|benchmarks)"', s) is not None
    opens = opens or s.startswith("benchmarks:")
    return opens and any(m in start for m in _MARKERS)
