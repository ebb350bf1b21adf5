"""The `inference-energy` tool's reports (github.com/chuyishang/inference-energy): NVML power
sampled every 0.1 s on one GPU while a load generator drives a vLLM server.

Two outputs: the console report `run_measurement.py` prints ("MEASUREMENT COMPLETE", then M1-M10,
D1-D4 and "ADDITIONAL CONTEXT"; several may be pasted into one file under `# <machine> (<GPU>)`
and `### <model>` headings) and the `summary.json` it writes (`M1_total_energy_J`, ...). A file is
that summary only when it is a JSON document; a console session echoes the summary before each
report (`inference-energy analyze` prints it), so there it is the same figures again.

The first version (commit 84fbd83 of the repository) wrote fewer keys (`duration_s`,
`total_energy_J`, `active_energy_J`, `total_completion_tokens`, `energy_per_completion_token_J`) and
printed them under "Key metrics:". Its energy per token is active energy / completion tokens (idle
taken out; `attribute_energy` in that version's analysis.py), not D1's total energy / tokens: it is
set aside, and the chapter divides the kept energies by the kept tokens itself.

What the numbers are (inference_energy/analysis.py): M1 total energy is the trapezoid integral of
the GPU's power samples over the whole power log, which runs 30 s longer than the load (so it
includes an unloaded tail); M2 "total tokens" is the completion (output) tokens of the
successful requests only; M3 is the power log's length; D1 = M1 / M2 (idle not subtracted);
"Active energy" = M1 - idle power x M3, where idle power is the mean of a separate 5-minute
measurement with no server running. M4 and M5 are the tool's own estimates (prefill = 20% of mean
latency) and D4 follows from them and from a model size typed on the command line: they are set
aside, as are the repeats of a figure in other units (kWh, minutes, J/1K tokens).
"""

from __future__ import annotations

import json
import re

from benchbook.ingest import energy
from benchbook.ingest.core import Parsed, ParseError, Tool, register
from benchbook.ingest.text import Lines, head, split_n, whole

NAME = "inference-energy"

#: Console label (or summary.json key) -> (metric, unit, scope, statistic, scale to the unit).
_FIELDS = {
    "Total energy": ("energy", "J", "gpu", "value", 1.0),
    "Total tokens": ("output_tokens", "tok", None, "value", 1.0),
    "Total time": ("duration", "s", None, "value", 1.0),
    "Average power": ("mean_power", "W", "gpu", "mean", 1.0),
    "Peak power": ("peak_power", "W", "gpu", "max", 1.0),
    "Completion tokens": ("output_tokens", "tok", None, "value", 1.0),
    "Avg GPU utilization": ("gpu_utilization", "%", None, "mean", 1.0),
    "Avg memory utilization": ("memory_utilization", "%", None, "mean", 1.0),
    "Energy per token": ("energy_per_output_token", "J/tok", "gpu", "value", 1.0),
    "Throughput": ("output_throughput", "tok/s", None, "value", 1.0),
    "Idle power": ("idle_power", "W", "gpu", "mean", 1.0),
    "Active energy": ("energy_active", "J", "gpu", "value", 1.0),
    "Total requests": ("requests_sent", "req", None, "value", 1.0),
    "Successful requests": ("requests", "req", None, "value", 1.0),
    "Average latency": ("e2el", "ms", None, "mean", 1000.0),
}
_JSON_KEYS = {
    "M1_total_energy_J": "Total energy",
    "M2_total_tokens": "Total tokens",
    "M3_total_time_s": "Total time",
    "M6_avg_power_W": "Average power",
    "M7_peak_power_W": "Peak power",
    "M8_avg_gpu_util_percent": "Avg GPU utilization",
    "M9_avg_mem_util_percent": "Avg memory utilization",
    "D1_energy_per_token_J": "Energy per token",
    "D2_throughput_tokens_per_s": "Throughput",
    "idle_power_W": "Idle power",
    "active_energy_J": "Active energy",
    "total_requests": "Total requests",
    "successful_requests": "Successful requests",
    "avg_latency_s": "Average latency",
    # the first version's keys
    "duration_s": "Total time",
    "total_energy_J": "Total energy",
    "total_completion_tokens": "Total tokens",
}
_ESTIMATES = {
    "Avg prefill time": "the tool's estimate (20% of the mean latency), not a measurement",
    "Avg decode time/token": "the tool's estimate from the prefill estimate, not a measurement",
    "Memory bandwidth util": "derived from estimated decode time and a model size typed on the command line",
    "GPU memory total": "the device's memory size, not a measurement of the run",
    "FLOPs measured": "not measured by this run",
    "Power efficiency": "not measured by this run",
    "Active energy per token": "the first version's active energy / completion tokens, from the figures kept",
}
_JSON_ESTIMATES = {
    "M4_avg_prefill_time_s": "Avg prefill time",
    "M5_avg_decode_time_per_token_s": "Avg decode time/token",
    "D4_memory_bandwidth_util_percent": "Memory bandwidth util",
    "mem_total_GB": "GPU memory total",
    "M10_flops_measured": "FLOPs measured",
    "D3_power_efficiency_flops_per_W": "Power efficiency",
    "energy_per_completion_token_J": "Active energy per token",
}
_ROW_RE = re.compile(r"^(?:[MD]\d+\s+)?(?P<label>[A-Za-z][A-Za-z /]*?):\s+(?P<rest>.*)$")
#: A number as the report prints it, thousands separators included (`523,341`).
_NUM_RE = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?(?![\w.])")
_MACHINE_RE = re.compile(r"^#\s+(?P<name>[^#(]+?)\s*(?:\((?P<gpu>[^)]*)\))?\s*$")
_SAVED_RE = re.compile(r"^Results saved to:\s*(?P<dir>\S+)")
BANNER = "PRIMARY MEASUREMENTS (M1-M10)"
#: The first version's console heading of its figures (run_measurement.py at commit 84fbd83).
KEY_METRICS = "Key metrics:"
_SUMMARY_KEYS = ('"M1_total_energy_J"', '"energy_per_completion_token_J"')
_ECHO_RE = re.compile(r'^(?:[{}],?|"[A-Za-z0-9_]+":\s.*)$')


def sniff(text: str | Lines) -> bool:
    start = head(text, 6000)
    return BANNER in start or KEY_METRICS in start or any(k in start for k in _SUMMARY_KEYS)


def parse(text: str | Lines, source: str) -> Parsed:
    """A JSON document is the summary.json; a text with a report's markers is a console report or session,
    even when it opens with the summary the tool echoes."""
    body = whole(text)
    if body.lstrip().startswith("{") and not any(k in body for k in (BANNER, KEY_METRICS, "Results saved to:")):
        return _parse_json(body, source)
    return _parse_console(split_n(text), source)


def _base(run: str, model: str | None, device: str | None) -> dict:
    return dict(
        run=run,
        model=model,
        device=device,
        device_count=1.0,
        backend=None,
        batch_size=None,
        request_rate=None,
        interval="run",
    )


def _record(base: dict, label: str, value: float, line: int) -> dict:
    metric, unit, scope, stat, scale = _FIELDS[label]
    note = "printed in s" if scale != 1.0 else None
    if metric == "output_tokens":
        note = "completion tokens of successful requests"
    return dict(base, scope=scope, line=line, metric=metric, statistic=stat, value=value * scale, unit=unit, note=note)


def _parse_console(lines, source: str) -> Parsed:
    records, rejects, messages, cells = [], [], [], 0
    device, model, base = None, None, None
    seen: set[str] = set()
    key_metrics = False  # inside the first version's "Key metrics:" block
    last_row = 0  # the line of the last "label: value" row
    for i, raw in enumerate(lines, start=1):
        s = raw.strip()
        if not s or set(s) <= {"=", "#"}:
            continue
        if s == KEY_METRICS or BANNER in s:
            key_metrics = s == KEY_METRICS
            continue
        if _ECHO_RE.match(s):  # the summary.json echoed before the report
            nums = _NUM_RE.findall(s.split(":", 1)[-1])
            cells += len(nums)
            rejects += [
                (i, s, "the summary.json the tool echoes: the figures of the report that follows") for _ in nums
            ]
            continue
        if s.startswith("### "):
            model, base = s[4:].strip(), None
            continue
        m = _MACHINE_RE.match(s)
        if m and not s.startswith("##"):
            device = (m["gpu"] or m["name"]).strip()
            continue
        m = _SAVED_RE.match(s)
        if m:
            folder = m["dir"].rstrip("/").rsplit("/", 1)[-1]
            label = f"{model} on {device}" if model and device else folder
            label = f"{label} ({folder})" if label in seen else label  # a configuration run twice stays two runs
            label = (
                next(f"{label} #{k}" for k in range(2, len(seen) + 3) if f"{label} #{k}" not in seen)
                if label in seen
                else label
            )
            seen.add(label)
            base = _base(label, model, device)
            continue
        m = _ROW_RE.match(s)
        if m is None:
            nums = _NUM_RE.findall(s)
            cells += len(nums)  # a continuation line (J/1K tokens) right under a row, else a command or progress
            why = "the figure above in other units (a repeat)" if last_row == i - 1 else "text outside a report"
            rejects += [(i, s, why) for _ in nums]
            continue
        label, rest = m["label"].strip(), m["rest"]
        nums = _NUM_RE.findall(rest)
        if not nums:
            continue
        last_row = i
        cells += len(nums)
        if base is None:  # the session's progress output (idle measurement, warmup) before its report
            rejects += [(i, s, "progress output before the report ('Results saved to:')") for _ in nums]
            continue
        if key_metrics and label == "Energy per token":
            reason = _ESTIMATES["Active energy per token"]
            rejects += [(i, s, reason) for _ in nums]
        elif label in _FIELDS:
            records.append(_record(base, label, float(nums[0].replace(",", "")), i))
            rejects += [(i, s, "the same figure in other units (a repeat)") for _ in nums[1:]]
        else:
            reason = _ESTIMATES.get(label, f"line {label!r} is not in the energy contract")
            rejects += [(i, s, reason) for _ in nums]
    if not records:
        raise ParseError(source, 1, f"no measurement under a '{BANNER}' banner or '{KEY_METRICS}'")
    return energy.finish(TOOL, source, records, rejects, messages, cells, "console report")


def _parse_json(body: str, source: str) -> Parsed:
    try:
        obj = json.loads(body)
    except json.JSONDecodeError as exc:
        raise ParseError(source, exc.lineno, f"not valid JSON ({exc.msg})") from None
    lines = {k: n for n, s in enumerate(body.split("\n"), start=1) for k in obj if s.strip().startswith(f'"{k}"')}
    base = _base("summary", None, None)
    records, rejects, cells = [], [], 0
    for key, v in obj.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            continue
        cells += 1
        ln = lines.get(key, 1)
        if key in _JSON_KEYS:
            records.append(_record(base, _JSON_KEYS[key], float(v), ln))
        else:
            label = _JSON_ESTIMATES.get(key)
            rejects.append(
                (ln, f"{key} {v}", _ESTIMATES[label] if label else f"key {key!r} is not in the energy contract")
            )
    messages = [f"{source}: summary.json names neither the model nor the GPU"]
    return energy.finish(TOOL, source, records, rejects, messages, cells, "summary.json")


TOOL = register(
    Tool(
        name=NAME,
        settings=energy.SETTINGS,
        sniff=sniff,
        parse=parse,
        description="inference-energy NVML reports (console M1-M10/D1-D4 report or summary.json: total and active "
        "GPU energy, idle power, J/token)",
        command="python run_measurement.py --endpoint URL --model MODEL (github.com/chuyishang/inference-energy)",
        metrics={m: energy.METRICS[m] for m in ("energy", "energy_active", "idle_power", "output_tokens")},
        facts=energy.table_facts,
    )
)
