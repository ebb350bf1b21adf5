"""Tensor-parallel scaling from text-generation-benchmark tables: numbers only.

Everything works on `wide(df)`: one row per configuration, metric and batch size, with the
statistics as columns (mean, min, max, p50, p90, p99) and the raw `line`. Latencies are the
Average column, with Lowest and Highest as their spread (order-independent; the percentile columns
are not trustworthy). Verdicts live in `benchbook.claims.tp`, figures and sentences in
`benchbook.presentation.tp`.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from benchbook import hardware
from benchbook.analysis import roofline
from benchbook.ingest.tgi import NAME

LATENCY_METRICS = ("prefill_latency", "decode_token_latency")

#: The settings that identify one table of a text-generation-benchmark output.
KEYS = [
    "source",
    "model",
    "tp",
    "sequence_length",
    "decode_length",
    "quantize",
    "max_batch_total_tokens",
    "section",
    "parameters",
    "batch_size",
]

#: The weights' precision under a TGI `--quantize` value, where the launcher states it: bitsandbytes
#: is 8-bit LLM.int8(), bitsandbytes-nf4 and bitsandbytes-fp4 are 4-bit (text-generation-launcher
#: --help, option --quantize). Other values are left out rather than guessed; the bytes per weight
#: are the roofline's (`roofline.bytes_per_weight`).
QUANT_PRECISION = {"bitsandbytes": "int8", "bitsandbytes-nf4": "int4", "bitsandbytes-fp4": "fp4"}

#: The bytes_per_param parameter's default, 16-bit weights (TGI loads float16 unless told otherwise): a value
#: left at it is no choice of the reader's, so the input's own precision, where it states one, comes first.
DEFAULT_BYTES_PER_PARAM = 2.0


def weights(w: pd.DataFrame, model_id: str | None, bytes_per_param: float):
    """The weights' precision of the main configuration `w` (an `analysis.precision.Weights`), in the order
    TGI loads them: the bytes_per_param parameter where the reader sets another value than the default;
    else the table's `--quantize`, one value for every row (QUANT_PRECISION's widths, or a method's tag);
    else a quantization tag in the model's name (`TheBloke/Llama-2-7B-AWQ`: TGI reads the method from the
    checkpoint's `quantization_config` when `--quantize` is not given, and AWQ and GPTQ store 4-bit weights
    unless the name gives another width); else 16-bit: stated where every row's `--quantize` is None (the
    launcher's `quantize: None`, a "No Quantization" heading: source "unquantized"), else assumed."""
    from benchbook.analysis import precision

    if bytes_per_param != DEFAULT_BYTES_PER_PARAM:
        return precision.Weights(None, bytes_per_param, "parameter")
    said = {str(q) for q in w["quantize"].dropna()} - {"none", "None", ""} if "quantize" in w else set()
    if len(said) == 1:
        q = said.pop()
        prec = QUANT_PRECISION.get(q) or ((t := precision.tagged(q)) and t[0])
        if prec and math.isfinite(roofline.bytes_per_weight(prec)):
            return precision.Weights(prec, roofline.bytes_per_weight(prec), "output", f"quantize {q}")
    hit = precision.tagged(model_id) if model_id else None
    if hit and hit[0] not in precision.UNQUANTIZED and math.isfinite(roofline.bytes_per_weight(hit[0])):
        return precision.Weights(hit[0], roofline.bytes_per_weight(hit[0]), "name", hit[1])
    if "quantize" in w and len(w) and w["quantize"].eq("none").all():
        return precision.Weights("fp16", DEFAULT_BYTES_PER_PARAM, "unquantized", "quantize None")
    return precision.Weights("fp16", DEFAULT_BYTES_PER_PARAM, "assumed")


#: (layers, hidden size) of decoder-only models whose config.json we have read, matched by substring
#: of the model id: bloomz-7b1 (n_layer 30, hidden_size 4096), bloom(z)-1b1 (n_layer 24, hidden_size
#: 1536), Meta-Llama-3-70B (num_hidden_layers 80, hidden_size 8192), Llama-2-7b (32, 4096).
ARCHITECTURE = {
    "bloomz-7b1": (30, 4096),
    "bloomz-1b1": (24, 1536),
    "bloom-1b1": (24, 1536),
    "meta-llama-3-70b": (80, 8192),
    "llama-2-7b": (32, 4096),
}

#: KV-cache bytes per token in fp16 (2 tensors x layers x KV width x 2 bytes), for models whose
#: configuration we have read: bloomz-7b1 (config.json: n_layer 30, hidden_size 4096, no GQA) and
#: Meta-Llama-3-70B (config.json: 80 layers, 8 KV heads x 128). Matched by substring of the model id.
KV_BYTES_PER_TOKEN = {"bloomz-7b1": 2 * 30 * 4096 * 2, "meta-llama-3-70b": 2 * 80 * 8 * 128 * 2}

#: Tensor parallelism (Megatron-LM, Shoeybi et al. 2019, section 3) splits each transformer layer's
#: attention and MLP across the GPUs, and sums their partial outputs with one all-reduce after each:
#: two all-reduces per layer per step, each of hidden_size values per token in the batch.
ALLREDUCES_PER_LAYER = 2


def wide(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (configuration, metric, batch size) with a column per statistic and the raw line."""
    d = df[df["tool"] == NAME].copy()
    d["section"] = d["section"].fillna("")
    # the parameter table's other rows (top_n_tokens, repetition_penalty, ...): tables that differ only there
    # are two configurations, not one table printed twice
    d["parameters"] = d["parameters"].fillna("") if "parameters" in d else ""
    d["tp"] = d["tp"].astype("Int64")
    keys = KEYS + ["metric"]
    values = d.groupby(keys + ["statistic"], dropna=False, sort=False)["value"].first().unstack("statistic")
    lines = d.groupby(keys, dropna=False)["line"].min()
    notes = d.groupby(keys, dropna=False)["note"].apply(
        lambda s: "; ".join(sorted({n for n in s if isinstance(n, str) and n}))
    )
    runs = d.groupby(keys, dropna=False)["n_runs"].first() if "n_runs" in d else None
    out = values.join(lines).join(notes)
    out = (out.join(runs) if runs is not None else out.assign(n_runs=pd.NA)).reset_index()
    out.columns.name = None
    for stat in ("mean", "min", "max", "p50", "p90", "p99"):
        if stat not in out:
            out[stat] = np.nan
    out = out[out["line"].notna()].sort_values(["source", "line", "metric"], kind="stable")
    return out.reset_index(drop=True)


def combine(w: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """Stack several files' wide tables, dropping rows a later file repeats exactly (same
    configuration, metric, batch size and mean): returns (table, number of rows dropped)."""
    keys = ["model", "tp", "sequence_length", "decode_length", "quantize", "parameters", "metric", "batch_size", "mean"]
    dup = w.duplicated(subset=[k for k in keys if k in w], keep="first") & w["mean"].notna()
    return w[~dup].reset_index(drop=True), int(dup.sum())


def main_config(w: pd.DataFrame) -> pd.DataFrame:
    """The rows a TP comparison can use: the (sequence_length, quantize) configuration measured at
    the most TPs (ties: the most rows, then the first in the file), and within it, per TP, one
    section: the one with the most measured rows (ties: the first in the file). Other sections at
    the same TP (another decode length, a repeated table) would otherwise be mixed by row order."""
    if w.empty:
        return w
    params = w["parameters"] if "parameters" in w else pd.Series("", index=w.index)
    g = w.assign(_params=params).groupby(["sequence_length", "quantize", "_params"], dropna=False, sort=False)
    g = g.agg(n_tp=("tp", "nunique"), n=("line", "size"), first=("line", "min"))
    best = g.sort_values(["n_tp", "n", "first"], ascending=[False, False, True]).index[0]
    seq_ok = w["sequence_length"].isna() if pd.isna(best[0]) else w["sequence_length"] == best[0]
    quant_ok = w["quantize"].isna() if pd.isna(best[1]) else w["quantize"] == best[1]
    m = w[seq_ok & quant_ok & (params == best[2])]
    per = m.groupby(["tp", "source", "section"], dropna=False, sort=False).agg(
        n=("mean", "count"), first=("line", "min")
    )
    per = per.reset_index().sort_values(["n", "first"], ascending=[False, True]).drop_duplicates("tp")
    keep = m.set_index(["tp", "source", "section"]).index.isin(per.set_index(["tp", "source", "section"]).index)
    return m[keep].reset_index(drop=True)


def absent_tps(listed: list[int], w_all: pd.DataFrame) -> tuple[list[int], list[int]]:
    """(the TPs a launcher block lists, `ingest.tgi.listed_tps`; those of them with no table in the
    input): a write-up can set out a sweep and publish only part of it."""
    measured = {int(t) for t in w_all["tp"].dropna().unique()} if len(w_all) else set()
    return sorted(listed), [t for t in sorted(listed) if t not in measured]


def _param_items(parameters: str) -> set[str]:
    return {x.strip() for x in str(parameters).split(";") if x.strip()}


def other_parameters(w_all: pd.DataFrame, w: pd.DataFrame, metric: str = "decode_token_latency") -> list[dict]:
    """The configurations left out of the main one only because their parameter table differs (same
    prompt length and quantization; another top_n_tokens, repetition_penalty, ...): per configuration,
    the TPs it ran at, the parameter settings that differ from the main one's (`differs`), and at the
    largest batch size both measured at one TP the mean `metric` of each (`batch_size`, `tp`, `mean`,
    `main_mean`). Empty when every table shares the main configuration's parameters."""
    if w.empty or w_all.empty or "parameters" not in w_all:
        return []
    main = w.iloc[0]
    same_seq = (
        w_all["sequence_length"].isna()
        if pd.isna(main["sequence_length"])
        else (w_all["sequence_length"] == main["sequence_length"])
    )
    same_quant = w_all["quantize"].isna() if pd.isna(main["quantize"]) else w_all["quantize"] == main["quantize"]
    rest = w_all[same_seq & same_quant & (w_all["parameters"] != main["parameters"])]
    out = []
    for params, g in rest.groupby("parameters", sort=False):
        differs = sorted(_param_items(params) - _param_items(main["parameters"]))
        item = dict(differs=differs, tps=sorted(int(t) for t in g["tp"].dropna().unique()))
        a = g[(g["metric"] == metric) & g["mean"].notna()]
        b = w[(w["metric"] == metric) & w["mean"].notna()]
        both = a.merge(b, on=["tp", "batch_size"], suffixes=("", "_main"))
        if len(both):
            r = both.sort_values(["batch_size", "tp"]).iloc[-1]
            item.update(
                batch_size=int(r["batch_size"]),
                tp=int(r["tp"]) if pd.notna(r["tp"]) else None,
                mean=float(r["mean"]),
                main_mean=float(r["mean_main"]),
            )
        out.append(item)
    return out


def architecture(model_id: str) -> dict | None:
    """{layers, hidden} of a decoder-only model we know (ARCHITECTURE), else None (an unknown or
    encoder-decoder model, or a tokenizer name)."""
    key = str(model_id).lower()
    if tokenizer_name(model_id) == "tokenizer":
        return None
    hits = [v for k, v in ARCHITECTURE.items() if k in key]
    return {"layers": hits[0][0], "hidden": hits[0][1]} if hits else None


# ------------------------------------------------------------------------- the all-reduce cost model
def allreduce_bytes(hidden: int, batch_size: int, bytes_per_value: float = 2.0) -> float:
    """The bytes one all-reduce sums in a decode step: hidden_size values per sequence of the batch."""
    return float(hidden) * batch_size * bytes_per_value


def ring_allreduce_s(n_gpus: int, nbytes: float, link_gb_s: float, step_latency_s: float) -> float:
    """Seconds of one ring all-reduce of `nbytes` over `n_gpus` (Thakur, Rabenseifner and Gropp 2005,
    section 4): 2(N - 1) steps, each sending nbytes / N over the link and paying `step_latency_s`, so
    each GPU sends 2(N - 1)/N x nbytes in all. Zero on one GPU: nothing to sum."""
    if n_gpus <= 1:
        return 0.0
    steps = 2 * (n_gpus - 1)
    return steps * step_latency_s + steps / n_gpus * nbytes / (link_gb_s * 1e9)


#: Two links a tensor-parallel group's all-reduces may cross, in GB/s each way: PCIe 4.0 x16 (16 GT/s x
#: 16 lanes, 128b/130b coding: 31.5 GB/s, PCI-SIG PCIe 4.0 specification) and the NVLink 4 of an H100
#: SXM (900 GB/s both ways together, NVIDIA H100 datasheet). The lesson sets the bytes against both.
LINKS = (("PCIe 4.0 x16", 31.5), ("NVLink 4 (H100)", 450.0))


def ring_steps_added(from_tp: int, to_tp: int, allreduces: int) -> int:
    """Ring steps a decode step gains going from TP `from_tp` to `to_tp`: 2(N - 1) per all-reduce."""
    return allreduces * 2 * (to_tp - from_tp)


def tp_step_ms(n_gpus, split_ms: float, per_gpu_ms: float, fixed_ms: float = 0.0):
    """The decode step of the chapter's scaling model, in ms: the work that splits (`split_ms` on one
    GPU: weight and KV-cache reads, FLOPs) divided among N GPUs, plus `per_gpu_ms` for every GPU past
    the first (the ring all-reduces' 2(N - 1) steps), plus a fixed part. It is lowest at
    N = sqrt(split_ms / per_gpu_ms): past it, an added GPU costs more than it saves."""
    n = np.asarray(n_gpus, dtype=float)
    return split_ms / n + per_gpu_ms * (n - 1) + fixed_ms


def allreduce_budget(
    layers: int, hidden: int, batch_size: int, n_gpus: int, link_gb_s: float, bytes_per_value: float = 2.0
) -> dict:
    """What one decode step's all-reduces move at TP `n_gpus`: their count (2 per layer), the bytes
    each sums, the bytes each GPU sends for all of them (2(N - 1)/N of each), and the time that takes
    over a link of `link_gb_s` with no latency at all (a lower bound of the all-reduces' cost)."""
    count = ALLREDUCES_PER_LAYER * layers
    each = allreduce_bytes(hidden, batch_size, bytes_per_value)
    sent = count * 2 * (n_gpus - 1) / n_gpus * each
    return {
        "allreduces": count,
        "bytes_each": each,
        "bytes_sent": sent,
        "link_gb_s": link_gb_s,
        "bandwidth_ms": sent / (link_gb_s * 1e9) * 1000,
    }


def kv_bytes_per_token(model_id: str) -> float | None:
    """KV-cache bytes per token of a model we know (KV_BYTES_PER_TOKEN), else None."""
    key = str(model_id).lower()
    if tokenizer_name(model_id) == "tokenizer":
        return None
    hits = [v for k, v in KV_BYTES_PER_TOKEN.items() if k in key]
    return float(hits[0]) if hits else None


#: d2(n): the expected range of n normal draws in standard deviations (Tippett 1925; the
#: control-chart constant), so that sd ~ (Highest - Lowest) / d2(N Runs).
D2 = {
    2: 1.128,
    3: 1.693,
    4: 2.059,
    5: 2.326,
    6: 2.534,
    7: 2.704,
    8: 2.847,
    9: 2.970,
    10: 3.078,
    11: 3.173,
    12: 3.258,
    13: 3.336,
    14: 3.407,
    15: 3.472,
    16: 3.532,
    17: 3.588,
    18: 3.640,
    19: 3.689,
    20: 3.735,
    25: 3.931,
    30: 4.086,
    50: 4.498,
    100: 5.015,
}


def rel_se(mean, low, high, n_runs) -> float:
    """Relative standard error of an Average from its Lowest-Highest range: sd = range / d2(N Runs)
    (normal runs assumed), se = sd / sqrt(N Runs). Without N Runs, half the range (conservative)."""
    if any(pd.isna(v) for v in (mean, low, high)) or not mean:
        return math.nan
    spread = (float(high) - float(low)) / abs(float(mean))
    if pd.isna(n_runs) or int(n_runs) < 2:
        return spread / 2
    n = int(n_runs)
    d2 = D2[max(k for k in D2 if k <= n)]  # past the table's last N, its last d2
    return spread / d2 / math.sqrt(n)


def noise(*rel_ses) -> float:
    """The relative difference two or more Averages must exceed to count: 2 standard errors of their
    ratio, sqrt of the summed squared relative standard errors (missing ones count as 0)."""
    vals = [float(v) for v in rel_ses if v is not None and not pd.isna(v)]
    return 2 * math.sqrt(sum(v * v for v in vals))


def _se(r) -> float:
    return rel_se(r["mean"], r["min"], r["max"], r.get("n_runs"))


# ------------------------------------------------------------------------------------- scaling
def scaling(w: pd.DataFrame, metrics=LATENCY_METRICS) -> pd.DataFrame:
    """Speed-up and parallel efficiency per metric and batch size, relative to the smallest TP
    measured at that batch size: speedup = latency(ref) / latency(tp); efficiency = speedup / (tp / ref).
    `speedup_low` / `speedup_high` span what Lowest and Highest allow (ref lowest / tp highest ...)."""
    cols = ["metric", "batch_size", "tp", "latency_ms", "lowest_ms", "highest_ms", "rel_se", "ref_tp", "ref_ms"]
    cols += ["speedup", "speedup_low", "speedup_high", "efficiency", "line"]
    d = w[w["metric"].isin(metrics) & w["mean"].notna() & w["tp"].notna()]
    out = []
    for (metric, bs), g in d.groupby(["metric", "batch_size"]):
        g = g.sort_values("tp")
        ref = g.iloc[0]
        for _, r in g.iterrows():
            sp = ref["mean"] / r["mean"]
            out.append(
                {
                    "metric": metric,
                    "batch_size": int(bs),
                    "tp": int(r["tp"]),
                    "latency_ms": r["mean"],
                    "lowest_ms": r["min"],
                    "highest_ms": r["max"],
                    "rel_se": _se(r),
                    "ref_tp": int(ref["tp"]),
                    "ref_ms": ref["mean"],
                    "speedup": sp,
                    "speedup_low": ref["min"] / r["max"],
                    "speedup_high": ref["max"] / r["min"],
                    "efficiency": sp / (r["tp"] / ref["tp"]),
                    "line": int(r["line"]),
                }
            )
    return pd.DataFrame(out, columns=cols)


def at_smallest_batch(sc: pd.DataFrame, metric: str) -> pd.DataFrame:
    """The scaling rows of one phase at the smallest batch size measured at two or more TPs."""
    d = sc[sc["metric"] == metric]
    multi = d.groupby("batch_size")["tp"].nunique()
    multi = multi[multi >= 2]
    if multi.empty:
        return d.iloc[0:0]
    return d[d["batch_size"] == multi.index.min()].sort_values("tp").reset_index(drop=True)


def superlinear_efficiency(sc: pd.DataFrame, metric: str = "decode_token_latency") -> dict | None:
    """The highest efficiency past the reference TP, and the identity that explains it:
    efficiency(bs) / efficiency(bs0) = [ref latency growth bs0 -> bs] / [tp latency growth bs0 -> bs],
    where bs0 is the smallest batch measured at both TPs. None when there is no such pair."""
    d = sc[(sc["metric"] == metric) & (sc["tp"] > sc["ref_tp"])]
    if d.empty:
        return None
    top = d.loc[d["efficiency"].idxmax()]
    tp_, ref_tp = int(top["tp"]), int(top["ref_tp"])
    same = sc[(sc["metric"] == metric) & (sc["ref_tp"] == ref_tp)]
    at_tp = same[same["tp"] == tp_].set_index("batch_size")
    at_ref = same[same["tp"] == ref_tp].set_index("batch_size")
    both = sorted(set(at_tp.index) & set(at_ref.index))
    bs0, bs = both[0], int(top["batch_size"])
    ref0, ref1 = at_ref.loc[bs0], at_ref.loc[bs]
    tp0, tp1 = at_tp.loc[bs0], at_tp.loc[bs]
    ref_all = at_ref.sort_index()
    return {
        "efficiency": float(top["efficiency"]),
        "tp": tp_,
        "ref_tp": ref_tp,
        "batch_size": bs,
        "base_batch": int(bs0),
        "base_efficiency": float(at_tp.loc[bs0, "efficiency"]),
        "ref_ms_base": float(ref0["latency_ms"]),
        "ref_ms": float(ref1["latency_ms"]),
        "tp_ms_base": float(tp0["latency_ms"]),
        "tp_ms": float(tp1["latency_ms"]),
        "ref_growth": float(ref1["latency_ms"] / ref0["latency_ms"]),
        "tp_growth": float(tp1["latency_ms"] / tp0["latency_ms"]),
        "ref_max_batch": int(ref_all.index[-1]),
        "ref_ms_max_batch": float(ref_all["latency_ms"].iloc[-1]),
        "noise": noise(*(r["rel_se"] for r in (ref0, ref1, tp0, tp1))),
    }


def _model(tp, a, b, c):
    tp = np.asarray(tp, dtype=float)
    return a / tp + b * (tp - 1) + c


@dataclass
class ScalingFit:
    """latency(TP) = a / TP + b x (TP - 1) + c, in ms: `a` the work that splits across GPUs,
    `b` the cost each extra GPU adds (all-reduce, synchronisation), `c` the fixed overhead."""

    a: float
    b: float
    c: float
    a_err: float
    b_err: float
    c_err: float
    n_points: int
    dof: int

    def predict(self, tp) -> np.ndarray:
        return _model(tp, self.a, self.b, self.c)

    @property
    def tp_optimum(self) -> float:
        """TP minimising the fitted latency: sqrt(a / b) (infinite when b = 0)."""
        return math.sqrt(self.a / self.b) if self.b > 0 else math.inf

    def nearest_measured(self, tps) -> int:
        """The measured TP nearest the fitted optimum, on a log scale (the largest when b = 0)."""
        tps = sorted(int(t) for t in tps)
        if not math.isfinite(self.tp_optimum):
            return tps[-1]
        return min(tps, key=lambda t: abs(math.log2(t) - math.log2(self.tp_optimum)))


def fit_scaling(tp, latency_ms) -> ScalingFit | None:
    """Least-squares fit of latency(TP) = a/TP + b(TP-1) + c with a, b, c >= 0 (scipy curve_fit);
    parameter standard errors from the covariance. Needs at least 4 distinct TPs (else None)."""
    tp = np.asarray(tp, dtype=float)
    y = np.asarray(latency_ms, dtype=float)
    ok = np.isfinite(tp) & np.isfinite(y)
    tp, y = tp[ok], y[ok]
    if len(np.unique(tp)) < 4:
        return None
    from scipy.optimize import curve_fit  # here: a report with fewer TPs need not import scipy

    p0 = [max(y.max() - y.min(), 1e-6), 1e-3 * y.mean(), max(y.min() * 0.5, 1e-6)]
    popt, pcov = curve_fit(_model, tp, y, p0=p0, bounds=([0, 0, 0], [np.inf, np.inf, np.inf]), maxfev=20000)
    with np.errstate(invalid="ignore"):
        err = np.sqrt(np.clip(np.diag(pcov), 0, None))
    return ScalingFit(*[float(v) for v in popt], *[float(e) for e in err], n_points=len(y), dof=len(y) - 3)


def scaling_fits(w: pd.DataFrame) -> list[dict]:
    """The scaling model fitted to each phase and batch size measured at enough TPs, with the
    points it was fitted to (for the plot)."""
    fits = []
    for metric in LATENCY_METRICS:
        for bs, gg in w[(w["metric"] == metric) & w["mean"].notna()].groupby("batch_size"):
            f = fit_scaling(gg["tp"], gg["mean"])
            if f is not None:
                fits.append({"metric": metric, "batch_size": int(bs), "fit": f, "points": gg.sort_values("tp")})
    return fits


def best_tp(w: pd.DataFrame, metric: str = "decode_token_latency") -> pd.DataFrame:
    """Per batch size: the TP with the lowest mean latency and the latency at the largest TP, with
    the `noise` their ratio must exceed (see `noise`)."""
    d = w[(w["metric"] == metric) & w["mean"].notna() & w["tp"].notna()]
    out = []
    for bs, g in d.groupby("batch_size"):
        g = g.sort_values("tp")
        b = g.loc[g["mean"].idxmin()]
        last = g.iloc[-1]
        out.append(
            {
                "batch_size": int(bs),
                "best_tp": int(b["tp"]),
                "best_ms": b["mean"],
                "best_line": int(b["line"]),
                "max_tp": int(last["tp"]),
                "max_tp_ms": last["mean"],
                "max_tp_line": int(last["line"]),
                "slower_past_best": bool(last["tp"] > b["tp"] and last["mean"] > b["mean"]),
                "n_tp": g["tp"].nunique(),
                "noise": noise(_se(b), _se(last)),
            }
        )
    return pd.DataFrame(out)


def turning_tp(w: pd.DataFrame, tolerance: float = 0.02, metric: str = "decode_token_latency") -> pd.DataFrame:
    """Per batch size measured at two or more TPs, the TP past which latency stops falling: the
    smallest TP that no larger TP beats by more than the noise of the two Averages (`noise`) and
    `tolerance`. `after` says what the larger TPs do: "slower" (the largest TP is slower than the
    turn beyond the band), "flat" (within it) or "falling" (the turn is the largest TP measured:
    latency still falls there). `prev_*` is the measured TP just below the turn (None at the
    smallest), `ref_*` the smallest TP."""
    d = w[(w["metric"] == metric) & w["mean"].notna() & w["tp"].notna()]
    out = []
    for bs, g in d.groupby("batch_size"):
        g = g.sort_values("tp").reset_index(drop=True)
        if g["tp"].nunique() < 2:
            continue
        se = [_se(r) for _, r in g.iterrows()]

        def band(i, j, se=se):
            return max(tolerance, noise(se[i], se[j]))

        turn = next(
            i
            for i in range(len(g))
            if not any(g["mean"][j] < g["mean"][i] * (1 - band(i, j)) for j in range(i + 1, len(g)))
        )
        last = len(g) - 1
        if turn == last:
            after = "falling"
        elif g["mean"][last] > g["mean"][turn] * (1 + band(turn, last)):
            after = "slower"
        else:
            after = "flat"
        row = {
            "batch_size": int(bs),
            "turn_tp": int(g["tp"][turn]),
            "turn_ms": float(g["mean"][turn]),
            "turn_line": int(g["line"][turn]),
            "max_tp": int(g["tp"][last]),
            "max_ms": float(g["mean"][last]),
            "max_line": int(g["line"][last]),
            "ref_tp": int(g["tp"][0]),
            "ref_ms": float(g["mean"][0]),
            "after": after,
            "max_noise": band(turn, last) if turn != last else band(0, last),
            "prev_tp": int(g["tp"][turn - 1]) if turn else None,
            "prev_ms": float(g["mean"][turn - 1]) if turn else None,
            "prev_noise": band(turn - 1, turn) if turn else None,
            "tps": [int(t) for t in g["tp"]],
            "ms": [float(m) for m in g["mean"]],
        }
        out.append(row)
    return pd.DataFrame(out)


# ------------------------------------------------------------------------------- what to deploy
def ranked_latency(w: pd.DataFrame, metric: str) -> pd.DataFrame:
    """The TPs at the smallest batch size, fastest first, with each Average's relative standard error."""
    d = w[(w["metric"] == metric) & w["mean"].notna() & w["tp"].notna()]
    if d.empty:
        return d.assign(rel_se=pd.Series(dtype=float))
    d = d[d["batch_size"] == d["batch_size"].min()].sort_values(["mean", "tp"])
    return d.assign(rel_se=[_se(r) for _, r in d.iterrows()]).reset_index(drop=True)


def throughput(w: pd.DataFrame) -> pd.DataFrame:
    """Generated tokens per second per configuration (TP, batch size), two ways:

    * `e2e_tok_s`: batch x decode_length tokens (the prefill makes the first) over prefill + Decode
      (total): what a server doing only this work would deliver;
    * `decode_tok_s`: the tool's decode throughput, batch x (decode_length - 1) / Decode (total),
      which leaves the prefill out.

    Each also per GPU (`_per_gpu`), with `_low` / `_high` from the Lowest/Highest latencies (the
    e2e ones add the two phases' extremes) and a relative standard error (`rel_se`).
    """
    cols = ["tp", "batch_size", "sequence_length", "decode_length", "prefill_ms", "decode_total_ms"]
    cols += ["e2e_tok_s", "e2e_low", "e2e_high", "decode_tok_s", "decode_low", "decode_high"]
    cols += [f"{c}_per_gpu" for c in ("e2e_tok_s", "e2e_low", "e2e_high", "decode_tok_s", "decode_low", "decode_high")]
    cols += ["e2e_rel_se", "decode_rel_se", "line"]
    d = w[w["mean"].notna() & w["tp"].notna() & w["decode_length"].notna()]
    idx = ["tp", "batch_size"]
    pre = d[d["metric"] == "prefill_latency"].drop_duplicates(idx).set_index(idx)
    dec = d[d["metric"] == "decode_total_latency"].drop_duplicates(idx).set_index(idx)
    rows = []
    for key in sorted(set(pre.index) & set(dec.index)):
        p, t = pre.loc[key], dec.loc[key]
        tp_, bs = int(key[0]), int(key[1])
        n_dec = float(p["decode_length"])
        e2e = [bs * n_dec / ((p[s] + t[s]) / 1000) for s in ("mean", "max", "min")]
        dtk = [bs * (n_dec - 1) / (t[s] / 1000) for s in ("mean", "max", "min")]
        row = {
            "tp": tp_,
            "batch_size": bs,
            "sequence_length": p["sequence_length"],
            "decode_length": int(n_dec),
            "prefill_ms": p["mean"],
            "decode_total_ms": t["mean"],
            "e2e_tok_s": e2e[0],
            "e2e_low": e2e[1],
            "e2e_high": e2e[2],
            "decode_tok_s": dtk[0],
            "decode_low": dtk[1],
            "decode_high": dtk[2],
            "e2e_rel_se": rel_se(e2e[0], e2e[1], e2e[2], p.get("n_runs")),
            "decode_rel_se": rel_se(dtk[0], dtk[1], dtk[2], t.get("n_runs")),
            "line": int(p["line"]),
        }
        for c in ("e2e_tok_s", "e2e_low", "e2e_high", "decode_tok_s", "decode_low", "decode_high"):
            row[f"{c}_per_gpu"] = row[c] / tp_
        rows.append(row)
    return pd.DataFrame(rows, columns=cols)


def best_per_tp(tput: pd.DataFrame, col: str) -> pd.DataFrame:
    """For each TP, the batch size with the highest `col`, best TP first."""
    if tput.empty:
        return tput
    return tput.loc[tput.groupby("tp")[col].idxmax()].sort_values(col, ascending=False).reset_index(drop=True)


# ------------------------------------------------------------------------------------ roofline
def roofline_points(
    w: pd.DataFrame,
    params_b: float,
    bytes_per_param: float,
    bandwidth_gb_s: float,
    peak_tflops: float,
    kv_bytes_per_token: float = 0.0,
    tp_unknown: int = 1,
) -> pd.DataFrame:
    """Achieved figures per GPU against one GPU's peaks.

    Decode step: reads all weights (params x bytes_per_param) plus the KV cache
    (batch x context x kv_bytes_per_token, context = prompt + half the decoded tokens), spread over
    TP GPUs; does 2 x params x batch FLOPs. Prefill: 2 x params x batch x sequence_length FLOPs, reads
    the weights once. Achieved per GPU = total / TP / time.
    """
    rows = []
    params = params_b * 1e9
    wbytes = params * bytes_per_param
    for _, r in w[w["metric"].isin(LATENCY_METRICS) & w["mean"].notna()].iterrows():
        tp = int(r["tp"]) if pd.notna(r["tp"]) else int(tp_unknown)
        bs, seq = float(r["batch_size"]), float(r["sequence_length"]) if pd.notna(r["sequence_length"]) else math.nan
        dec = float(r["decode_length"]) if pd.notna(r["decode_length"]) else 0.0
        t = r["mean"] / 1000.0
        kv_tokens = (seq + dec / 2) if r["metric"] == "decode_token_latency" else seq
        nbytes = wbytes + (bs * kv_tokens * kv_bytes_per_token if kv_bytes_per_token else 0.0)
        flops = 2 * params * bs * (1 if r["metric"] == "decode_token_latency" else seq)
        gbs = nbytes / tp / t / 1e9
        tflops = flops / t / tp / 1e12
        rows.append(
            {
                "metric": r["metric"],
                "tp": tp,
                "tp_stated": bool(r["tp_stated"]) if "tp_stated" in r else pd.notna(r["tp"]),
                "batch_size": int(bs),
                "sequence_length": seq,
                "quantize": r["quantize"],
                "latency_ms": r["mean"],
                "rel_se": rel_se(r["mean"], r.get("min"), r.get("max"), r.get("n_runs")),
                "line": int(r["line"]),
                "bytes_gb": nbytes / 1e9,
                "bytes_per_gpu": nbytes / tp,
                "tflop": flops / 1e12,
                "achieved_gb_s_per_gpu": gbs,
                "achieved_tflops": tflops,
                "intensity_flop_per_byte": flops / nbytes,
                "kv_bytes_per_token": kv_bytes_per_token,
                "bandwidth_fraction": gbs / bandwidth_gb_s,
                "compute_fraction": tflops / peak_tflops,
            }
        )
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    # a row whose bytes or FLOPs need a length the input does not state cannot be placed
    return out[np.isfinite(out["achieved_gb_s_per_gpu"]) & np.isfinite(out["achieved_tflops"])].reset_index(drop=True)


def roofline_extremes(rp: pd.DataFrame) -> dict:
    """The roofline rows the chapter's claims rest on (each a dict, or None when absent): decode at
    the smallest batch on the smallest and the largest TP, the prefill with the highest compute
    fraction, and the row with the highest fraction of either peak (None without a device)."""
    out = dict.fromkeys(("decode_small_tp", "decode_large_tp", "prefill_best", "highest"))
    if rp.empty:
        return out
    dec = rp[rp["metric"] == "decode_token_latency"]
    prf = rp[rp["metric"] == "prefill_latency"]
    if len(dec):
        d1 = dec[dec["batch_size"] == dec["batch_size"].min()].sort_values("tp")
        out["decode_small_tp"] = d1.iloc[0].to_dict()
        if d1["tp"].nunique() > 1:
            out["decode_large_tp"] = d1.iloc[-1].to_dict()
    if len(prf):  # the highest FLOP/s per GPU: the highest share of one device's peak, and known without one
        out["prefill_best"] = prf.loc[prf["achieved_tflops"].idxmax()].to_dict()
    frac = rp[["bandwidth_fraction", "compute_fraction"]].max(axis=1)
    if frac.isna().all():  # no device: no fraction of a peak to rank
        return out
    out["highest"] = rp.loc[frac.idxmax()].to_dict() | {"fraction": float(frac.max())}
    out["highest"]["peak_kind"] = (
        "bandwidth" if out["highest"]["bandwidth_fraction"] >= out["highest"]["compute_fraction"] else "compute"
    )
    out["n_over_peak"] = int((frac > 1).sum())
    return out


def prefill_example(w: pd.DataFrame) -> dict | None:
    """The printed prefill "throughput" (sequences/s) beside the prompt tokens/s it hides, at the
    smallest batch and TP that ran: the worked example of the mislabelled column (None if absent)."""
    pre = w[(w["metric"] == "prefill_latency") & w["mean"].notna() & w["sequence_length"].notna()]
    if pre.empty:
        return None
    r1 = pre.sort_values(["batch_size", "tp"]).iloc[0]
    thr = w[(w["metric"] == "prefill_throughput") & (w["batch_size"] == r1["batch_size"]) & (w["tp"] == r1["tp"])]
    if thr.empty or pd.isna(thr["mean"].iloc[0]):
        return None
    return {
        "seq_s": float(thr["mean"].iloc[0]),
        "tok_s": float(r1["batch_size"] * r1["sequence_length"] / (r1["mean"] / 1000)),
        "tp": int(r1["tp"]),
        "batch_size": int(r1["batch_size"]),
        "sequence_length": int(r1["sequence_length"]),
    }


# ----------------------------------------------------------------------------------- anomalies
def percentile_inversions(w: pd.DataFrame) -> pd.DataFrame:
    """Latency rows whose p90 is below p50 or below the mean (impossible for true percentiles of
    a sorted sample), with the evidence."""
    d = w[w["metric"].str.endswith("latency")]
    d = d[(d["p90"] < d["p50"]) | (d["p90"] < d["mean"])].copy()
    d["kind"] = np.where(d["p90"] < d["p50"], "p90 < p50", "p90 < mean")
    d.loc[(d["p90"] < d["p50"]) & (d["p90"] < d["mean"]), "kind"] = "p90 < p50 and p90 < mean"
    return d[["source", "line", "tp", "section", "metric", "batch_size", "mean", "p50", "p90", "p99", "max", "kind"]]


def percentile_counts(w: pd.DataFrame) -> dict:
    """The counts that show whether the p50/p90/p99 columns are sorted percentiles."""
    lat = w[w["metric"].str.endswith("latency") & w["p90"].notna()]
    pre = lat[lat["metric"] == "prefill_latency"]
    return {
        "p90_lt_p50": int((lat["p90"] < lat["p50"]).sum()),
        "p90_lt_mean": int((lat["p90"] < lat["mean"]).sum()),
        "p90_eq_p99": int((lat["p90"] == lat["p99"]).sum()),
        "latency_rows": len(lat),
        "p90_below_max": int((lat["p90"] < lat["max"]).sum()),
        "prefill_p90_eq_max": int((pre["p90"] == pre["max"]).sum()),
        "prefill_rows": len(pre),
    }


def missing_batches(w: pd.DataFrame) -> pd.DataFrame:
    """Batch sizes with no runs (NaN), per section, with the batch sizes that did run there."""
    d = w[w["metric"] == "prefill_latency"]
    out = []
    for (src, tp, sec), g in d.groupby(["source", "tp", "section"], dropna=False):
        ran = sorted(int(b) for b in g.loc[g["mean"].notna(), "batch_size"])
        for _, r in g[g["mean"].isna()].iterrows():
            out.append(
                {
                    "source": src,
                    "tp": tp,
                    "section": sec,
                    "batch_size": int(r["batch_size"]),
                    "line": int(r["line"]),
                    "ran": ", ".join(map(str, ran)),
                    "how_printed": "blank (merged NaN)" if "blank row" in (r["note"] or "") else "NaN",
                }
            )
    return pd.DataFrame(out, columns=["source", "tp", "section", "batch_size", "line", "ran", "how_printed"])


def superlinear_jumps(w: pd.DataFrame, metric: str = "prefill_latency", threshold: float = 1.3) -> pd.DataFrame:
    """Consecutive batch sizes where latency grows faster than the batch: (L2/L1) / (b2/b1) > threshold."""
    d = w[(w["metric"] == metric) & w["mean"].notna()]
    out = []
    for _, g in d.groupby(["source", "tp", "sequence_length", "quantize", "section"], dropna=False):
        g = g.sort_values("batch_size")
        for (_, a), (_, b) in zip(g.iterrows(), g.iloc[1:].iterrows(), strict=False):
            ratio = (b["mean"] / a["mean"]) / (b["batch_size"] / a["batch_size"])
            if ratio > threshold:
                out.append(
                    {
                        "tp": b["tp"],
                        "section": b["section"],
                        "metric": metric,
                        "from_bs": int(a["batch_size"]),
                        "to_bs": int(b["batch_size"]),
                        "from_ms": a["mean"],
                        "to_ms": b["mean"],
                        "growth_per_batch": ratio,
                        "line": int(b["line"]),
                    }
                )
    return pd.DataFrame(
        out, columns=["tp", "section", "metric", "from_bs", "to_bs", "from_ms", "to_ms", "growth_per_batch", "line"]
    )


def n_batch_steps(w: pd.DataFrame, metric: str = "prefill_latency") -> int:
    """How many consecutive batch-size steps `superlinear_jumps` examines."""
    d = w[(w["metric"] == metric) & w["mean"].notna()]
    g = d.groupby(["source", "tp", "sequence_length", "quantize", "section"], dropna=False).size()
    return int((g - 1).clip(lower=0).sum())


def decode_slower_with_tp(
    w: pd.DataFrame, tolerance: float = 0.02, metric: str = "decode_token_latency"
) -> pd.DataFrame:
    """Rows where the next larger TP made decode slower by more than `tolerance` (relative) and than
    the noise of the two Averages (`noise`: a step inside the noise is not a step)."""
    d = w[(w["metric"] == metric) & w["mean"].notna() & w["tp"].notna()]
    out = []
    for bs, g in d.groupby("batch_size"):
        g = g.sort_values("tp")
        for (_, a), (_, b) in zip(g.iterrows(), g.iloc[1:].iterrows(), strict=False):
            band = max(
                tolerance,
                noise(
                    rel_se(a["mean"], a.get("min"), a.get("max"), a.get("n_runs")),
                    rel_se(b["mean"], b.get("min"), b.get("max"), b.get("n_runs")),
                ),
            )
            if b["mean"] > a["mean"] * (1 + band):
                out.append(
                    {
                        "batch_size": int(bs),
                        "from_tp": int(a["tp"]),
                        "to_tp": int(b["tp"]),
                        "from_ms": a["mean"],
                        "to_ms": b["mean"],
                        "slowdown": b["mean"] / a["mean"] - 1,
                        "line": int(b["line"]),
                    }
                )
    return pd.DataFrame(out, columns=["batch_size", "from_tp", "to_tp", "from_ms", "to_ms", "slowdown", "line"])


def n_tp_steps(w: pd.DataFrame, metric: str = "decode_token_latency") -> int:
    """How many consecutive TP steps `decode_slower_with_tp` examines."""
    d = w[(w["metric"] == metric) & w["mean"].notna() & w["tp"].notna()]
    return int((d.groupby("batch_size")["tp"].nunique() - 1).clip(lower=0).sum())


def quantization_slowdown(w: pd.DataFrame, metric: str = "decode_token_latency") -> pd.DataFrame:
    """Quantized vs unquantized latency at the same TP, sequence length and batch size, with both
    rows' Lowest/Highest."""
    cols = ["quantize", "tp", "sequence_length", "batch_size", "metric", "fp16_ms", "fp16_low", "fp16_high"]
    cols += ["quantized_ms", "quantized_low", "quantized_high", "slowdown", "noise", "line", "fp16_line"]
    d = w[(w["metric"] == metric) & w["mean"].notna()]
    base = d[d["quantize"] == "none"].set_index(["tp", "sequence_length", "batch_size"])
    out = []
    for _, r in d[d["quantize"].notna() & (d["quantize"] != "none")].iterrows():  # unstated is neither
        key = (r["tp"], r["sequence_length"], r["batch_size"])
        if key in base.index:
            b = base.loc[key]
            b = b.iloc[0] if isinstance(b, pd.DataFrame) else b
            out.append(
                {
                    "quantize": r["quantize"],
                    "tp": r["tp"],
                    "sequence_length": r["sequence_length"],
                    "batch_size": int(r["batch_size"]),
                    "metric": metric,
                    "fp16_ms": b["mean"],
                    "fp16_low": b["min"],
                    "fp16_high": b["max"],
                    "quantized_ms": r["mean"],
                    "quantized_low": r["min"],
                    "quantized_high": r["max"],
                    "slowdown": r["mean"] / b["mean"],
                    "noise": noise(_se(b), _se(r)),
                    "line": int(r["line"]),
                    "fp16_line": int(b["line"]),
                }
            )
    return pd.DataFrame(out, columns=cols)


def batch_token_budget_test(w: pd.DataFrame) -> pd.DataFrame:
    """The hypothesis "batch sizes failed because batch x (sequence + decode) > max_batch_total_tokens":
    for each section and batch size, what the hypothesis predicts and what happened."""
    cols = ["tp", "section", "batch_size", "tokens", "budget", "predicted_to_run", "ran", "consistent", "line"]
    need = ("max_batch_total_tokens", "sequence_length", "decode_length")
    d = w[w["metric"] == "prefill_latency"]
    for c in need:
        d = d[d[c].notna()] if c in d else d.iloc[0:0]
    out = []
    for _, r in d.iterrows():
        tokens = r["batch_size"] * (r["sequence_length"] + r["decode_length"])
        predicted = bool(tokens <= r["max_batch_total_tokens"])
        ran = bool(pd.notna(r["mean"]))
        out.append(
            {
                "tp": r["tp"],
                "section": r["section"],
                "batch_size": int(r["batch_size"]),
                "tokens": int(tokens),
                "budget": int(r["max_batch_total_tokens"]),
                "predicted_to_run": predicted,
                "ran": ran,
                "consistent": predicted == ran,
                "line": int(r["line"]),
            }
        )
    return pd.DataFrame(out, columns=cols)


def ran_last_before_failure(w: pd.DataFrame, tp, section, batch_size: int, metric: str = "prefill_latency") -> bool:
    """True when `batch_size` is the largest batch size that ran in its (TP, section) and a larger one
    did not run: the step just before the failures."""
    d = w[(w["metric"] == metric) & (w["section"] == section)]
    d = d[d["tp"].isna()] if pd.isna(tp) else d[d["tp"] == tp]
    ran = d.loc[d["mean"].notna(), "batch_size"]
    failed = d.loc[d["mean"].isna(), "batch_size"]
    return bool(len(ran) and ran.max() == batch_size and (failed > batch_size).any())


# ---------------------------------------------------------------------------------------- TP
def model_said(paths) -> dict:
    """What the files say of a model, for a page whose tables name none, decided by the one absence
    rule (`ingest.context.states`): `status` "stated" (a model a line names but no table carries:
    `value`, `line`), "unread" (a line that speaks of a model and names none: its `line`) or
    "absent", the only status on which a page may call the model one the input does not name."""
    from benchbook import ingest
    from benchbook.ingest import context

    unread = None
    for path in paths:
        said = context.states(ingest.context_of(path), "model")
        facts = [f for f in said.facts if not context.placeholder(f.value)]
        if facts:
            return {"status": "stated", "value": str(facts[0].value), "line": facts[0].line}
        if said.status == "unread" and unread is None:
            unread = {"status": "unread", "line": said.line}
    return unread or {"status": "absent"}


def runs_said(paths) -> dict:
    """What the files say of N Runs beyond the rows that carry it, by the one absence rule
    (`context.states`, through `serving.fact_said`): `runs_status` "stated" (a `--runs 5` or an
    `n_runs: 5` no table's parameters tie to its rows: `runs_value`, `runs_line`, `runs_text`), "unread" (a
    line that speaks of runs without a number, `--runs $N`) or "absent", the only status on which a page
    may say the input does not state N Runs."""
    from benchbook.analysis import serving

    return serving.fact_said(paths, "runs", "runs")


def throughputs_only(w: pd.DataFrame) -> list[dict]:
    """Where the input holds TGI's throughput table and no latency table: per step (prefill, decode), the
    Average at its smallest and largest batch (`first`, `last`, with `first_batch`, `last_batch`) and its
    unit (prefill's "tokens/secs" is sequences per second: batch / prefill latency), so the page states the
    numbers no other section uses. Empty where any latency row exists."""
    if w.empty or "metric" not in w or w["metric"].isin(LATENCY_METRICS).any():
        return []
    out = []
    for step, metric, unit in (("decode", "decode_throughput", "tok/s"), ("prefill", "prefill_throughput", "seq/s")):
        g = w[(w["metric"] == metric) & w["mean"].notna()].sort_values("batch_size")
        if len(g):
            a, b = g.iloc[0], g.iloc[-1]
            out.append(
                dict(
                    step=step,
                    unit=unit,
                    first_batch=int(a["batch_size"]),
                    first=float(a["mean"]),
                    last_batch=int(b["batch_size"]),
                    last=float(b["mean"]),
                    n=len(g),
                )
            )
    return out


def fill_tp(w: pd.DataFrame, paths, tp_unknown: int) -> tuple[pd.DataFrame, list[dict]]:
    """`w` with the TP of every row whose table section states none taken from the rest of its file
    (`ingest.context`: a launch command's `--num-shard`, a heading, a `TP: 2` line), where the file
    states exactly one TP; elsewhere `tp_unknown`, with `tp_stated` False. One record per file with
    such rows, for the page: `file`, `status` ("stated": `tp`, `line`, `source`; "several": the
    `values` and `lines` it states, none of them tied to the table; "unread": the `line` that
    speaks of TP without a value; "absent": no sign of a TP anywhere) and `assumed` (tp_unknown).

    TP is stated per table: where the parser read a TP for some of a file's tables and none for
    others (`NUM_SHARD=4` above the second table only), a TP the file states belongs to the table it
    sits above, so the tables without one look only between the table before them and their own
    first row (`_windows`), one record per such span, with `first` and `last` (its rows' lines),
    `above` (the last row of the table before it, 0 for none) and `others` (each TP the other tables
    state, with the `first` and `last` lines of its rows); found nothing there, the status is
    "table_absent": those tables state none, never the file."""
    from benchbook import config, ingest

    w = w.copy()
    w["tp_stated"] = w["tp"].notna()
    notes = []
    for path in paths:
        mine = _rows_of(w, path)
        rows = w["tp"].isna() & mine
        if not rows.any():
            note = _conflict(w[mine], path)
            notes += [note] if note else []
            continue
        ctx = ingest.context_of_lines(path)
        models = {_model_key(m) for m in w.loc[rows, "model"].dropna()} if "model" in w else set()
        for span, window, others in _windows(w, mine):
            note = _fill_span(w, span, _within(ctx, window), models, tp_unknown)
            note["file"] = config.relative(path)
            if others:
                lines = w.loc[span, "line"]
                note |= {"first": int(lines.min()), "last": int(lines.max()), "above": window[0], "others": others}
                note["status"] = "table_absent" if note["status"] == "absent" else note["status"]
            notes.append(note)
    w["tp"] = w["tp"].fillna(tp_unknown)
    return w, notes


def _rows_of(w: pd.DataFrame, path) -> pd.Series:
    from benchbook.ingest.vllm_serve import source_name  # the name `ingest.read` gives a file's rows

    return (w["source"] == source_name(path)) if "source" in w else pd.Series(True, index=w.index)


def _windows(w: pd.DataFrame, mine: pd.Series) -> list[tuple[pd.Series, tuple | None, list[dict]]]:
    """The spans of a file's rows that state no TP, each with the lines a TP stated for it may sit on
    and the tables that state their own. Where no table of the file states one, one span, the whole
    file (window None). Else each run of consecutive rows (by line) without a TP is a span whose
    window runs from the last row above it to its own first row."""
    stated = mine & w["tp"].notna()
    if not stated.any() or "line" not in w:
        return [(mine & w["tp"].isna(), None, [])]
    d = w[mine].sort_values("line", kind="stable")
    told = d[d["tp"].notna()].groupby("tp", sort=False)["line"].agg(["min", "max"])
    others = [{"tp": int(v), "first": int(a), "last": int(b)} for v, (a, b) in told.iterrows()]
    runs = (d["tp"].isna() != d["tp"].isna().shift()).cumsum()
    out, above = [], 0
    for _, g in d.groupby(runs, sort=True):
        if g["tp"].isna().all():
            span = pd.Series(False, index=w.index)
            span[g.index] = True
            out.append((span, (above, int(g["line"].min())), others))
        above = int(g["line"].max())
    return out


def _within(ctx, window):
    """`ctx` keeping only the facts and signs on lines inside `window` (low, high), exclusive; all of
    it for None."""
    if window is None:
        return ctx
    lo, hi = window
    return dataclasses.replace(
        ctx,
        facts=tuple(f for f in ctx.facts if lo < f.line < hi),
        signs=tuple(x for x in ctx.signs if lo < x.line < hi),
    )


def _fill_span(w: pd.DataFrame, rows: pd.Series, ctx, models: set[str], tp_unknown: int) -> dict:
    """Set the TP of `rows` from what `ctx` states (`context.states`), and the record that says so."""
    from benchbook.ingest import context

    said = context.states(ctx, "tp")
    other = [f for f in said.facts if _launches_another(ctx, f, models)]
    if other and len(other) == len(said.facts):  # every TP the file states is another model's
        f = other[0]
        launched = ctx.same_command(f, "model")[0].value
        return {"status": "other_model", "tp": f.value, "line": f.line, "model": launched, "assumed": tp_unknown}
    said = dataclasses.replace(said, facts=tuple(f for f in said.facts if f not in other))
    values = list(dict.fromkeys(f.value for f in said.facts))
    note = {"status": said.status, "assumed": tp_unknown}
    if said.status == "stated" and len(values) == 1:
        f = said.facts[0]
        w.loc[rows, "tp"], w.loc[rows, "tp_stated"] = values[0], True
        note |= {"tp": values[0], "line": f.line, "source": f.source}
    elif said.status == "stated":
        note |= {"status": "several", "values": values, "lines": [f.line for f in said.facts][:6]}
    elif said.status == "unread":
        note |= {"line": said.line}
    else:
        note |= _shards_from_devices(w, rows, ctx)
    return note


def _shards_from_devices(w: pd.DataFrame, rows: pd.Series, ctx) -> dict:
    """Where a file states no TP but one count of devices its run used (`on 2x HPUs`): TGI splits a
    model only by tensor parallel, one shard per device of the server (text-generation-launcher's
    `num_shard` processes, no pipeline or data parallel), so the devices one server runs on are its
    shards. Empty where the file states no count, or several."""
    from benchbook.ingest import context

    said = context.states(ctx, "device_count")
    counts = list(dict.fromkeys(f.value for f in said.facts))
    if said.status != "stated" or len(counts) != 1 or int(counts[0]) < 1:
        return {}
    f = said.facts[0]
    w.loc[rows, "tp"], w.loc[rows, "tp_stated"] = int(counts[0]), True
    return {"status": "devices", "tp": int(counts[0]), "line": f.line}


def _conflict(rows: pd.DataFrame, path) -> dict | None:
    """A file whose tables state one TP while the rest of it states another for the same model
    (a heading, a `TP: 4` line, or a command launching that model): the disagreement, for the page to state (the
    tables' TP is kept: the parser's own fields rank first, `ingest.context`)."""
    from benchbook import config, ingest

    tps = rows["tp"].dropna().unique() if len(rows) else []
    if len(tps) != 1:
        return None  # several TPs: each table has its own, nothing to set against the file's words
    ctx = ingest.context_of_lines(path)
    models = {_model_key(m) for m in rows["model"].dropna()} if "model" in rows else set()
    other = [f for f in ctx.get("tp") if float(f.value) != float(tps[0]) and not _launches_another(ctx, f, models)]
    if not other:
        return None
    f = other[0]
    note = {"file": config.relative(path), "status": "conflict", "tp": int(tps[0]), "other": f.value}
    return note | {"line": f.line, "source": f.source}


def _model_key(name) -> str:
    """A model id compared by its last path part, case and separators aside (`meta-llama/X` = `x`)."""
    return re.sub(r"[^a-z0-9]", "", str(name).rstrip("/").split("/")[-1].lower())


def _launches_another(ctx, fact, models: set[str]) -> bool:
    """Whether `fact` comes from a command that launches a model other than the table's `models`:
    a launch command's `--num-shard` is its own model's TP, not another's."""
    launched = {_model_key(f.value) for f in ctx.same_command(fact, "model") if not str(f.value).startswith(("$", "<"))}
    return bool(models and launched and not launched & models)


# ------------------------------------------------------------------------ device and model sizes
def device_peaks(gpu: str = "", bandwidth_gb_s: float = 0.0, peak_tflops: float = 0.0, texts=()) -> dict:
    """The roofline's device, {device, bandwidth_gb_s, tflops (dense fp16), source}, chosen by
    `hardware.choose`: the reader's `gpu` and peaks (`parameter`), else the device the input's `texts`
    name (`roofline.named`, through the one context reader: `detected`), else none (device and source
    None, peaks NaN): text-generation-benchmark does not print its GPU, and a page about someone
    else's run assumes none. `said` holds what the texts say of a device none was taken from
    (`device_unlisted` and its line, or `device_sign_line`), for the claims' reasons."""
    found = roofline.named([t for t in texts if t])
    choice = hardware.choose(
        gpu or None,
        detected=hardware.device(found.device) if found.device else None,
        bandwidth_gb_s=bandwidth_gb_s or None,
        peak_tflops=peak_tflops or None,
    )
    said = roofline.said(found)
    if choice is None:
        return {"device": None, "bandwidth_gb_s": math.nan, "tflops": math.nan, "source": None, "said": said}
    d = choice.device
    tflops = d.peak("fp16")
    return {
        "device": d.name,
        "bandwidth_gb_s": float(d.bandwidth_gb_s),
        "tflops": float(tflops) if tflops else math.nan,
        "source": choice.source,
        "said": said,
    }


def tokenizer_name(model_id: str | None) -> str | None:
    """What text-generation-benchmark's Model row says of the model (the row prints its
    `--tokenizer-name`, benchmark/src/table.rs): "tokenizer" for a tokenizer-only repository (a
    name holding the word), "unknown" for a name no model table row or size in the name matches,
    None for a known model (or no name): then it is taken as the model."""
    if not isinstance(model_id, str) or not model_id.strip():
        return None
    if "tokenizer" in model_id.lower():
        return "tokenizer"
    return "unknown" if hardware.model_size(model_id) is None else None


def model_size(model_id: str, params_b: float = 0.0, named: bool = True) -> dict:
    """{total_b, active_b, architecture, source} of the model: the params_b parameter when given,
    else `hardware.model_size` (the model table or a size in the name; not for a model no table
    names, `named` False: `model_id` is then words about it, and a name they quote is no table's);
    total_b None, with `source` saying why, when neither knows it."""
    if params_b > 0:
        return {
            "total_b": float(params_b),
            "active_b": float(params_b),
            "architecture": None,
            "source": "the params_b parameter",
        }
    if tokenizer_name(model_id) == "tokenizer":
        return {
            "total_b": None,
            "active_b": None,
            "architecture": None,
            "source": f"no parameter count follows from the tokenizer name {model_id}",
        }
    size = hardware.model_size(model_id) if named else None
    if size is None or not size.total_b:
        return {
            "total_b": None,
            "active_b": None,
            "architecture": None,
            "source": f"no parameter count is known for {model_id}",
        }
    return {
        "total_b": size.total_b,
        "active_b": size.active_b,
        "architecture": size.architecture,
        "source": size.source,
    }


@dataclass
class Analysis:
    """Every analysis of one input the claims and the page both read, computed once: the claims are
    made from it and the figures and tables drawn from it (`analyse`)."""

    scaling: pd.DataFrame  # speed-up and efficiency per TP (`scaling`, main configuration)
    fits: list[dict]  # a + b / TP per batch (`scaling_fits`)
    turns: pd.DataFrame  # where decode stops getting faster, per batch (`turning_tp`)
    roofline: pd.DataFrame  # the roofline points (`roofline_points`); empty with no model size
    missing_all: pd.DataFrame  # batches a TP lacks, every configuration (`missing_batches`)
    missing_main: pd.DataFrame  # the same, main configuration
    counts: dict  # percentile inversions counted (`percentile_counts`)
    budget: pd.DataFrame  # the batch token budget test (`batch_token_budget_test`)
    jumps: pd.DataFrame  # superlinear prefill jumps (`superlinear_jumps`)
    slower: pd.DataFrame  # decode steps slower with more TP (`decode_slower_with_tp`)
    quant: pd.DataFrame  # the quantized configurations' slowdown (`quantization_slowdown`)
    throughput: pd.DataFrame  # tokens per second per TP (`throughput`)


def analyse(
    w: pd.DataFrame,
    w_all: pd.DataFrame,
    *,
    params_b: float | None,
    bytes_per_param: float,
    bandwidth_gb_s: float | None,
    tflops: float | None,
    kv_bytes_per_token: float,
    tp_unknown: int,
    jump_threshold: float,
    slowdown_tolerance: float,
) -> Analysis:
    """The chapter's analyses of the main configuration `w` and of every configuration `w_all`."""
    rp = (
        roofline_points(w, params_b, bytes_per_param, bandwidth_gb_s, tflops, kv_bytes_per_token, tp_unknown)
        if params_b
        else pd.DataFrame()
    )
    return Analysis(
        scaling=scaling(w),
        fits=scaling_fits(w),
        turns=turning_tp(w, slowdown_tolerance),
        roofline=rp,
        missing_all=missing_batches(w_all),
        missing_main=missing_batches(w),
        counts=percentile_counts(w_all),
        budget=batch_token_budget_test(w_all),
        jumps=superlinear_jumps(w_all, threshold=jump_threshold),
        slower=decode_slower_with_tp(w, tolerance=slowdown_tolerance),
        quant=quantization_slowdown(w_all),
        throughput=throughput(w),
    )
