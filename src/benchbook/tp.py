"""Tensor-parallel scaling from text-generation-benchmark tables: speed-up, a scaling-model fit,
roofline points and the anomaly detectors of the tp_scaling chapter.

Everything works on `wide(df)` (benchbook.checks.tgi): one row per configuration, metric and batch
size, with the statistics as columns (mean, min, max, p50, p90, p99) and the raw `line`.
Latencies are the Average column (order-independent; the percentile columns are not trustworthy).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.optimize import curve_fit

from benchbook.checks.tgi import wide
from benchbook.roofline import achieved_bandwidth_gb_s

__all__ = [
    "wide",
    "combine",
    "main_config",
    "scaling",
    "fit_scaling",
    "ScalingFit",
    "best_tp",
    "roofline_points",
    "percentile_inversions",
    "missing_batches",
    "superlinear_jumps",
    "decode_slower_with_tp",
    "quantization_slowdown",
    "batch_token_budget_test",
    "ran_last_before_failure",
    "recommendation",
    "QUANT_BYTES_PER_WEIGHT",
]

LATENCY_METRICS = ("prefill_latency", "decode_token_latency")

#: Bytes each weight takes under a TGI `--quantize` value, where the launcher states it: bitsandbytes
#: is 8-bit LLM.int8(), bitsandbytes-nf4 and bitsandbytes-fp4 are 4-bit (text-generation-launcher
#: --help, option --quantize). Other values are left out rather than guessed.
QUANT_BYTES_PER_WEIGHT = {"bitsandbytes": 1.0, "bitsandbytes-nf4": 0.5, "bitsandbytes-fp4": 0.5}


def main_config(w: pd.DataFrame) -> pd.DataFrame:
    """The rows of the (sequence_length, quantize) configuration measured at the most TPs (ties:
    the most rows): the one a TP comparison can use."""
    if w.empty:
        return w
    g = w.groupby(["sequence_length", "quantize"], dropna=False).agg(n_tp=("tp", "nunique"), n=("line", "size"))
    best = g.sort_values(["n_tp", "n"], ascending=False).index[0]
    seq_ok = w["sequence_length"].isna() if pd.isna(best[0]) else w["sequence_length"] == best[0]
    return w[seq_ok & (w["quantize"] == best[1])].reset_index(drop=True)


def scaling(w: pd.DataFrame, metrics=LATENCY_METRICS) -> pd.DataFrame:
    """Speed-up and parallel efficiency per metric and batch size, relative to the smallest TP
    measured at that batch size: speedup = latency(ref) / latency(tp); efficiency = speedup / (tp / ref)."""
    d = w[w["metric"].isin(metrics) & w["mean"].notna() & w["tp"].notna()].copy()
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
                    "ref_tp": int(ref["tp"]),
                    "speedup": sp,
                    "efficiency": sp / (r["tp"] / ref["tp"]),
                    "line": int(r["line"]),
                }
            )
    return pd.DataFrame(
        out, columns=["metric", "batch_size", "tp", "latency_ms", "ref_tp", "speedup", "efficiency", "line"]
    )


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
    p0 = [max(y.max() - y.min(), 1e-6), 1e-3 * y.mean(), max(y.min() * 0.5, 1e-6)]
    popt, pcov = curve_fit(_model, tp, y, p0=p0, bounds=([0, 0, 0], [np.inf, np.inf, np.inf]), maxfev=20000)
    with np.errstate(invalid="ignore"):
        err = np.sqrt(np.clip(np.diag(pcov), 0, None))
    return ScalingFit(*[float(v) for v in popt], *[float(e) for e in err], n_points=len(y), dof=len(y) - 3)


def best_tp(w: pd.DataFrame, metric: str = "decode_token_latency") -> pd.DataFrame:
    """Per batch size: the TP with the lowest mean latency and, when more GPUs are slower, the
    latency at the largest TP (the TP past which adding GPUs makes it slower)."""
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
            }
        )
    return pd.DataFrame(out)


def roofline_points(
    w: pd.DataFrame, params_b: float, bytes_per_param: float, gpu, kv_bytes_per_token: float = 0.0, tp_unknown: int = 1
) -> pd.DataFrame:
    """Achieved figures per GPU against the GPU's peak.

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
        if r["metric"] == "decode_token_latency":
            context = seq + dec / 2
            nbytes = wbytes + bs * context * kv_bytes_per_token
            flops = 2 * params * bs
        else:
            nbytes = wbytes + bs * seq * kv_bytes_per_token
            flops = 2 * params * bs * seq
        gbs = achieved_bandwidth_gb_s(nbytes / tp, t)
        tflops = flops / t / tp / 1e12
        rows.append(
            {
                "metric": r["metric"],
                "tp": tp,
                "tp_stated": pd.notna(r["tp"]),
                "batch_size": int(bs),
                "sequence_length": seq,
                "quantize": r["quantize"],
                "latency_ms": r["mean"],
                "line": int(r["line"]),
                "bytes_gb": nbytes / 1e9,
                "tflop": flops / 1e12,
                "achieved_gb_s_per_gpu": gbs,
                "achieved_tflops": tflops,
                "intensity_flop_per_byte": flops / nbytes,
                "bandwidth_fraction": gbs / gpu.bandwidth_gb_s,
                "compute_fraction": tflops / gpu.fp16_tflops,
                "prompt_tok_s": bs * seq / t if r["metric"] == "prefill_latency" else math.nan,
            }
        )
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------- anomalies
def percentile_inversions(w: pd.DataFrame) -> pd.DataFrame:
    """Latency rows whose p90 is below p50 or below the mean (impossible for true percentiles of
    a sorted sample), with the evidence."""
    d = w[w["metric"].str.endswith("latency")]
    d = d[(d["p90"] < d["p50"]) | (d["p90"] < d["mean"])].copy()
    d["kind"] = np.where(d["p90"] < d["p50"], "p90 < p50", "p90 < mean")
    d.loc[(d["p90"] < d["p50"]) & (d["p90"] < d["mean"]), "kind"] = "p90 < p50 and p90 < mean"
    return d[["source", "line", "tp", "section", "metric", "batch_size", "mean", "p50", "p90", "p99", "max", "kind"]]


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


def decode_slower_with_tp(
    w: pd.DataFrame, tolerance: float = 0.02, metric: str = "decode_token_latency"
) -> pd.DataFrame:
    """Rows where doubling the GPUs made decode slower by more than `tolerance` (relative)."""
    d = w[(w["metric"] == metric) & w["mean"].notna() & w["tp"].notna()]
    out = []
    for bs, g in d.groupby("batch_size"):
        g = g.sort_values("tp")
        for (_, a), (_, b) in zip(g.iterrows(), g.iloc[1:].iterrows(), strict=False):
            if b["mean"] > a["mean"] * (1 + tolerance):
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


def quantization_slowdown(w: pd.DataFrame, metric: str = "decode_token_latency") -> pd.DataFrame:
    """Quantized vs unquantized latency at the same TP, sequence length and batch size."""
    d = w[(w["metric"] == metric) & w["mean"].notna()]
    base = d[d["quantize"] == "none"].set_index(["tp", "sequence_length", "batch_size"])
    out = []
    for _, r in d[d["quantize"] != "none"].iterrows():
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
                    "quantized_ms": r["mean"],
                    "slowdown": r["mean"] / b["mean"],
                    "line": int(r["line"]),
                    "fp16_line": int(b["line"]),
                }
            )
    return pd.DataFrame(
        out,
        columns=[
            "quantize",
            "tp",
            "sequence_length",
            "batch_size",
            "metric",
            "fp16_ms",
            "quantized_ms",
            "slowdown",
            "line",
            "fp16_line",
        ],
    )


def batch_token_budget_test(w: pd.DataFrame) -> pd.DataFrame:
    """The hypothesis "batch sizes failed because batch x (sequence + decode) > max_batch_total_tokens":
    for each section and batch size, what the hypothesis predicts and what happened."""
    d = (
        w[(w["metric"] == "prefill_latency") & w["max_batch_total_tokens"].notna()]
        if "max_batch_total_tokens" in w
        else w.iloc[0:0]
    )
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
    return pd.DataFrame(
        out,
        columns=["tp", "section", "batch_size", "tokens", "budget", "predicted_to_run", "ran", "consistent", "line"],
    )


def ran_last_before_failure(w: pd.DataFrame, tp, section, batch_size: int, metric: str = "prefill_latency") -> bool:
    """True when `batch_size` is the largest batch size that ran in its (TP, section) and a larger one
    did not run: the step just before the failures."""
    d = w[(w["metric"] == metric) & (w["section"] == section)]
    d = d[d["tp"].isna()] if pd.isna(tp) else d[d["tp"] == tp]
    ran = d.loc[d["mean"].notna(), "batch_size"]
    failed = d.loc[d["mean"].isna(), "batch_size"]
    return bool(len(ran) and ran.max() == batch_size and (failed > batch_size).any())


def recommendation(w: pd.DataFrame) -> dict:
    """Which TP gives the lowest latency (decode at batch 1, prefill at batch 1) and which the most
    decode tokens/s per GPU (over all batch sizes)."""
    out = {}
    for metric in LATENCY_METRICS:
        d = w[
            (w["metric"] == metric) & (w["batch_size"] == w["batch_size"].min()) & w["mean"].notna() & w["tp"].notna()
        ]
        if len(d):
            b = d.loc[d["mean"].idxmin()]
            out[metric] = {"tp": int(b["tp"]), "ms": float(b["mean"]), "batch_size": int(b["batch_size"])}
    t = w[(w["metric"] == "decode_throughput") & w["mean"].notna() & w["tp"].notna()].copy()
    if len(t):
        t["per_gpu"] = t["mean"] / t["tp"].astype(float)
        b = t.loc[t["per_gpu"].idxmax()]
        out["throughput_per_gpu"] = {
            "tp": int(b["tp"]),
            "tok_s_per_gpu": float(b["per_gpu"]),
            "tok_s": float(b["mean"]),
            "batch_size": int(b["batch_size"]),
        }
    return out


def combine(w: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """Stack several files' wide tables, dropping rows a later file repeats exactly (same
    configuration, metric, batch size and mean): returns (table, number of rows dropped)."""
    keys = ["model", "tp", "sequence_length", "decode_length", "quantize", "metric", "batch_size", "mean"]
    dup = w.duplicated(subset=keys, keep="first") & w["mean"].notna()
    return w[~dup].reset_index(drop=True), int(dup.sum())
