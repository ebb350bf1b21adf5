"""Prompt processing (prefill) and the settings a llama-bench run sweeps. Numbers only (claims:
`benchbook.claims.bandwidth.prefill`; sentences: `benchbook.presentation.bandwidth`).

llama-bench's `ppN` test evaluates N prompt tokens in batches of n_batch (n_ubatch at a time) after
`n_depth` tokens already in the KV cache (`pp512 @ d4096`: 512 prompt tokens after a 4096-token
context) and prints avg_ts = N / mean test time, per repetition then averaged. A batch of many
tokens reuses each weight it reads for every token of the batch, so prefill is compute-bound, not
bandwidth-bound:

    FLOP/s            = 2 x params x tok/s      (a multiply and an add per weight per token;
                                                 an MoE model: its active params)
    share of the peak = FLOP/s / the device's dense 16-bit peak (a CPU's fp32 where it lists none)

Attention over the prompt and the cache adds FLOPs this leaves out (more at depth), so the share is
a floor. The device is the one the decode roofline uses (`bandwidth.choose_peak`). A GPU build run
with -ngl 0 keeps the weights in host memory but ggml still runs the matrix products of a large
batch (32 tokens or more) on the GPU, copying the weights over, so neither device's peak bounds
that rate: its share is withheld, as is a partly offloaded run's, a blend of two devices. A pass
over few tokens is no compute-bound step: it uses each weight it reads for 2 FLOPs per token of the
pass (at most min(N, n_ubatch)), so at b bytes a weight its intensity is at most 2 x tokens / b FLOPs
per byte (b from the file size, else 1 bit, the fewest any weight is stored in); left of the device's
ridge the memory, not the compute, bounds it, and its share of the compute peak is withheld
(`pass_intensity`).

A sweep: rows of one model, device and test (kind, prompt length, depth) that differ in exactly one
setting (threads, n_gpu_layers, split mode, the KV cache types, flash attention, depth, batch
sizes, backend or any other column the table prints), or pp rows that differ only in the prompt
length: `sweeps` gives each with its rate per value.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from benchbook.analysis import bandwidth, roofline
from benchbook.ingest import llama_bench
from benchbook.ingest.core import CONFLICT

#: The settings a sweep may vary, in the order the page lists them (the tidy table's names; a column
#: llama-bench prints that the schema does not name is split out of extra_settings by its own name).
SETTINGS = ("backend", "threads", "ngl", "n_cpu_moe", "fa", "type_k", "type_v", "n_batch", "n_ubatch")

#: The axes of a test itself: the depth (prompt and generation tests) and the prompt length (pp tests).
TEST_AXES = ("n_depth", "n_prompt")


def prompt_rows(df: pd.DataFrame) -> pd.DataFrame:
    """One row per prompt-processing (pp) measurement: settings, mean rate, printed std, mode and model."""
    return bandwidth.generation_rows(df, metric="pp_rate")


#: The rates of a llama-bench result, by the kind of test the page calls it.
_RATE_KINDS = {"tg_rate": "generation", "pp_rate": "prompt-processing"}


def conflicted(rejected: pd.DataFrame) -> list[dict]:
    """Each configuration the output prints more than once with different mean rates (the ingest
    screen sets all of them aside as a conflict, so no chapter picks one): its kind of test and the
    lines of its rows, in the output's order. Results the input holds and no page uses, never absent."""
    if rejected.empty:
        return []
    anchor = rejected["reason"].astype(str).str.extract(rf"^{re.escape(CONFLICT)}: same configuration as line (\d+)")[0]
    metric = rejected["text"].astype(str).str.extract(r"^(\w+) mean ")[0]
    rows = rejected.assign(anchor=anchor, metric=metric).dropna(subset=["anchor", "metric"])
    rows = rows[rows["metric"].isin(_RATE_KINDS)]
    groups = rows.groupby(["source", "anchor", "metric"], sort=False)["line"]
    found = [{"kind": _RATE_KINDS[m], "lines": sorted(int(x) for x in lines)} for (_, _, m), lines in groups]
    return sorted(found, key=lambda g: g["lines"][0])


def unparsed(rejected: pd.DataFrame) -> list[dict]:
    """Each prompt-processing record whose JSON does not parse (its numbers set aside by the parser,
    which names the record's test): its test and the line of its rate (`avg_ts`, else its first number).
    A pp result the input holds but this read could not, never an absent one."""
    if rejected.empty:
        return []
    m = rejected["reason"].astype(str).str.extract(rf"^{re.escape(llama_bench.UNPARSED)} \((pp[^)]*)\)$")[0]
    pp = rejected.assign(test=m).dropna(subset=["test"])
    pp = pp.assign(rate=pp["text"].astype(str).str.contains('"avg_ts"'))
    first = pp.sort_values(["rate", "line"], ascending=[False, True]).groupby(["source", "test"], sort=False).head(1)
    return [
        {"test": t, "line": int(n)}
        for t, n in sorted(zip(first["test"], first["line"], strict=True), key=lambda x: x[1])
    ]


def extra_columns(rows: pd.DataFrame) -> pd.DataFrame:
    """`rows` with each `name=value` of extra_settings (columns llama-bench printed that the schema
    does not name: sm, nkvo, mmap, embd...) as its own column, named as printed."""
    if rows.empty or "extra_settings" not in rows:
        return rows
    parsed = [bandwidth.setting_pairs(s) if isinstance(s, str) else {} for s in rows["extra_settings"]]
    extra = pd.DataFrame(parsed, index=rows.index)
    extra = extra[[c for c in extra.columns if c not in rows.columns]]
    return pd.concat([rows, extra], axis=1)


def _key(rows: pd.DataFrame, cols: list[str]) -> pd.Series:
    return rows[cols].astype("string").fillna("-").agg("|".join, axis=1) if cols else pd.Series("", index=rows.index)


def sweeps(rows: pd.DataFrame) -> list[dict]:
    """Each sweep of one setting in `rows` (`generation_rows` of any metric, concatenated): setting,
    test (the test name without the swept axis: "pp512", "tg128", "pp" for a prompt-length sweep),
    model (its label), device (the printed GPU or CPU, None where not printed) and `values`, a list of
    (value, rate, std, line) in the order the rows were printed. Rows that leave the setting unprinted
    are in none of its sweeps."""
    if rows.empty:
        return []
    r = extra_columns(rows.reset_index(drop=True))
    r["_label"] = labels(r, backend=False)
    r["_kind"] = np.where(pd.to_numeric(r["n_prompt"], errors="coerce").fillna(0) > 0, "pp", "tg")
    r["_gen"] = r["test"].astype(str).str.extract(r"tg(\d+)", expand=False).fillna("")
    extra = [c for c in r.columns if c not in rows.columns and not c.startswith("_")]
    settings = [c for c in (*SETTINGS, *extra, *TEST_AXES) if c in r.columns]
    base = ["model_key", "_label", "mode", "gpu", "cpu", "power_limit_w", "_kind", "_gen"]
    base = [c for c in base if c in r.columns]
    out = []
    for s in settings:
        if s == "n_prompt" and not (r["_kind"] == "pp").any():
            continue
        d = r[r[s].notna()] if s != "n_prompt" else r[(r["_kind"] == "pp") & ~_one_request(r)]
        if d.empty:
            continue
        others = [c for c in settings if c != s]
        if s == "n_prompt":
            others = [c for c in others if c != "n_depth"] + ["n_depth"]
        key = _key(d, base + others)
        if s == "n_depth" and "table_line" in d:
            # one llama-sweep-bench table is one run stepping its own N_KV: two tables of the same printed settings
            # (a run and its rerun with an unprinted option changed) are two sweeps, not one with each depth twice
            key = key + "|" + d["table_line"].astype("string").fillna("-")
        for _, g in d.groupby(key, sort=False):
            vals = g[s].astype("string")
            if vals.nunique() < 2:
                continue
            first = g.iloc[0]
            # llama-sweep-bench's depths are its N_KV column, which it steps by -ub itself (no -d flag)
            swept = s == "n_depth" and "table_line" in g and g["table_line"].notna().all()
            out.append(
                {
                    "setting": "n_kv" if swept else s,
                    "test": _test_without(first, s),
                    "model": first["_label"],
                    "device": bandwidth._text(first.get("gpu") if first.get("mode") != "cpu" else first.get("cpu")),
                    "values": [
                        (_value(v), float(x), float(e) if pd.notna(e) else None, int(ln))
                        for v, x, e, ln in zip(g[s], g["rate"], g["rate_std"], g["line"], strict=True)
                    ],
                }
            )
    return out


def _one_request(r: pd.DataFrame) -> pd.Series:
    """Per row, whether it is a request Ollama timed (`ollama run --verbose`): its prompt is the text the writer
    typed or piped in (`ollama run MODEL < cover_letter_prompt.txt`), and Ollama has no option that sets a prompt's
    length, so two of them with prompts of different lengths (a cover letter and a song, 409 and 126 tokens) are two
    requests, not a sweep of the prompt length that llama-bench's -p sets. A llama-server's requests at chosen
    lengths (512, 1024, 2048 at one depth) are still read as one."""
    if "timings" not in r:
        return pd.Series(False, index=r.index)
    return r["timings"].astype("string").eq(bandwidth.OLLAMA).fillna(False).astype(bool)


def _value(v):
    """A setting's value as printed (a whole number without its decimal point)."""
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return int(v)
    if isinstance(v, (np.integer,)):
        return int(v)
    return v


def _test_without(row, setting: str) -> str:
    """The test a sweep holds fixed: its name without the swept axis (a depth sweep of pp512 is
    "pp512", a prompt-length sweep "pp", with its depth where it is not 0)."""
    test = str(row["test"])
    if setting == "n_depth":
        return re.sub(r"\s*@\s*d\d+", "", test)
    if setting == "n_prompt":
        return re.sub(r"^pp\d+", "prompt processing", test)
    return test


#: llama.cpp's quantised weight types (`Q4_0`, `Q4_K - Medium`, `IQ2_XXS`, `TQ1_0`, `MXFP4`), in a model label
#: or a GGUF file name; F16, BF16 and F32 are not among them.
_QUANTISED = re.compile(r"(?:^|[\s_.\-])(?:I?Q\d|TQ\d|MXFP4)", re.I)
#: Backends whose matrix products of a batch take quantised weights with int8 dot products (CUDA and ROCm's
#: MMQ, Vulkan's and SYCL's integer-dot kernels); Metal dequantises to 16 bits, the CPU has no such peak listed.
_INT8_BACKENDS = re.compile(r"\b(?:cuda|rocm|hip|vulkan|sycl|musa)\b", re.I)


def int8_kernels(row) -> bool:
    """Whether a prompt's matrix products may have run on int8 dot products: a quantised model on a GPU
    backend with such kernels (or on a GPU run whose backend the output does not print, Metal excepted). `points`
    takes the int8 peak only for a rate above the 16-bit one of a dense model whose label's size class fits its
    parameters, on one listed GPU: an MoE counted dense or several GPUs stay beyond physics.
    llama.cpp multiplies quantised weights by int8-quantised activations there (`ggml_cuda_should_use_mmq`,
    Vulkan's `mul_mmq`), so the int8 peak, not the 16-bit one, bounds that rate."""
    model = f"{row.get('model') or ''} {row.get('model_file') or ''}"
    if row.get("mode") != "gpu" or not _QUANTISED.search(model):
        return False
    backend = str(row.get("backend") or "")
    if re.search(r"metal|mtl", backend, re.I):
        return False
    return bool(_INT8_BACKENDS.search(backend)) or not backend.strip() or backend.lower() in ("nan", "none")


def _dense_class(model, params_b) -> bool:
    """Whether llama.cpp's model label names a size class (`llama 8B Q4_0`: 8B) that its printed parameter
    count fits: a model llama.cpp knows, counted whole. `laguna ?B` (a type llama.cpp does not know, often an
    MoE counted dense) or an MoE's `30B.A3B` is not one, so its rate above a peak stays beyond physics."""
    m = re.search(r"\s(\d+(?:\.\d+)?)([BM])(?=\s|$)", str(model or ""))
    if not m or params_b is None or not params_b > 0:
        return False
    size = float(m[1]) / (1000 if m[2] == "M" else 1)
    return 0.75 <= size / float(params_b) <= 1.35


#: The fewest bytes any weight is stored in (1 bit): with no file size, the bound that keeps a pass's
#: highest intensity an upper bound whatever the precision.
FEWEST_BYTES_PER_WEIGHT = 1 / 8


def pass_intensity(r: pd.Series, params_b: float | None) -> tuple[float | None, float | None]:
    """The highest FLOPs per byte of weights one pass of a prompt can do: 2 x its tokens (the prompt,
    at most one micro-batch of them) / bytes per weight (the file size over the parameters, else
    `FEWEST_BYTES_PER_WEIGHT`), and the tokens per pass; (None, None) where the prompt length is unknown."""
    n = pd.to_numeric(r.get("n_prompt"), errors="coerce")
    if pd.isna(n) or n <= 0:
        return None, None
    ub = pd.to_numeric(r.get("n_ubatch"), errors="coerce")
    tokens = float(min(n, ub)) if pd.notna(ub) and ub > 0 else float(n)
    gib = pd.to_numeric(r.get("model_size_gib"), errors="coerce")
    per_weight = float(gib) * bandwidth.GIB / (params_b * 1e9) if pd.notna(gib) and params_b else None
    return 2 * tokens / (per_weight or FEWEST_BYTES_PER_WEIGHT), tokens


def points(rows: pd.DataFrame, gpu: str = "", moe_override=None, bw: float = 0.0, tf: float = 0.0) -> pd.DataFrame:
    """Per pp row: its device's peaks (`bandwidth.choose_peak`), the model's size (`bandwidth.model_size`),
    FLOP/s = 2 x active params x tok/s (`tflops`, None where the size is unknown) and its share of the
    dense peak (`share`, None where the device, its peak or the size is unknown or the rate mixes two
    devices: `no_share` says why); where no device peak is known, `beyond_every` [device, peak] where the
    FLOP/s exceed the highest dense peak at any precision of every device the table lists."""
    override = bandwidth.override_table(moe_override)
    names = labels(rows)
    out = []
    for i, r in rows.iterrows():
        pk = bandwidth.spanned_peak(bandwidth.choose_peak(gpu, r, bw, tf), r, own=bool(bw or tf), prompt=True)
        size = bandwidth.row_model_size(override, r)
        active = size["active_params_b"]
        tflops = 2 * active * 1e9 * r["rate"] / 1e12 if active and r["rate"] > 0 else None
        peak = pk.dense_tflops
        backend = r.get("backend")
        backend = backend if isinstance(backend, str) else ""  # an unprinted backend (NaN) names no GPU build
        # a GPU build whose backend found no device (`gpus_listed` 0: `failed to initialize CUDA`) runs on the CPU
        listed = r.get("gpus_listed")
        found = listed is None or pd.isna(listed) or int(listed) > 0
        gpu_build = found and bool({b.strip().lower() for b in backend.split(",")} - {"cpu", "blas", ""})
        ngl = r.get("ngl")
        no_op_offload = "nopo=1" in str(r.get("extra_settings") or "")  # llama-bench -nopo 1 keeps them on the CPU
        if (
            r["mode"] == "cpu"
            and gpu_build
            and not no_op_offload
            and ngl is not None
            and pd.notna(ngl)
            and int(ngl) == 0
        ):
            why = "offloaded"
        elif r["mode"] == "partial":
            why = "partial"
        elif pk.source == "detected" and bandwidth.gpus_unstated(r):  # a parameter is the reader's own device
            why = "gpus_unstated"
        elif bandwidth.rpc_spanned(r, pk):  # layers on RPC servers' devices the input does not count
            why = "rpc_spanned"
        else:
            why = None
        intensity, per_pass = pass_intensity(r, size["params_b"])
        ridge = pk.ridge()  # of the dense peak the share is of
        if why is None and intensity is not None and ridge and intensity < ridge:
            why = "below_ridge"  # memory, not compute, bounds a pass over so few tokens
        precision = "16-bit" if pk.peak_tflops("bf16") else ("fp32" if peak else None)
        int8 = pk.int8_tops
        if (
            tflops
            and peak
            and int8
            and peak < tflops <= int8
            and precision == "16-bit"
            and int8_kernels(r)
            and size["architecture"] == "dense"
            and _dense_class(r.get("model"), size["params_b"])
            and not (pd.notna(r.get("gpus_listed")) and int(r.get("gpus_listed")) > 1)
        ):
            peak, precision = int8, "int8"  # above the 16-bit roof: only the int8 kernels compute that fast
        # no device peak known: FLOPs above every device's highest peak at any precision are beyond physics
        top, top_device = roofline.highest_peak_any_precision() if tflops and not peak else (None, None)
        out.append(
            {
                **r.to_dict(),
                **bandwidth.device_fields(pk),
                "beyond_every": [top_device, top] if top and tflops > top else None,
                "peak_tflops": peak,
                "peak_precision": precision,
                "architecture": size["architecture"],
                "params_b": size["params_b"],
                "active_params_b": active,
                "size_source": size["size_source"],
                "tflops": tflops,
                "share": tflops / peak if tflops and peak and why is None else None,
                "no_share": why,
                "max_intensity": intensity,
                "tokens_per_pass": per_pass,
                "label": names[i],
            }
        )
    cols = list(rows.columns) + ["device", "peak_tflops", "peak_precision", "peak_source", "architecture"]
    cols += ["params_b", "active_params_b", "size_source", "tflops", "share", "no_share", "label", "beyond_every"]
    cols += ["max_intensity", "tokens_per_pass", "ridge"]
    res = pd.DataFrame(out, columns=list(dict.fromkeys(cols)))
    for c in ("tflops", "share", "peak_tflops", "active_params_b", "params_b"):
        res[c] = pd.to_numeric(res[c], errors="coerce")
    return res


def labels(rows: pd.DataFrame, backend: bool = True) -> pd.Series:
    """Per row, its model's label (`bandwidth.label` of its model key), with the engine or build it
    ran on where one model ran on several (`bandwidth.engines`) and, with `backend`, its backend where
    one model ran on several backends (ROCm and Vulkan on one card; a sweep names it as its setting)."""
    if rows.empty:
        return pd.Series(dtype=object, index=rows.index)
    base = pd.Series(
        [  # a row whose model nothing names (`model_keys`' "?") by its line, as `bandwidth.label` names it
            bandwidth.label({"model_file": k} if k != "?" else {"line": ln})
            for k, ln in zip(rows["model_key"], rows["line"] if "line" in rows else [None] * len(rows), strict=True)
        ],
        index=rows.index,
        dtype=object,
    )
    engine = bandwidth.engines(rows)
    backends = rows["backend"].astype("string") if "backend" in rows else pd.Series(pd.NA, index=rows.index)
    several = (backends.groupby(rows["model_key"]).transform("nunique") > 1) & backend
    out = base.copy()
    for i in rows.index:
        said = [str(engine[i]).rstrip(":")] if engine[i] else []
        said += [str(backends[i])] if several[i] and pd.notna(backends[i]) else []
        out[i] = f"{base[i]} ({', '.join(said)})" if said else base[i]
    return out


def fastest(pts: pd.DataFrame) -> pd.DataFrame:
    """Per model (and engine or backend, where it ran on several: its `label`) and device, the pp row
    of the highest FLOP/s (else the highest rate): the one closest to the compute roof, which its
    claim measures."""
    if pts.empty:
        return pts
    order = pts.assign(_f=pts["tflops"].fillna(-1.0), _dev=pts["device"].astype("string").fillna("-"))
    order = order.sort_values(["_f", "rate", "line"], ascending=[False, False, True])
    return order.drop_duplicates(["label", "_dev", "mode"]).drop(columns=["_f", "_dev"]).sort_values("line")


def constants(rows: pd.DataFrame) -> list[tuple[str, object]]:
    """The settings every row of the input prints with one value (the KV cache types, threads,
    layers on the GPU...), as (setting, value), in `SETTINGS` order then the other printed columns."""
    if rows.empty:
        return []
    r = extra_columns(rows.reset_index(drop=True))
    extra = [c for c in r.columns if c not in rows.columns]
    out = []
    for c in (*SETTINGS, *extra):
        if c in r.columns and r[c].notna().all() and r[c].astype("string").nunique() == 1:
            out.append((c, _value(r[c].iat[0])))
    return out
