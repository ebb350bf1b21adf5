"""llama.cpp's llama-batched-bench as points of the batch_saturation chapter (numbers only).

The tool (tools/batched-bench/batched-bench.cpp) decodes B sequences together: a prompt phase, then
TG decode steps, each giving every sequence one token, timed together as T_TG; S_TG = B x TG / T_TG
is the batch's generation rate. So a point's throughput is S_TG and its latency the generation phase
T_TG for TG new tokens per sequence (`new_tokens`): its mean step, T_TG / TG, is one decode step of
the whole batch, the weights read once for B tokens. The prompt phase (T_PP, S_PP) and the whole row
(T, S = N_KV / T) are kept beside it, not on the roofline.

A series is one table at one (PP, TG) and prompt mode: the KV cache a step reads grows with the
context, and a shared prompt is one prompt's cache for all sequences. The table names no GPU; the
model only where one command line above it does (or its section's `Model:` label); its precision where the
llama-bench rows of that labelled section print the file's weights type (`weights`: `gpt-oss 20B MXFP4 MoE`,
the tool's own print of the file both ran), else where the model's name says it, else where the rest
of the file states it (`precision.stated_names`: `I ran the batched bench with llama 8b q4_0`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook import hardware
from benchbook.analysis import precision
from benchbook.analysis.batch import UNSTATED
from benchbook.analysis.one_batch import COLUMNS, keyed, measurements, with_points

TOOL = "llama-batched-bench"
FRAMEWORK = "llama.cpp"
#: What a point's time is (`timed` of the chapter's sweep): the TG decode steps of the batch, timed together.
GENERATION = "generation phase"
_KEYS = ["source", "table", "pp", "tg", "pp_shared", "batch", "n_kv"]


def _variant(r: dict, tables: int) -> str:
    """The settings that tell this point's series apart, as the page names them."""
    parts = [f"table {int(r['table'])}" if tables > 1 else ""]
    parts.append(f"PP {int(r['pp'])}, TG {int(r['tg'])}")
    parts.append("prompt shared" if r.get("pp_shared") == 1 else "")
    return ", ".join(x for x in parts if x)


def _file_bytes_per_weight(model: str, size_gib: float, params_b: float) -> float:
    """The bytes per weight of the file llama-bench sizes (`size` GiB over `params` B, its `llama_model_size` and
    `llama_model_n_params`): a Q4_0 block keeps a scale beside its 32 weights, more than a bare 4-bit weight's
    0.5 byte. The chapter multiplies it by the file's printed count for a dense model (`printed_params`), so a
    step reads the whole file as printed; a mixture of experts keeps the file's average over all its
    parameters, for the active ones the model table gives."""
    return float(size_gib) * 2**30 / (float(params_b) * 1e9)


def printed_params(df: pd.DataFrame) -> dict[str, float]:
    """{model: billions of parameters} llama-bench's rows print for a batched-bench table's model (`params`,
    `llama_model_n_params`, of the one file both tools ran: `weights_params_b`), where the model table knows it
    as dense (a mixture of experts computes with its active parameters, which the print does not give, and a
    model the table does not know may be one): the file's own count, used before the table's nominal size
    (`3.88 B`, not the `4B` of its name)."""
    d = df[(df["tool"] == TOOL) & df["model"].notna()] if {"tool", "model"} <= set(df.columns) else df.iloc[0:0]
    if "weights_params_b" not in d:
        return {}
    out = {}
    for model, g in d.groupby("model"):
        n = pd.to_numeric(g["weights_params_b"], errors="coerce").dropna().unique()
        size = hardware.model_size(str(model))
        if len(n) == 1 and n[0] > 0 and size is not None and not size.moe and size.active_b:
            out[str(model)] = float(n[0])
    return out


def sweep(df: pd.DataFrame, stated: dict | None = None) -> pd.DataFrame:
    """One row per table row in the columns of `analysis.batch.sweep`: throughput S_TG, latency T_TG
    for TG new tokens per sequence (`timed` GENERATION), no "msec/token" (the tool prints none); the
    prompt phase (`prefill_s` T_PP, `prefill_tok_s` S_PP) and the whole row (`total_s` T, `total_tok_s`
    S = N_KV / T) kept beside it. `stated`: per source, the names the rest of its file gives the weights
    (`precision.stated_names`), read where the model's own name states no precision (as `one_batch`'s)."""
    d = df[df["tool"] == TOOL] if "tool" in df else df.iloc[0:0]
    if d.empty:
        return pd.DataFrame(columns=COLUMNS)
    d = keyed(d, _KEYS)
    tables = d[["source", "table"]].drop_duplicates().shape[0]
    rows = []
    for val, first, model, w in measurements(d, stated):
        t_tg, s_tg = val.get("generation_time"), val.get("generation_throughput")
        if t_tg is None or s_tg is None:
            continue
        tg = int(first["tg"])
        printed = first.get("weights")
        if isinstance(printed, str) and (p := precision.weights(model, names=(printed,), assume=False)).precision:
            w = p  # llama-bench's print of the same file's type (`ingest.llama_batched_bench._section_weights`)
            size, n = first.get("weights_size_gib"), first.get("weights_params_b")
            if size and n and not pd.isna(size) and not pd.isna(n):
                w = precision.Weights(w.precision, _file_bytes_per_weight(model, size, n), w.source, w.detail)
        rows.append(
            dict(
                model=model,
                framework=FRAMEWORK,
                gpu="",
                dtype=w.precision or UNSTATED,
                variant=_variant(first, tables),
                dtype_assumed=False,
                bytes_per_weight=w.bytes_per_weight,
                batch_size=int(first["batch"]),
                throughput_tok_s=float(s_tg),
                tool_ms_per_token=np.nan,
                latency_s=float(t_tg),
                conflict=False,
                new_tokens=float(tg),
                per_sequence_ms_per_token=float(t_tg) / tg * 1000.0,
                has_result=True,
                devices=np.nan,
                timed=GENERATION,
                input_len=first.get("pp"),
                output_len=tg,
                prefill_s=val.get("prompt_time", np.nan),
                prefill_tok_s=val.get("prompt_throughput", np.nan),
                total_s=val.get("total_time", np.nan),
                total_tok_s=val.get("total_throughput", np.nan),
            )
        )
    return pd.DataFrame(rows, columns=COLUMNS)


def with_sweep(sw: pd.DataFrame, df: pd.DataFrame, stated: dict | None = None) -> pd.DataFrame:
    """`analysis.batch.sweep`'s table `sw` with this tool's points of `df` added (`one_batch.with_points`)."""
    return with_points(sw, sweep(df, stated))
