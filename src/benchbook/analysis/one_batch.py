"""SGLang `bench_one_batch` as points of the batch_saturation chapter (numbers only).

The tool (python/sglang/bench_one_batch.py, `latency_test_run_once`) runs one static batch of
`batch_size` sequences without a server: one prefill of the batch's prompts, then output_len - 1
decode steps, each timed alone, and prints their median. That median is the chapter's step time
itself: one decode step of the whole batch, one new token per sequence, so it is not a whole run
divided by its new tokens (prefill is not in it). Its throughput, batch_size / median step, is the
batch's decode tok/s. A configuration with output_len 1 has no decode step and is no point.

A series is one run name (`--run-name`, the label a user gives a setting under test) at one input
and output length (the KV cache a step reads grows with the context): two of them are two curves,
never one. A console whose command line gives no single lengths runs the product of its lists, so
each of its runs is its own series. The output names no GPU; the model and the TP only where a
command line above the console gives them; the weights' precision only where the model's name
says it (nothing is assumed: `--dtype auto` loads the checkpoint's).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook import hardware
from benchbook.analysis import precision, roofline
from benchbook.analysis.batch import UNSTATED, with_named_gpu

TOOL = "sglang-bench-one-batch"
#: How the chapter names this tool's series.
FRAMEWORK = "sglang"
#: What a point's time is: one decode step (`timed` of the chapter's sweep; a generate() call's rows
#: leave it empty).
STEP = "decode step"
#: bench_one_batch_server's report: its ITL, batch / output throughput, is the mean step of the decode
#: phase (batch x output_len / (latency - TTFT) tokens per second), no step timed alone.
MEAN_STEP = "mean decode step"
_KEYS = ["source", "run_name", "run", "rep", "batch_size", "input_len", "output_len"]
#: The columns of a tool's points: those of `analysis.batch.sweep`, the prefill and whole run beside them.
COLUMNS = [
    "model",
    "framework",
    "gpu",
    "dtype",
    "variant",
    "dtype_assumed",
    "bytes_per_weight",
    "batch_size",
    "throughput_tok_s",
    "tool_ms_per_token",
    "latency_s",
    "conflict",
    "new_tokens",
    "per_sequence_ms_per_token",
    "has_result",
    "devices",
    "timed",
    "input_len",
    "output_len",
    "prefill_s",
    "prefill_tok_s",
    "total_s",
    "total_tok_s",
]


def _variant(r: dict, runs: int, names: int) -> str:
    """The settings that tell this point's series apart, as the page names them."""
    parts = [f"run {r['run_name']}" if names > 1 else ""]
    if pd.notna(r.get("input_len")) and pd.notna(r.get("output_len")):
        parts.append(f"input {int(r['input_len'])}, output {int(r['output_len'])}")
    elif pd.notna(r.get("input_len")):  # bench_one_batch_server's report prints the input length alone
        parts.append(f"input {int(r['input_len'])}")
    elif runs > 1:  # a console whose command gives no single lengths: its runs may differ in them
        parts.append(f"run {int(r['run'])}")
    return ", ".join(x for x in parts if x)


def keyed(d: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """`d` with `_key`, the tuple of `keys` that names one measurement (a missing key as None, so it groups)."""
    k = d[keys].astype(object).where(d[keys].notna(), None)
    return d.assign(_key=list(map(tuple, k.values.tolist())))


def measurements(d: pd.DataFrame, stated: dict | None = None):
    """Each measurement of a `keyed` long table: its values by metric, its first row, the model it names and
    that model's weights (no precision assumed; `stated`, per source, the names the rest of its file gives
    them: `precision.stated_names`), for a tool's own points in the sweep's columns."""
    for _, g in d.groupby("_key", sort=False):
        first = g.iloc[0].to_dict()
        model = first.get("model") if isinstance(first.get("model"), str) else ""
        names = (stated or {}).get(first.get("source"), ())
        yield dict(zip(g["metric"], g["value"], strict=True)), first, model, _weights(model, names)


def _weights(model: str, names) -> precision.Weights:
    """The weights of a point (no precision assumed): a quantized name first (`precision.weights`), else an
    unquantized dtype the file states (SGLang's loader line `dtype=torch.bfloat16`), unless the model table
    says the model's checkpoint is quantized (its loader then logs the compute dtype, not the weights')."""
    w = precision.weights(model, assume=False, stated=names)
    if w.precision is not None:
        return w
    size = hardware.model_size(model) if model else None
    ck = size.checkpoint_precision if size is not None else None
    plain = precision.tagged(*[n for n in names if (t := precision.tagged(n)) and t[0] in precision.UNQUANTIZED])
    if plain is None or (ck and ck not in precision.UNQUANTIZED):
        return w
    return precision.Weights(plain[0], roofline.bytes_per_weight(plain[0]), "file", plain[1])


def sweep(df: pd.DataFrame, stated: dict | None = None) -> pd.DataFrame:
    """One row per measured configuration (a repeat is a row of its own) in the columns of
    `analysis.batch.sweep`: throughput the median decode tok/s, latency the median decode step
    (`new_tokens` 1: a step gives each sequence one token, `timed` "decode step"), no "msec/token"
    (the tool prints none); the run's prefill (`prefill_s`, `prefill_tok_s`: input_len x batch / prefill)
    and total (`total_s`, `total_tok_s`: (input_len + output_len) x batch / total) kept beside it."""
    d = df[df["tool"] == TOOL] if "tool" in df else df.iloc[0:0]
    if d.empty:
        return pd.DataFrame(columns=COLUMNS)
    d = d.copy()
    for k in _KEYS:
        if k not in d:
            d[k] = np.nan
    d["run_name"] = d["run_name"].fillna("")
    d = keyed(d, _KEYS)
    runs, names = d["_key"].nunique(), d["run_name"].nunique()
    rows = []
    for val, first, model, w in measurements(d, stated):
        step, tput = val.get("decode_latency"), val.get("decode_throughput")
        if step is None and tput and first.get("format") == "server_report" and pd.notna(first["batch_size"]):
            # bench_one_batch_server's output throughput is batch x output_len / (latency - TTFT), one token a
            # sequence per step: its mean step is batch / output throughput, the ITL column a report may omit
            step = float(first["batch_size"]) / float(tput)
        if step is None or tput is None or pd.isna(first["batch_size"]):
            continue
        tp = first.get("tp")
        rows.append(
            dict(
                model=model,
                framework=FRAMEWORK,
                gpu="",
                dtype=w.precision or UNSTATED,
                variant=_variant(first, runs, names),
                dtype_assumed=False,
                bytes_per_weight=w.bytes_per_weight,
                batch_size=int(first["batch_size"]),
                throughput_tok_s=float(tput),
                tool_ms_per_token=np.nan,
                latency_s=float(step),
                conflict=False,
                new_tokens=1.0,
                per_sequence_ms_per_token=float(step) * 1000.0,
                has_result=True,
                devices=float(tp) if pd.notna(tp) else np.nan,
                timed=MEAN_STEP if first.get("format") == "server_report" else STEP,
                input_len=first.get("input_len"),
                output_len=first.get("output_len"),
                prefill_s=val.get("prefill_latency", np.nan),
                prefill_tok_s=val.get("prefill_throughput", np.nan),
                total_s=val.get("total_latency", np.nan),
                total_tok_s=val.get("overall_throughput", np.nan),
            )
        )
    return pd.DataFrame(rows, columns=COLUMNS)


def with_sweep(sw: pd.DataFrame, df: pd.DataFrame, stated: dict | None = None) -> pd.DataFrame:
    """`analysis.batch.sweep`'s table `sw` with this tool's points of `df` added (`with_points`); `stated` as
    `measurements` reads it."""
    return with_points(sw, sweep(df, stated))


def with_points(sw: pd.DataFrame, own: pd.DataFrame) -> pd.DataFrame:
    """The sweep `sw` with a tool's own points `own` (in `COLUMNS`) added, the GPU each label names
    (`with_named_gpu`) recomputed over both."""
    if own.empty:
        return sw
    rest = sw.drop(columns=["named_gpu"], errors="ignore")
    both = pd.concat([rest, own], ignore_index=True) if len(rest) else own
    return with_named_gpu(both)
