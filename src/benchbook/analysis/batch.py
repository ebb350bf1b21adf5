"""Batch saturation: throughput vs batch size from bigcode-inference-benchmark sweeps (numbers only).

The sweep raises the batch of one `generate()` call (NEW_TOKENS new tokens per sequence) until
memory runs out. The tool's "msec/token" is 1000 / aggregate throughput; the time a user waits per
token is latency / new tokens.

The roofline of one decode step, weights only: a step of batch b reads every weight once
(params x bytes per parameter) and does 2 x params x b FLOPs, so its intensity is
2 x b / bytes per parameter FLOP/byte. The step time is latency / NEW_TOKENS (the prompt's prefill,
a few tokens here, is counted in with the steps). Achieved bandwidth = weight bytes / step time;
achieved compute = 2 x params x throughput. Both ignore the KV cache and activations, so the bytes
are a lower bound.
"""

from __future__ import annotations

import dataclasses
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd

from benchbook import hardware
from benchbook.analysis import precision, roofline
from benchbook.analysis.pareto import fraction_of_peak
from benchbook.analysis.roofline import detect
from benchbook.ingest import hf_batch
from benchbook.ingest.core import conflicts as ingest_conflicts

#: New tokens per sequence per generate() call (bigcode-inference-benchmark src/utils.py default
#: --max_new_tokens).
NEW_TOKENS = 100

#: Weight-only quantization (torchao int8wo, w4a16): narrow weights, matmuls in the activations' dtype,
#: which the output does not state (no compute peak is set against them).
WEIGHT_ONLY = ("int8 weight-only", "int4 weight-only")
#: Bytes per weight of each dtype column the tool prints (int8 is LLM.int8(): int8 weights), from the
#: roofline's one table.
BYTES_PER_PARAM = {
    d: roofline.bytes_per_weight(d) for d in ("fp32", "bf16", "fp16", "fp8", "int8", "int4", *WEIGHT_ONLY)
}

#: The precision whose peak bounds each dtype's matmuls (fp32 without tensor cores).
PRECISION = {"fp32": "fp32", "bf16": "bf16", "fp16": "fp16", "fp8": "fp8", "int8": "int8"}
PRECISION.update(dict.fromkeys(WEIGHT_ONLY))

#: The bigcode README's configurations for bare architecture names in its tables (rows of
#: data/models.csv); used only when the output prints no total_params, and said so.
TOOL_CONFIGS = {"bloom": "bloom-1b"}

#: A series: one curve of throughput against batch size. The GPU is part of it: one file may hold the
#: same model, framework and dtype swept on two GPUs, and their points must never share a curve.
#: `variant` holds every other setting that tells two runs apart (a vLLM run's --quantization and
#: --kv-cache-dtype; "" for none): two runs at one batch that differ in one are two series.
SERIES = ["model", "framework", "gpu", "dtype", "variant"]
#: A sweep row over several GPUs whose split the output does not state (a BLOOM write-up's `4xA100
#: 80GB`): tensor parallel works them together (their summed roofs), accelerate's device_map one layer
#: block at a time (one GPU's roofs), so no roof is the run's and every share of a peak is withheld.
SPLIT_UNSTATED = "not stated"
#: What a series' label names besides the GPU (the GPU only when `named_gpu` says so).
_NAME = ["model", "framework", "dtype", "variant"]
#: How a label names a series swept on several GPUs, one of them not named in the output.
UNNAMED_GPU = "an unnamed GPU"
_KEYS = ["model", "framework", "gpu", "dtype", "batch_size"]
_METRICS = {"throughput": "throughput_tok_s", "ms_per_token": "tool_ms_per_token", "latency": "latency_s"}


def conflicts(df: pd.DataFrame) -> pd.DataFrame:
    """Configurations (model, framework, gpu, dtype, batch size) given more than once with
    different values of one metric across the input files (`ingest.core.conflicts`; a single file's
    conflicts are already set aside by the parser): one row each with the metric, the values and
    their lines. Identical repeats are not conflicts."""
    d = df[df["tool"] == "hf-batch-sweep"].fillna({"model": "", "framework": "", "gpu": ""})
    if d.empty:  # the offline tools print one value per run: nothing to conflict across files here
        return pd.DataFrame(columns=_KEYS + ["metric", "values", "lines"])
    rows = [
        dict(zip(_KEYS + ["metric"], key, strict=True), values=sorted(set(g["value"])), lines=sorted(set(g["line"])))
        for key, g in ingest_conflicts(d, _KEYS).groupby(_KEYS + ["metric"], sort=False)
    ]
    return pd.DataFrame(rows, columns=_KEYS + ["metric", "values", "lines"])


def sweep(df: pd.DataFrame, stated: dict | None = None) -> pd.DataFrame:
    """One row per (model, framework, gpu, dtype, batch_size) with throughput_tok_s,
    tool_ms_per_token, latency_s and per_sequence_ms_per_token (= latency / new tokens x 1000);
    `stated`: per source, the names the rest of its file gives the weights (`precision.stated_names`),
    the precision of a vLLM bench latency run as `offline_runs` reads it.
    Batch sizes with no result (oom, blank) are kept with NaN and `has_result` False; a
    configuration printed twice with different values (see `conflicts`) is kept with NaN and
    `conflict` True, never by picking one of the two."""
    d = df[df["tool"] == "hf-batch-sweep"].copy()
    d.attrs = {}
    off = offline_sweep(offline_runs(df, stated))  # vLLM bench latency runs: one point per --batch-size
    if d.empty:
        return with_named_gpu(off)
    for k in ("model", "framework", "gpu"):
        d[k] = d[k].fillna("")
    bad = conflicts(df)
    bad_keys = set(map(tuple, bad[_KEYS].astype(object).values.tolist()))
    g = d.groupby(_KEYS + ["metric"], sort=False)["value"]
    first = g.first().where(g.nunique() <= 1)  # first non-null value when all non-null values agree
    w = first.unstack("metric").reindex(columns=list(_METRICS)).rename(columns=_METRICS).reset_index()
    w.columns.name = None
    w["batch_size"] = w["batch_size"].astype(int)
    # a table of msec/token alone (a BLOOM write-up's) gives the rate as its inverse, bigcode's definition
    w["throughput_tok_s"] = w["throughput_tok_s"].fillna(1000.0 / w["tool_ms_per_token"])
    # the GPUs a row's hardware counts (`4xA100 80GB`), its split over them not stated (`SPLIT_UNSTATED`)
    keys = list(map(tuple, w[_KEYS].astype(object).values.tolist()))
    spans = d.groupby(_KEYS, sort=False)["devices"].first() if "devices" in d else pd.Series(dtype=float)
    w["devices"] = [spans.get(k, np.nan) for k in keys]
    w["devices"] = pd.to_numeric(w["devices"], errors="coerce").astype(float)
    w["split"] = np.where(w["devices"] > 1, SPLIT_UNSTATED, "")
    w["conflict"] = [tuple(r) in bad_keys for r in w[_KEYS].astype(object).values.tolist()]
    # a BLOOM write-up's time-per-token table states no new tokens per sequence (bigcode's are 100)
    tables = d.groupby(_KEYS, sort=False)["table"].first() if "table" in d else pd.Series(dtype=object)
    w["format"] = [tables.get(k, "") for k in keys]
    w["new_tokens"] = np.where(w["format"] == hf_batch.PER_TOKEN_TABLE, np.nan, float(NEW_TOKENS))
    w["per_sequence_ms_per_token"] = w["latency_s"] / NEW_TOKENS * 1000.0
    w["has_result"] = w["throughput_tok_s"].notna()
    w["variant"], w["dtype_assumed"] = "", False
    if len(off):
        w = pd.concat([w, off], ignore_index=True)
    return with_named_gpu(w.sort_values(SERIES + ["batch_size"]).reset_index(drop=True))


def split_said(paths) -> dict:
    """What the files say of how a model is split over its GPUs, by the one absence rule
    (`context.states`): `split_status` "stated" (one split: accelerate's `device_map="auto"` or llama.cpp's
    `-sm layer`, "in turn"; `-sm row` or a tensor-parallel size above 1, "tensor"; `-sm none`, "none":
    `split_value`, `split_line`, `split_text`), "unread" (a line that speaks of a split without one this
    reader takes, or several splits none tied to the runs: the first line) or "absent", the only status on
    which a page may say the input does not say how the model is split."""
    from benchbook import ingest
    from benchbook.analysis.serving import _quoted as _quote
    from benchbook.ingest import context

    unread = None
    for path in paths:
        ctx = ingest.context_of(path)
        said = context.states(ctx, "split")
        tensor = [f for f in context.states(ctx, "tp").facts if f.value > 1]
        facts = list(said.facts) or [dataclasses.replace(f, name="split", value="tensor") for f in tensor]
        if len({f.value for f in facts}) == 1:
            f = facts[0]
            return {
                "split_status": "stated",
                "split_value": f.value,
                "split_line": f.line,
                "split_text": _quote(f.text),
            }
        sign = facts[0] if facts else said.sign
        if sign is not None and unread is None:
            unread = {"split_status": "unread", "split_line": sign.line, "split_text": _quote(sign.text)}
    return unread or {"split_status": "absent"}


def with_split(sw: pd.DataFrame, said: dict) -> pd.DataFrame:
    """`sw` with the rows over several GPUs whose split the output's table does not state (`SPLIT_UNSTATED`)
    split as the rest of the file states it (`split_said`: "tensor", "in turn" or "none")."""
    if said.get("split_status") != "stated" or "split" not in sw:
        return sw
    return sw.assign(split=sw["split"].replace(SPLIT_UNSTATED, said["split_value"]))


def split_unstated(sw: pd.DataFrame) -> dict:
    """Where every row with a result spans several GPUs split in a way the output does not state
    (`SPLIT_UNSTATED`): the evidence a withheld share names, `device_split` (the series' hardware as
    written); else empty: no roof is any of theirs, whichever device they name."""
    ok = sw[sw["has_result"]] if "has_result" in sw else sw.iloc[0:0]
    if ok.empty or "split" not in ok or not ok["split"].eq(SPLIT_UNSTATED).all():
        return {}
    return {"device_split": list(dict.fromkeys(ok["gpu"]))}


def with_named_gpu(sw: pd.DataFrame) -> pd.DataFrame:
    """`sw` with column `named_gpu`: the GPU a series' label names, i.e. its gpu (`UNNAMED_GPU` when
    blank) when the same model, framework and dtype is swept on more than one GPU in this input, else
    "" (one GPU: labels read as without it). A frame that has the column keeps it (a cut of `sweep`
    knows the whole input's GPUs, the cut does not). A frame without `variant` gets "" (no setting
    beyond the series' dtype)."""
    if "variant" not in sw:
        sw = sw.assign(variant="")
    if "named_gpu" in sw:
        return sw
    if sw.empty:
        return sw.assign(named_gpu=pd.Series(dtype=object))
    several = sw.groupby(_NAME, sort=False)["gpu"].transform("nunique") > 1
    return sw.assign(named_gpu=sw["gpu"].replace("", UNNAMED_GPU).where(several, ""))


#: Offline-throughput tools the chapter also reads: one point per run, not a batch sweep.
OFFLINE_TOOLS = ("vllm-bench-offline", "trtllm-static-batch", "mlperf-loadgen", "trtllm-bench", "sglang-bench-offline")
#: The precision of a series whose weights' precision the output does not state and nothing assumes
#: (a --quantization method that names no width): no bytes per weight, so no roofline.
UNSTATED = "precision not stated"
_RUN_COLUMNS = [
    "source",
    "run",
    "tool",
    "benchmark",
    "model",
    "batch_size",
    "output_len",
    "asked_len",
    "generated_line",
    "output_tok_s",
    "total_tok_s",
    "input_tok_s",
    "latency_s",
    "max_batch_size",
    "precision",
    "precision_assumed",
    "precision_source",
    "bytes_per_weight",
    "variant",
    "speculative",
    "tokens_per_step",
    "requests",
    "request_rate",
    "concurrency",
    "mean_latency_s",
    "duration_s",
    "requests_sent",
    "devices",
    "compute_cap",
    "compute_cap_line",
]


def _setting(g: pd.DataFrame, column: str) -> str | None:
    """A run's command-line setting (`--dtype`, `--quantization`, ...) as printed, else None."""
    v = g[column].iat[0] if column in g else None
    v = v.strip("'\" ").lower() if isinstance(v, str) else ""
    return v if v and v not in ("auto", "none") else None


def run_precision(model, quantization=None, dtype=None, names=(), assume: bool = True, stated=()) -> dict:
    """The `precision`, `precision_assumed`, `precision_source` and `bytes_per_weight` columns of an
    offline run (`precision.weights`): `UNSTATED` where nothing states the precision and, for the tools
    that usually run quantized weights (`assume` False), nothing is assumed."""
    w = precision.weights(model, quantization, dtype, names, assume, stated)
    return dict(
        precision=w.precision or UNSTATED if assume else w.precision,
        precision_assumed=w.assumed,
        precision_source=w.source,
        bytes_per_weight=w.bytes_per_weight,
    )


def variant(quantization: str | None, kv_cache_dtype: str | None) -> str:
    """The settings besides the weights' precision that tell a vLLM run's series apart."""
    parts = [
        f"--quantization {quantization}" if quantization else "",
        f"KV cache {kv_cache_dtype}" if kv_cache_dtype else "",
    ]
    return ", ".join(x for x in parts if x)


def _speculative(meta: dict, val: dict) -> tuple[str | None, float]:
    """(speculative-decoding method, tokens per decoding step per request) a trtllm-bench report
    states: the method from its config (`decoding_type: MTP`), the acceptance length where printed
    (NaN where not: a step then yields an unknown number of tokens, more than one)."""
    acc = val.get(
        ("spec_decode_acceptance_length", "mean"), val.get(("spec_decode_acceptance_length", "value"), np.nan)
    )
    method = meta.get("speculative") or ("speculative decoding" if acc > 1 else None)
    return method, (float(acc) if method and acc >= 1 else (np.nan if method else 1.0))


def _values(g: pd.DataFrame) -> dict:
    """A run's tidy rows as {(metric, statistic): value}, as every offline tool's row reads them."""
    return {(m, s): x for m, s, x in zip(g["metric"], g["statistic"], g["value"], strict=True)}


def _metadata(text) -> dict[str, str]:
    """The `key=value; ...` metadata of a row as a dict (empty when there is none)."""
    if not isinstance(text, str):
        return {}
    return dict(kv.split("=", 1) for kv in (x.strip() for x in text.split(";")) if "=" in kv)


def _requests(val: dict, asked=None) -> float:
    """The requests of a run: the count the output prints (`completed`), else the number the command
    asked for (`--num-prompts`, `--num_requests`), else NaN."""
    v = val.get(("completed", "count"), val.get(("completed", "value"), np.nan))
    if np.isfinite(v):
        return float(v)
    try:
        asked = float(asked)
    except (TypeError, ValueError):
        return np.nan
    return asked if np.isfinite(asked) else np.nan


def paced_scenarios(df: pd.DataFrame) -> list[str]:
    """The MLPerf LoadGen scenarios other than Offline in `df` (Server: requests sent over time at a
    target rate), which set no batch size and are no offline run: `offline_runs` leaves them out."""
    m = df[df["tool"] == "mlperf-loadgen"] if "tool" in df else df.iloc[0:0]
    if not len(m) or "scenario" not in m:
        return []
    return sorted({s for s in m["scenario"].dropna() if s != "Offline"})


def offline_runs(df: pd.DataFrame, names: dict | None = None) -> pd.DataFrame:
    """One row per offline run: vLLM `bench throughput` (output and total tok/s; no batch size, the
    engine batches as it goes, up to its `--max-num-seqs` where the command sets it: `max_batch_size`), vLLM `bench latency` (`--batch-size` prompts, `--output-len` new
    tokens, mean seconds per batch; its output tok/s = batch x output_len / latency, where `output_len` is
    the tokens per sequence the input says the run generated (`generated_len`, at `generated_line`), else
    the `asked_len` it asked for), MLPerf
    LoadGen Offline (generated tok/s; the summary names neither the model nor a batch), SGLang
    `bench_offline_throughput` (the whole dataset in one generate() call: output and total tok/s, and
    input tok/s, no batch; TP x DP devices where stated) and `trtllm-bench throughput` (output and total tok/s; the
    engine batches up to its max runtime batch size, kept from the row metadata as `max_batch_size`,
    not a batch the run set). A
    `trtllm-bench latency` report, when its command line says so, is not offline throughput: left out.

    `requests` is the run's request count where the output prints it (or its command asks for it),
    `request_rate` its requests per second; `precision` the weights' precision where the output states
    it (a TensorRT-LLM engine's quantization, else its dtype; a precision in an MLPerf SUT or file
    name; a vLLM run's --quantization width or --dtype; the model's name or the model table:
    `run_precision`), bf16 for a vLLM run where nothing says (`precision_assumed`), else None: not stated. `variant` names a vLLM run's
    other settings (`variant`); `speculative` and `tokens_per_step` a trtllm-bench run's speculative
    decoding (`_speculative`). The model is the one the output names (an MLPerf SUT name's). `names`:
    per source, the names the rest of its file gives the weights (`precision.stated_names`)."""
    stated = names or {}
    rows = []
    v = df[df["tool"] == "vllm-bench-offline"]
    for (source, run, bench), g in v.groupby(["source", "run", "benchmark"], sort=False) if len(v) else []:
        val = _values(g)
        b, asked = float(g["batch_size"].iat[0]), float(g["output_len"].iat[0])
        made = g[g["metric"] == "generated_len"]
        n_out = float(made["value"].iat[0]) if len(made) else asked  # the tokens the rate counts
        lat = val.get(("latency", "mean"), np.nan)
        out = val.get(("throughput", "value"), np.nan) if bench == "throughput" else b * n_out / lat
        model = g["model"].iat[0] if isinstance(g["model"].iat[0], str) else ""
        quant, kv = _setting(g, "quantization"), _setting(g, "kv_cache_dtype")
        rows.append(
            dict(
                source=source,
                run=run,
                tool="vllm-bench-offline",
                benchmark=bench,
                model=model,
                batch_size=b if bench == "latency" else np.nan,
                output_len=n_out,
                asked_len=asked,
                generated_line=float(made["line"].iat[0]) if len(made) else np.nan,
                output_tok_s=out,
                total_tok_s=val.get(("total_token_throughput", "value"), np.nan),
                latency_s=lat,
                max_batch_size=_float(g["max_num_seqs"].iat[0]) if "max_num_seqs" in g else np.nan,
                **run_precision(model, quant, _setting(g, "dtype"), stated=stated.get(source, ())),
                variant=variant(quant, kv),
                speculative=None,
                tokens_per_step=1.0,
                requests=_requests(
                    val, g["num_prompts"].iat[0] if bench == "throughput" and "num_prompts" in g else None
                ),
                request_rate=val.get(("request_throughput", "value"), np.nan),
                devices=_float(g["tensor_parallel"].iat[0]) if "tensor_parallel" in g else np.nan,
            )
        )
    ts = df[df["tool"] == "trtllm-static-batch"]
    for (source, run), g in ts.groupby(["source", "run"], sort=False) if len(ts) else []:
        val = _values(g)
        model = g["model"].iat[0] if isinstance(g["model"].iat[0], str) else ""
        rows.append(
            dict(
                source=source,
                run=run,
                tool="trtllm-static-batch",
                benchmark="latency",
                model=model,
                batch_size=float(g["batch_size"].iat[0]),
                # every sequence is forced to output_length new tokens: the tool's tok/s counts them so
                output_len=float(g["output_len"].iat[0]),
                asked_len=float(g["output_len"].iat[0]),
                output_tok_s=val.get(("throughput", "value"), np.nan),
                total_tok_s=np.nan,
                latency_s=val.get(("latency", "mean"), np.nan),
                max_batch_size=np.nan,
                **run_precision(
                    model,
                    _setting(g, "quantization"),
                    _setting(g, "dtype"),
                    assume=False,
                    stated=stated.get(source, ()),
                ),
                variant="",
                speculative=None,
                tokens_per_step=1.0,
                requests=np.nan,
                request_rate=np.nan,
                devices=_float(g["tensor_parallel"].iat[0]),  # world_size: TP x PP, the GPUs of the line
                compute_cap=g["compute_cap"].iat[0] if isinstance(g["compute_cap"].iat[0], str) else None,
                compute_cap_line=float(g["line"].min()),
            )
        )
    m = df[df["tool"] == "mlperf-loadgen"]
    m = m[m["scenario"] == "Offline"] if len(m) else m
    for (source, run), g in m.groupby(["source", "run"], sort=False) if len(m) else []:
        val = _values(g)
        model = g["model"].iat[0] if "model" in g and isinstance(g["model"].iat[0], str) else ""
        names = (g["sut"].iat[0] if "sut" in g else None, run, Path(str(source)).name)
        rows.append(
            dict(
                source=source,
                run=run,
                tool="mlperf-loadgen",
                benchmark="Offline",
                model=model,
                batch_size=np.nan,
                output_len=np.nan,
                output_tok_s=val.get(("output_throughput", "value"), np.nan),
                total_tok_s=np.nan,
                latency_s=np.nan,
                max_batch_size=np.nan,
                **run_precision(model, names=names, assume=False),
                variant="",
                speculative=None,
                tokens_per_step=1.0,
                requests=_requests(val),
                request_rate=val.get(("request_throughput", "value"), np.nan),
            )
        )
    sg = df[df["tool"] == "sglang-bench-offline"]
    # runs whose labels name their weights (`Qwen-32B-FP8(dp=2, tp=4)`) tell the file's runs apart: a
    # precision the file names elsewhere is then a sibling's, not that of a run whose label names none
    labelled = (
        {src for src, r in zip(sg["source"], sg["run"], strict=True) if precision.tagged(r)} if len(sg) else set()
    )
    for (source, run), g in sg.groupby(["source", "run"], sort=False) if len(sg) else []:
        val = _values(g)
        model = g["model"].iat[0] if isinstance(g["model"].iat[0], str) else ""
        duration = val.get(("duration", "value"), np.nan)
        # the first form prints no output rate: its result's output tokens over its duration, as the tool's own
        out = val.get(("throughput", "value"), val.get(("total_generated_tokens", "count"), np.nan) / duration)
        tp, dp = _float(g["tensor_parallel"].iat[0]), _float(g["data_parallel"].iat[0])
        rows.append(
            dict(
                source=source,
                run=run,
                tool="sglang-bench-offline",
                benchmark="throughput",
                model=model,
                batch_size=np.nan,
                output_len=np.nan,
                output_tok_s=out,
                total_tok_s=val.get(("total_token_throughput", "value"), np.nan),
                # input tokens / duration: the only token rate a run that generates none (an embedding
                # variant of the block) prints
                input_tok_s=val.get(("input_throughput", "value"), np.nan),
                latency_s=np.nan,
                max_batch_size=np.nan,
                **run_precision(
                    model, names=(run,), assume=False, stated=() if source in labelled else stated.get(source, ())
                ),
                variant="",
                speculative=None,
                tokens_per_step=1.0,
                requests=_requests(val, g["num_prompts"].iat[0]),
                request_rate=val.get(("request_throughput", "value"), np.nan),
                duration_s=duration,
                # data parallel copies each run on TP GPUs: the run spans TP x DP where either is stated
                devices=tp * (dp if np.isfinite(dp) else 1.0)
                if np.isfinite(tp)
                else (dp if np.isfinite(dp) else np.nan),
            )
        )
    t = df[df["tool"] == "trtllm-bench"]
    for (source, run), g in t.groupby(["source", "run"], sort=False) if len(t) else []:
        meta = _metadata(g["metadata"].iat[0] if "metadata" in g else None)
        if meta.get("subcommand") == "latency":
            continue
        val = _values(g)
        method, per_step = _speculative(meta, val)
        rows.append(
            dict(
                source=source,
                run=run,
                tool="trtllm-bench",
                benchmark="throughput",
                model=g["model"].iat[0] if isinstance(g["model"].iat[0], str) else "",
                batch_size=np.nan,
                output_len=val.get(("output_length", "mean"), np.nan),
                output_tok_s=val.get(("output_throughput", "value"), np.nan),
                total_tok_s=val.get(("total_token_throughput", "value"), np.nan),
                latency_s=np.nan,
                max_batch_size=pd.to_numeric(meta.get("max_batch_size"), errors="coerce"),
                **run_precision(
                    g["model"].iat[0],
                    meta.get("quantization"),
                    meta.get("dtype"),
                    assume=False,
                    stated=stated.get(source, ()),
                ),
                devices=_devices(meta),
                concurrency=float(g["max_concurrency"].iat[0]) if "max_concurrency" in g else np.nan,
                mean_latency_s=val.get(("e2el", "mean"), np.nan) / 1000.0,
                duration_s=val.get(("duration", "value"), np.nan),
                requests_sent=float(g["num_prompts"].iat[0]) if "num_prompts" in g else np.nan,
                variant="",
                speculative=method,
                tokens_per_step=per_step,
                requests=_requests(val, g["num_prompts"].iat[0] if "num_prompts" in g else None),
                request_rate=val.get(("request_throughput", "value"), np.nan),
            )
        )
    return pd.DataFrame(rows, columns=_RUN_COLUMNS)


#: How far above its concurrency cap a run's average in-flight count may read before the printed
#: figures cannot all hold (rounding of the printed rate and latency is far smaller).
CAP_TOLERANCE = 0.10


def over_cap(runs: pd.DataFrame, tolerance: float = CAP_TOLERANCE) -> pd.DataFrame:
    """The offline runs with a concurrency cap and a mean latency, each with Little's law's requests
    in flight on average (request rate x mean latency), which a cap of C concurrent requests bounds by
    C, and the requests the rate implies over the run (rate x duration) against those sent. `over`:
    in flight above the cap by more than `tolerance`: the printed rate, latency and cap cannot all
    hold."""
    cols = ["concurrency", "mean_latency_s", "request_rate"]
    d = runs.dropna(subset=cols).copy() if set(cols) <= set(runs) else runs.iloc[0:0].copy()
    d["in_flight"] = d["request_rate"] * d["mean_latency_s"]
    d["implied_requests"] = d["request_rate"] * d["duration_s"]
    d["over"] = d["in_flight"] > d["concurrency"] * (1 + tolerance)
    return d.reset_index(drop=True)


#: What a vLLM bench latency point's time is (`timed` of the sweep): the mean latency of a batch's
#: generate() call, which the tool prints (`Avg latency: ... seconds`); its "msec/token" is the book's.
BATCH_LATENCY = "mean latency of a batch"


#: The framework of each tool whose runs set a batch (`offline_sweep`).
FRAMEWORK = {"vllm-bench-offline": "vllm", "trtllm-static-batch": "tensorrt-llm"}


def offline_sweep(runs: pd.DataFrame) -> pd.DataFrame:
    """The offline runs that set a batch (vLLM `bench latency`) as rows of `sweep`'s table: one point
    per batch size, each `generate` of `output_len` new tokens (`new_tokens`: the tokens generated where
    the input states them, else those asked). A model's runs of
    different `--output-len` are different configurations, not loads of one curve: each length is its
    own series (its `variant`), since a batch's latency grows with the tokens it generates."""
    d = runs[runs["batch_size"].notna() & runs["latency_s"].notna() & runs["output_len"].notna()]
    asked = d["asked_len"].fillna(d["output_len"]) if "asked_len" in d else d["output_len"]
    lengths = asked.groupby(d["model"]).transform("nunique")
    variant = [
        ", ".join(x for x in (v, f"--output-len {n:g}" if k > 1 else "") if x)
        for v, n, k in zip(d["variant"].fillna(""), asked, lengths, strict=True)
    ]
    w = pd.DataFrame(
        {
            "model": d["model"],
            "framework": d["tool"].map(FRAMEWORK),
            "gpu": "",
            "dtype": d["precision"].fillna(UNSTATED),
            "variant": pd.Series(variant, index=d.index, dtype=object),
            "dtype_assumed": d["precision_assumed"].fillna(False).astype(bool),
            "bytes_per_weight": d["bytes_per_weight"].astype(float),
            "batch_size": d["batch_size"].astype(int),
            "throughput_tok_s": d["output_tok_s"],
            "tool_ms_per_token": 1000.0 / d["output_tok_s"],
            "latency_s": d["latency_s"],
            "conflict": False,
            "new_tokens": d["output_len"],
            "devices": d["devices"],
            "timed": BATCH_LATENCY,
            "compute_cap": d["compute_cap"],
            "compute_cap_line": d["compute_cap_line"],
        }
    )
    w["per_sequence_ms_per_token"] = w["latency_s"] / w["new_tokens"] * 1000.0
    w["has_result"] = w["throughput_tok_s"].notna()
    return w.sort_values(["model", "framework", "dtype", "variant", "batch_size"]).reset_index(drop=True)


def _float(v) -> float:
    v = pd.to_numeric(v, errors="coerce")
    return float(v) if pd.notna(v) else np.nan


def device(gpu: str, sw: pd.DataFrame, texts, bandwidth_gb_s: float = 0.0, peak_tflops: float = 0.0):
    """(the roofline's `Peaks`, per GPU, or None; `roofline.Named`, what the input says of its device):
    the `gpu` parameter, else the GPU the sweep's rows name, else the one the rest of the input names
    (`texts`, read by the one context reader: a `GPU:` line, a hardware table, a heading), else none.
    Peaks are one device's: a run over several GPUs is counted per run (`devices`, its TP x PP)."""
    labels = sorted(set(sw["gpu"]) - {""}) if "gpu" in sw else []
    found = roofline.named(labels) if labels else roofline.Named()
    if found.device is None:
        found = roofline.named([*labels, *texts])
    # the words it was named with, not the table's name for them: a name several parts share stays ambiguous
    # (a fact's text is its line cut to 200 characters: where the cut drops the name, the name as written)
    fact = found.fact
    named_with = ([fact.text if str(fact.value) in fact.text else str(fact.value)]) if fact is not None else labels
    other = _other_architecture(found.device, sw) if found.device and not gpu else ()
    if other:  # a run's compute_cap says it ran on another architecture than the device the file names
        found = dataclasses.replace(found, device=None, architecture=other)
    pk = roofline.choose(gpu, named_with if found.device else [], bandwidth_gb_s, peak_tflops)
    return (dataclasses.replace(pk, count=1) if pk is not None else None), found


def _other_architecture(device: str, sw: pd.DataFrame) -> tuple:
    """(device, its smXY, the printed compute_cap, its line) of the first run whose `compute_cap`
    (TensorRT-LLM's benchmark.py prints the GPU's) differs from the named device's; () where none does
    or the device's is not known."""
    sm = hardware.compute_capability(device)
    if sm is None or "compute_cap" not in sw:
        return ()
    for cap, line in zip(sw["compute_cap"], sw["compute_cap_line"], strict=True):
        if isinstance(cap, str) and cap.lower() != sm:
            return (device, sm, cap, int(line))
    return ()


def _devices(meta: dict) -> float:
    """The GPUs a trtllm-bench run spans, TP x PP, where its report or command states the TP; else NaN."""
    tp = pd.to_numeric(meta.get("tp"), errors="coerce")
    pp = pd.to_numeric(meta.get("pp"), errors="coerce")
    return float(tp * (pp if pd.notna(pp) else 1)) if pd.notna(tp) else np.nan


def apart(runs: pd.DataFrame) -> pd.Series:
    """Per offline run, whether it is no point of the sweep but a point of its own (`offline_points`):
    no batch setting, or a latency run whose batch is known but whose output length is not. The
    page's input line counts and names these same runs."""
    if runs.empty:
        return pd.Series(False, index=runs.index, dtype=bool)
    return runs["batch_size"].isna() | ((runs["benchmark"] == "latency") & runs["output_len"].isna())


def offline_points(runs: pd.DataFrame, params_b: dict, peaks) -> pd.DataFrame:
    """The offline runs with no batch setting (vLLM `bench throughput`, MLPerf Offline, `trtllm-bench
    throughput`), each one point: its compute, 2 x active parameters x tokens processed per second
    (prompt + output when the run prints both, else output only: a lower bound), and that as a
    fraction of the device's dense peak at the run's `precision` (NaN when no device is named or
    the precision not stated; `beyond_any_peak` when it exceeds the device's highest dense
    peak at any precision; both per GPU, `achieved_tflops_per_device`, for a run over `devices` GPUs),
    and the weights' size at that precision (`weight_gb`). No bandwidth:
    without the batch the step rate is unknown."""
    d = runs[apart(runs)].copy()
    p = d["model"].map(params_b).astype(float) * 1e9
    d["tokens_counted"] = np.where(
        d["total_tok_s"].notna(), "prompt + output tokens", "output tokens only (a lower bound)"
    )
    d["achieved_tflops"] = 2 * p * d["total_tok_s"].fillna(d["output_tok_s"]) / 1e12
    known = peaks is not None
    if "precision" not in d:
        d["precision"] = None
    nbytes = d["bytes_per_weight"] if "bytes_per_weight" in d else pd.Series(np.nan, index=d.index)
    d["weight_bytes_per_param"] = nbytes.astype(float).fillna(
        d["precision"].map(roofline.bytes_per_weight).astype(float)
    )
    d["weight_gb"] = p * d["weight_bytes_per_param"] / 1e9
    d["peak_tflops"] = [
        (peaks.peak_tflops(precision.peak_precision(x)) if known and precision.peak_precision(x) else None) or np.nan
        for x in d["precision"]
    ]
    # a run over several GPUs (trtllm-bench's TP x PP) is set against one device's peak per GPU
    devices = d["devices"].astype(float).fillna(1.0) if "devices" in d else 1.0
    d["achieved_tflops_per_device"] = d["achieved_tflops"] / devices
    d["compute_fraction"] = d["achieved_tflops_per_device"] / d["peak_tflops"]
    # whatever the precision, more than the device's highest dense peak is beyond one device
    top = max((peaks.peak_tflops(x) or 0.0 for x in peaks.tflops), default=0.0) if known else 0.0
    d["highest_peak_tflops"] = top or np.nan
    d["beyond_any_peak"] = d["achieved_tflops_per_device"] > d["highest_peak_tflops"]
    return d.reset_index(drop=True)


def series(sw: pd.DataFrame):
    """(model, framework, gpu, dtype) and its measured rows (with `named_gpu`), in batch order, for
    each series with results."""
    sw = with_named_gpu(sw)
    for key, g in sw[sw["has_result"]].groupby(SERIES, sort=False):
        yield key, g.sort_values("batch_size")


def reference(sw: pd.DataFrame) -> tuple | None:
    """The series with the highest peak throughput (the one the page's claims speak of)."""
    best, top = None, -np.inf
    for key, g in series(sw):
        if g["throughput_tok_s"].max() > top:
            best, top = key, g["throughput_tok_s"].max()
    return best


def rows_of(sw: pd.DataFrame, key) -> pd.DataFrame:
    """The measured rows of one series, in batch order."""
    sw = with_named_gpu(sw)
    if key is None:
        return sw.iloc[0:0]
    m = sw["has_result"]
    key = tuple(key) + ("",) * (len(SERIES) - len(key))  # a key without its variant: none
    for col, v in zip(SERIES, key, strict=True):
        m &= sw[col] == v
    return sw[m].sort_values("batch_size")


def bend(x, y, at) -> float | None:
    """How sharply a curve bends at x = `at`: the log-log slope from the first point to `at` minus
    the slope from `at` to the last point (1 for a line of slope 1 that turns flat, 0 for a
    straight line). None when `at` is the first or last point."""
    pts = sorted((a, b) for a, b in zip(x, y, strict=True) if a > 0 and b > 0)
    if at is None or len(pts) < 3 or at <= pts[0][0] or at >= pts[-1][0]:
        return None
    (x0, y0), (x1, y1) = pts[0], pts[-1]
    yk = dict(pts)[at]
    return math.log(yk / y0) / math.log(at / x0) - math.log(y1 / yk) / math.log(x1 / at)


def wobble(y) -> float:
    """The noise of a sweep with one run per batch size: the largest fall between consecutive batch
    sizes, as a share of the earlier throughput (0 when it never falls). More sequences per step never
    cost throughput on the roofline, so a fall is the run-to-run spread the tool does not print."""
    y = np.asarray(y, dtype=float)
    y = y[np.isfinite(y)]
    falls = [(a - b) / a for a, b in zip(y, y[1:], strict=False) if a > 0 and b < a]
    return float(max(falls, default=0.0))


def knee(sw: pd.DataFrame, fraction: float = 0.95) -> pd.DataFrame:
    """Per series: the peak throughput and the saturation batch size, i.e. the smallest batch size
    whose throughput reaches `fraction` of the peak (`pareto.fraction_of_peak`), with the number of
    measured batch sizes (repeats of one batch size are one point) and the curve's `bend` there; `knee_share` (its throughput over the peak), the
    smaller batch nearest to reaching `fraction` and its share (`before_*`), and the curve's `noise`
    (`wobble`; for a series that never falls, the input's largest: `noise_from` "input"), which the
    claims weigh both margins to `fraction` against. Series with no result are left out."""
    out = []
    for key, g in series(sw):
        hit = g.iloc[fraction_of_peak(g["batch_size"], g["throughput_tok_s"], fraction)]
        peak = g["throughput_tok_s"].max()
        smaller = g[g["batch_size"] < hit["batch_size"]]
        before = (
            smaller.loc[smaller["throughput_tok_s"].idxmax()] if smaller["throughput_tok_s"].notna().any() else None
        )
        out.append(
            dict(
                zip(SERIES, key, strict=True),
                peak_tok_s=g["throughput_tok_s"].max(),
                peak_batch_size=int(g.loc[g["throughput_tok_s"].idxmax(), "batch_size"]),
                knee_batch_size=int(hit["batch_size"]),
                knee_tok_s=hit["throughput_tok_s"],
                fraction=fraction,
                n_points=g["batch_size"].nunique(),
                strength=bend(g["batch_size"], g["throughput_tok_s"], int(hit["batch_size"])),
                first_batch_size=int(g["batch_size"].iloc[0]),
                first_tok_s=g["throughput_tok_s"].iloc[0],
                named_gpu=g["named_gpu"].iat[0],
                knee_share=hit["throughput_tok_s"] / peak,
                before_batch_size=int(before["batch_size"]) if before is not None else None,
                before_share=before["throughput_tok_s"] / peak if before is not None else np.nan,
                noise=wobble(g["throughput_tok_s"]),
            )
        )
    cols = SERIES + ["peak_tok_s", "peak_batch_size", "knee_batch_size", "knee_tok_s", "fraction", "n_points"]
    cols += ["strength", "first_batch_size", "first_tok_s", "named_gpu"]
    out = pd.DataFrame(out, columns=cols + ["knee_share", "before_batch_size", "before_share", "noise"])
    # a series that never falls shows no noise of its own: the input's largest wobble (the same tool on
    # the same machine) stands in for it, said so (`noise_from`)
    own = out["noise"] > 0
    out["noise_from"] = np.where(own, "series", "input")
    return out.assign(noise=out["noise"].where(own, out["noise"].max() if len(out) else 0.0))


def marginal_gain(sw: pd.DataFrame) -> pd.DataFrame:
    """Tokens/s gained per added sequence between consecutive measured batch sizes
    (d throughput / d batch), per series, with the batch size each step starts from. Two rows of
    one series at the same batch (repeats) make no step: NaN, never a division by zero."""
    parts = [
        g.assign(
            prev_batch_size=g["batch_size"].shift(),
            gain_tok_s_per_seq=g["throughput_tok_s"].diff() / g["batch_size"].diff().replace(0, np.nan),
        )
        for _, g in series(sw)
    ]
    return pd.concat(parts, ignore_index=True) if parts else sw.assign(gain_tok_s_per_seq=np.nan)


def memory_limit(sw: pd.DataFrame) -> pd.DataFrame:
    """Per series: the largest batch size with a result and the first one without (None when the
    sweep never ran out), and how many batch sizes have a result (`sizes`: one size run is no sweep
    up to it); `status` is `blank` (no result at all), `limit` or `no limit`."""
    out = []
    for key, g in with_named_gpu(sw).groupby(SERIES, sort=False):
        g = g.sort_values("batch_size")
        ok = g[g["has_result"]]
        row = dict(zip(SERIES, key, strict=True), last_ok=None, first_missing=None, status="blank", sizes=0)
        row["named_gpu"] = g["named_gpu"].iat[0]
        if len(ok):
            last = int(ok["batch_size"].max())
            after = g[(g["batch_size"] > last) & ~g["has_result"] & ~g["conflict"]]
            first = int(after["batch_size"].min()) if len(after) else None
            row.update(last_ok=last, first_missing=first, status="limit" if first else "no limit")
            row["sizes"] = int(ok["batch_size"].nunique())
        out.append(row)
    return pd.DataFrame(out, columns=SERIES + ["last_ok", "first_missing", "status", "named_gpu", "sizes"])


def flat_range(g: pd.DataFrame, column: str = "latency_s", tolerance: float = 0.10) -> pd.DataFrame:
    """The leading rows of a series (batch order) over which `column` stays flat: every step and
    the whole drift from the first row within `tolerance` (relative)."""
    vals = g[column].to_numpy(float)
    n = 1
    while n < len(vals) and abs(vals[n] / vals[n - 1] - 1) <= tolerance and abs(vals[n] / vals[0] - 1) <= tolerance:
        n += 1
    return g.iloc[:n]


# --- the model and the roofline ------------------------------------------------------------------


def printed_params(text: str) -> dict[str, float]:
    """{model heading: billions of parameters} from the `total_params = N` lines of the python
    blocks the bigcode README prints under each model heading (plain or `## ` heading), and from a
    BLOOM write-up table's `Number of parameters` column (`hf_batch.printed_params`)."""
    out, heading = hf_batch.printed_params(text), None
    for line in text.splitlines():
        s = line.strip()
        m = re.fullmatch(r"total_params\s*=\s*(\d+)", s)
        if m and heading:
            out[heading] = int(m.group(1)) / 1e9
        elif s and not s.startswith(("```", "|")) and "=" not in s:
            heading = s.lstrip("#").rstrip("\\").strip()
    return out


def model_size(model: str, printed: dict[str, float], params_b: float = 0.0) -> tuple[float | None, str]:
    """(billions of parameters, where the figure comes from) for a model of the sweep: the
    `params_b` parameter, the output's own total_params, the model table by name, or the tool's
    documented configuration for a bare architecture name (assumed); (None, why) when unknown."""
    if params_b > 0:
        return params_b, "parameter"
    if model in printed:
        return printed[model], "printed"
    size = hardware.model_size(model)
    if size is not None:
        return (None, "unknown") if size.active_b is None else (float(size.active_b), "table")
    row = TOOL_CONFIGS.get(model.strip().lower())
    size = hardware.model_size(row) if row is not None else None
    if size is not None and size.active_b is not None:
        return float(size.active_b), "tool config"
    return None, "unknown"


def moe_total(model: str, source: str) -> float | None:
    """The total parameters of a mixture of experts whose active count `model_size` took from the
    model table or the tool's configuration (`source`), to be said beside it; None otherwise."""
    if source not in ("table", "tool config"):
        return None
    size = hardware.model_size(model) if source == "table" else None
    row = TOOL_CONFIGS.get(model.strip().lower()) if source == "tool config" else None
    size = size or (hardware.model_size(row) if row is not None else None)
    if size is None or not size.moe or size.total_b is None or size.total_b == size.active_b:
        return None
    return float(size.total_b)


def step_roofline(sw: pd.DataFrame, params_b: dict, peaks) -> pd.DataFrame:
    """Per measured row: weight bytes per step, step time, achieved bandwidth and compute, the
    intensity, and their fractions of the device's peaks (`peaks`: `analysis.roofline.Peaks`) at the
    dtype's precision. `params_b` maps model -> billions of parameters (missing: NaN). When the
    input names several GPUs, the rows of a GPU that is not `peaks`' device get no peaks (NaN): one
    device's roofline says nothing of another's steps."""
    d = with_named_gpu(sw)
    d = d[d["has_result"]].copy()
    p = d["model"].map(params_b).astype(float) * 1e9
    bpp = d["dtype"].map(BYTES_PER_PARAM).astype(float)
    if "bytes_per_weight" in d:  # an offline run's, where the model table gives a mix's bytes
        bpp = d["bytes_per_weight"].astype(float).fillna(bpp)
    d["weight_bytes"] = p * bpp
    d["step_s"] = d["latency_s"] / d.get("new_tokens", pd.Series(NEW_TOKENS, index=d.index)).fillna(NEW_TOKENS)
    d["achieved_gb_s"] = d["weight_bytes"] / d["step_s"] / 1e9
    d["achieved_tflops"] = 2 * p * d["throughput_tok_s"] / 1e12
    d["intensity"] = 2 * d["batch_size"] / bpp
    bw = peaks.total_bandwidth_gb_s if peaks is not None else None
    # a step row's devices are its stated TP (vLLM bench latency, SGLang bench_one_batch): tensor parallel
    # splits the weights and the work over them, so its roofs are their summed bandwidth and compute
    devices = d["devices"].astype(float).fillna(1.0) if "devices" in d else pd.Series(1.0, index=d.index)
    if "split" in d:  # a split the file states runs its GPUs one at a time (or keeps one): one GPU's roofs
        devices = devices.where(~d["split"].isin(["in turn", "none"]), 1.0)
    d["peak_gb_s"] = (bw if bw else np.nan) * devices
    d["peak_tflops"] = [
        (peaks.peak_tflops(PRECISION.get(t, t)) if peaks is not None else None) or np.nan for t in d["dtype"]
    ] * devices
    if "split" in d:  # several GPUs split in a way not stated: no roof is theirs (`SPLIT_UNSTATED`)
        d.loc[d["split"].eq(SPLIT_UNSTATED), ["peak_gb_s", "peak_tflops"]] = np.nan
    gpus = set(d["gpu"]) - {""}
    if peaks is not None and len(gpus) > 1:
        other = [g for g in gpus if (detect([g]) or (None,))[0] != peaks.device]
        d.loc[d["gpu"].isin(other), ["peak_gb_s", "peak_tflops"]] = np.nan
    d["ridge"] = roofline.ridge(d["peak_tflops"], d["peak_gb_s"])
    d["bandwidth_fraction"] = d["achieved_gb_s"] / d["peak_gb_s"]
    d["achieved_tflops_per_device"] = d["achieved_tflops"] / devices
    d["compute_fraction"] = d["achieved_tflops"] / d["peak_tflops"]
    return d


def regimes(rl: pd.DataFrame, key) -> dict[str, pd.Series]:
    """The rows of series `key` that stand for its two regimes: `small` (the smallest batch) and
    `large` (the batch of peak throughput)."""
    g = rows_of(rl.assign(has_result=True), key)
    if g.empty:
        return {}
    return {"small": g.iloc[0], "large": g.loc[g["throughput_tok_s"].idxmax()]}


def dtype_pair(sw: pd.DataFrame, key) -> tuple[pd.Series, pd.Series] | None:
    """The rows of the widest and the narrowest dtype (bytes per weight) of one framework of the
    reference series' model on its GPU, at the smallest batch both measured: the reference's framework
    when it has two widths, else the first that has. None when no framework has two."""
    if key is None:
        return None
    ref = dict(zip(SERIES, tuple(key) + ("",) * (len(SERIES) - len(key)), strict=True))
    d = sw[sw["has_result"] & (sw["model"] == ref["model"]) & (sw["gpu"] == ref["gpu"])]
    d = d[d["dtype"].isin(list(BYTES_PER_PARAM))]
    frameworks = [ref["framework"]] + [f for f in d["framework"].unique() if f != ref["framework"]]
    for fw in frameworks:
        f = d[d["framework"] == fw]
        widths = sorted(set(f["dtype"]), key=BYTES_PER_PARAM.get)
        if len(widths) < 2 or BYTES_PER_PARAM[widths[0]] == BYTES_PER_PARAM[widths[-1]]:
            continue
        narrow, wide = widths[0], widths[-1]
        common = set(f[f["dtype"] == narrow]["batch_size"]) & set(f[f["dtype"] == wide]["batch_size"])
        if common:
            pick = f[f["batch_size"] == min(common)].set_index("dtype")
            return pick.loc[wide], pick.loc[narrow]
    return None


def rounding_noise(*rows: pd.Series) -> float:
    """Relative uncertainty of a ratio of throughputs from the tool's rounding of "sec" to 0.01 s
    (the tool prints no spread): the sum of 0.005 / latency over the rows."""
    return float(sum(0.005 / r["latency_s"] for r in rows if r["latency_s"] and np.isfinite(r["latency_s"])))


# --- the lesson: weights read once per step, amortised over the batch ----------------------------


def step_time(batch, weight_bytes: float, bandwidth_gb_s: float, flops_per_token: float, peak_tflops: float):
    """The roofline's floor on one decode step of `batch` sequences: it reads every weight once
    (weight_bytes / bandwidth) and does batch x flops_per_token FLOPs (/ peak), and takes at least the
    longer of the two, in seconds. Throughput batch / step_time grows in proportion to the batch until
    `critical_batch`, then stays at peak / flops_per_token."""
    b = np.asarray(batch, dtype=float)
    return np.maximum(weight_bytes / (bandwidth_gb_s * 1e9), b * flops_per_token / (peak_tflops * 1e12))


def floor(rl: pd.DataFrame, key) -> dict:
    """The lesson's numbers for the reference series `key` (`step_roofline` rows with a device and a
    model size): weight bytes per step, the device's bandwidth and peak at the series' dtype, the
    floor of one step (weights / bandwidth), the critical batch B* and the measured points (batch,
    throughput, step time). Empty when the series has no peaks or no model size."""
    g = rows_of(rl.assign(has_result=True), key) if key else rl.iloc[0:0]
    g = g.dropna(subset=["weight_bytes", "peak_gb_s", "peak_tflops"]) if len(g) else g
    if g.empty:
        return {}
    first = g.iloc[0]
    bpw = BYTES_PER_PARAM.get(first["dtype"])
    if not bpw:
        return {}
    params = float(first["weight_bytes"]) / bpw
    return dict(
        dtype=str(first["dtype"]),
        bytes_per_weight=bpw,
        params_b=params / 1e9,
        weight_gb=float(first["weight_bytes"]) / 1e9,
        devices=int(first["devices"]) if first.get("devices", 1) > 1 else None,  # NaN > 1 is False
        bandwidth_gb_s=float(first["peak_gb_s"]),
        peak_tflops=float(first["peak_tflops"]),
        ridge=float(first["ridge"]),
        weights_ms=float(first["weight_bytes"]) / (float(first["peak_gb_s"]) * 1e9) * 1e3,
        critical_batch=roofline.critical_batch(float(first["ridge"]), bpw),
        top_tok_s=float(first["peak_tflops"]) * 1e12 / (2 * params),
        first_batch=int(first["batch_size"]),
        first_step_ms=float(first["step_s"]) * 1e3,
        batches=[int(b) for b in g["batch_size"]],
        tok_s=[float(t) for t in g["throughput_tok_s"]],
    )
