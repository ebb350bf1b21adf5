"""The ML.ENERGY leaderboard's per-model summary JSON (v3, 2025-26: `public/data/models/
<org>__<model>__<task>.json` of ml-energy/leaderboard, built by its scripts/build_data.py), read
for the `ml-energy` tool.

One file per model and task: `model_id`, `weight_precision` (kept in the `precision` column),
`activated_params_billions`, and a list
of `configurations`, one per GPU model, GPU count and batch cap: `gpu_model` ("H100", "B200"),
`num_gpus`, `max_num_seqs` (the server's batch cap), `parallelization` (tensor, expert, data
parallel), `avg_batch_size` (the running batch it held), `avg_power_watts`,
`energy_per_token_joules`, `energy_per_request_joules`, `output_throughput_tokens_per_sec`,
`avg_output_len`, inter-token latency percentiles (`median_itl_ms`, `p90_itl_ms`, `p95_itl_ms`,
`p99_itl_ms`: the contract's `itl` at those statistics) and a histogram of output lengths.

What the numbers are (the leaderboard's About page): GPU energy measured with Zeus, at steady state
("after the server reaches thermal and throughput equilibrium"), per output token. The file's own
numbers fix the rest: `avg_power_watts` / `output_throughput_tokens_per_sec` equals
`energy_per_token_joules` in every configuration, so the power is that of all `num_gpus` GPUs
together and the energy is per output token. The running batch has no column in the energy
contract and is set aside with the reason; the histogram is not read.

Two configurations that share every setting (GPU model and count, `max_num_seqs`, parallelism; and the model in
a per-task file) are two measurements of one configuration (the gpt-oss-20b GPQA file lists H100 x 1 at
`max_num_seqs` 96 twice): repeats, their spread that point's noise, never two configurations to rank. The
second is named `..., repeat 2` and both carry the configuration (`configuration`), as a rerun row of Zeus's
CSV does.

The same build writes one file per task (`public/data/tasks/<task>.json`: `task`,
`task_display_name` and `configurations`), every model's configurations on that task in one list,
each configuration carrying what the per-model file holds at its top (`model_id`, `nickname`,
`weight_precision`, `activated_params_billions`, `total_params_billions`, `architecture`) and its
parallelism as flat keys (`tensor_parallel`, `expert_parallel`, `data_parallel`). Each is read
as the per-model file's configuration of that model, its label naming the model.
"""

from __future__ import annotations

import re

from benchbook.ingest import energy
from benchbook.ingest.core import ParseError

#: Configuration key -> (contract metric, unit, scope, statistic).
KEYS = {
    "energy_per_token_joules": ("energy_per_output_token", "J/tok", "gpu", "value"),
    "energy_per_request_joules": ("energy_per_request", "J", "gpu", "mean"),
    "avg_power_watts": ("mean_power", "W", "gpu", "mean"),
    "output_throughput_tokens_per_sec": ("output_throughput", "tok/s", None, "value"),
    "avg_output_len": ("output_tokens_per_request", "tok", None, "mean"),
    "median_itl_ms": ("itl", "ms", None, "median"),
    "p90_itl_ms": ("itl", "ms", None, "p90"),
    "p95_itl_ms": ("itl", "ms", None, "p95"),
    "p99_itl_ms": ("itl", "ms", None, "p99"),
}
#: Settings, not measurements: kept in their columns or the run's label.
SETTINGS_KEYS = {"gpu_model", "num_gpus", "max_num_seqs", "parallelization", "output_length_distribution"}
#: A per-task file's configuration: the model's own facts, and its parallelism as flat keys.
TASK_KEYS = {"model_id", "nickname", "architecture", "weight_precision", "activated_params_billions"}
TASK_KEYS |= {"total_params_billions", "tensor_parallel", "expert_parallel", "data_parallel"}
_PARALLEL = ("tensor_parallel", "expert_parallel", "data_parallel")
_KEY = re.compile(r'^\s*"(\w+)"\s*:')


def is_v3(obj) -> bool:
    return isinstance(obj, dict) and isinstance(obj.get("configurations"), list) and "model_id" in obj


def is_task(obj) -> bool:
    """A per-task file: `task` and configurations that each name their model."""
    configs = obj.get("configurations") if isinstance(obj, dict) else None
    return (
        isinstance(configs, list)
        and "task" in obj
        and bool(configs)
        and all(isinstance(c, dict) and "model_id" in c for c in configs)
    )


def key_lines(body: str) -> dict[str, list[int]]:
    """Each key's lines, in order: the k-th configuration's key is the k-th such line."""
    out: dict[str, list[int]] = {}
    for n, line in enumerate(body.split("\n"), start=1):
        m = _KEY.match(line)
        if m:
            out.setdefault(m[1], []).append(n)
    return out


def _label(c: dict) -> str:
    par = c.get("parallelization") if isinstance(c.get("parallelization"), dict) else {}
    par = par or {k: c[k] for k in _PARALLEL if k in c}  # a per-task file's flat keys
    kinds = [
        f"{short} {par[k]}"
        for k, short in (("tensor_parallel", "TP"), ("expert_parallel", "EP"), ("data_parallel", "DP"))
        if isinstance(par.get(k), int) and par[k] > 1
    ]
    gpus = f"{c.get('num_gpus')}x {c.get('gpu_model')}"
    if isinstance(c.get("model_id"), str):  # a per-task file: configurations of several models
        gpus = f"{c['model_id']} on {gpus}"
    return f"{gpus}{' (' + ', '.join(kinds) + ')' if kinds else ''}, max_num_seqs {c.get('max_num_seqs')}"


#: The model's size the file states, in billions of parameters: total and active (an MoE's routed share).
_SIZE_KEYS = ("total_params_billions", "activated_params_billions")


def _billions(v) -> float | None:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) and v > 0 else None


def parse(obj: dict, body: str, source: str) -> tuple[list[dict], list[tuple[int, str, str]], int, list[str]]:
    """(records, rejects, cells, messages) of a v3 per-model or per-task file."""
    lines = key_lines(body)
    task = is_task(obj)
    settings = SETTINGS_KEYS | TASK_KEYS if task else SETTINGS_KEYS
    top_model = obj.get("model_id") if isinstance(obj.get("model_id"), str) else None
    top_precision = obj.get("weight_precision") if isinstance(obj.get("weight_precision"), str) else None
    records, rejects, cells = [], [], 0
    seen: dict[str, int] = {}
    configs = obj["configurations"]
    times: dict[str, int] = {}
    for c in configs:
        if isinstance(c, dict):
            times[_label(c)] = times.get(_label(c), 0) + 1
    met: dict[str, int] = {}
    for k, c in enumerate(configs):
        if not isinstance(c, dict):
            raise ParseError(source, lines.get("configurations", [1])[0], f"configuration {k + 1} is not an object")
        label = _label(c)
        met[label] = met.get(label, 0) + 1
        at = {
            key: (lines.get(key, [1])[seen.get(key, 0)] if seen.get(key, 0) < len(lines.get(key, [])) else 1)
            for key in c
        }
        for key in c:
            seen[key] = seen.get(key, 0) + 1
        count = c.get("num_gpus")
        model = c.get("model_id") if task and isinstance(c.get("model_id"), str) else top_model
        precision = c.get("weight_precision") if task and isinstance(c.get("weight_precision"), str) else top_precision
        sizes = {key: _billions(c.get(key) if task and key in c else obj.get(key)) for key in _SIZE_KEYS}
        base = dict(
            run=label if met[label] == 1 else f"{label}, repeat {met[label]}",
            configuration=label if times[label] > 1 else None,
            model=model,
            device=c.get("gpu_model") if isinstance(c.get("gpu_model"), str) else None,
            device_count=float(count) if isinstance(count, int) and not isinstance(count, bool) else None,
            backend=None,
            batch_size=float(c["max_num_seqs"]) if isinstance(c.get("max_num_seqs"), int) else None,
            request_rate=None,
            interval="steady_state",
            precision=precision,
            params_b=sizes["total_params_billions"],
            active_params_b=sizes["activated_params_billions"],
        )
        for key, v in c.items():
            if key in settings or isinstance(v, bool) or not isinstance(v, (int, float)):
                continue
            cells += 1
            if key not in KEYS:
                why = (
                    "the running batch the server held (batch_size holds max_num_seqs, its cap): not in the energy contract"
                    if key == "avg_batch_size"
                    else f"key {key!r} (a latency or another figure) is not in the energy contract"
                )
                rejects.append((at[key], f"{key} {v}", why))
                continue
            metric, unit, scope, stat = KEYS[key]
            # power / throughput = J per output token in every row: the power, so the energy, is all num_gpus GPUs'
            note = energy.SUMMED.format(base["device_count"]) if scope and base["device_count"] else None
            records.append(
                dict(
                    base, scope=scope, line=at[key], metric=metric, statistic=stat, value=float(v), unit=unit, note=note
                )
            )
    messages = []
    if "output_length_distribution" in obj:
        messages.append(f"{source}: the histograms of output lengths (bins and counts) are not read")
    return records, rejects, cells, messages
