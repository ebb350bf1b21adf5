"""Tensor-parallel scaling from text-generation-benchmark tables: speed-up, a scaling-model fit,
roofline points and the anomaly detectors of the tp_scaling chapter.

Everything works on `wide(df)` (benchbook.checks.tgi): one row per configuration, metric and batch
size, with the statistics as columns (mean, min, max, p50, p90, p99) and the raw `line`.
Latencies are the Average column (order-independent; the percentile columns are not trustworthy).

The last section turns these results into the chapter's figures and sentences, so that the notebook
only glues them and the branches for other inputs (one TP, no fit, no quantized run) can be tested.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy.optimize import curve_fit

from benchbook.checks.tgi import wide
from benchbook.presentation.plotting import color
from benchbook.analysis.roofline import achieved_bandwidth_gb_s, plot_roofline

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
    "prefill_example",
    "plot_speedup",
    "efficiency_sentence",
    "speedup_glues",
    "scaling_fits",
    "plot_fits",
    "fit_optimum_sentence",
    "fit_glues",
    "slowdown_glues",
    "plot_tp_roofline",
    "roofline_glues",
    "roofline_fraction_table",
    "percentile_glues",
    "budget_sentences",
    "jump_sentence",
    "plot_quantization",
    "quantization_sentences",
    "quantization_glues",
    "recommendation_glues",
    "coverage_sentence",
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


# ------------------------------------------------------------------------- chapter figures and text
NAN = float("nan")


def prefill_example(w: pd.DataFrame, tp_unknown: int) -> dict:
    """The printed prefill "throughput" (sequences/s) beside the prompt tokens/s it hides, at the
    smallest batch and TP that ran: the worked example of the mislabelled column."""
    pre = w[(w["metric"] == "prefill_latency") & w["mean"].notna()]
    r1 = pre.sort_values(["batch_size", "tp"]).iloc[0]
    thr = w[(w["metric"] == "prefill_throughput") & (w["batch_size"] == r1["batch_size"]) & (w["tp"] == r1["tp"])]
    return {
        "pf_seq_s": float(thr["mean"].iloc[0]) if len(thr) else NAN,
        "pf_tok_s": r1["batch_size"] * r1["sequence_length"] / (r1["mean"] / 1000),
        "pf_tp": int(r1["tp"]) if pd.notna(r1["tp"]) else tp_unknown,
        "pf_bs": int(r1["batch_size"]),
    }


def plot_speedup(sc: pd.DataFrame, tps: list[int]):
    """Speed-up (top) and parallel efficiency (bottom) against TP, prefill left and decode right,
    one line per batch size measured at two or more TPs, with perfect scaling dashed."""
    fig, axes = plt.subplots(2, 2, figsize=(10, 7), sharex=True)
    for col, metric, title in ((0, "prefill_latency", "Prefill"), (1, "decode_token_latency", "Decode (per token)")):
        d = sc[sc["metric"] == metric]
        for i, (bs, gg) in enumerate(d.groupby("batch_size")):
            if gg["tp"].nunique() < 2:
                continue
            axes[0, col].plot(gg["tp"], gg["speedup"], "o-", color=color(i), label=f"batch {bs}")
            axes[1, col].plot(gg["tp"], gg["efficiency"], "o-", color=color(i), label=f"batch {bs}")
        ref = d["ref_tp"].min()
        axes[0, col].plot(tps, [t / ref for t in tps], "k--", lw=1, label="ideal")
        axes[1, col].axhline(1.0, color="k", ls="--", lw=1)
        axes[0, col].set_title(title)
        axes[0, col].set_yscale("log", base=2)
        axes[1, col].set_xlabel("tensor-parallel GPUs (TP)")
        axes[1, col].set_xscale("log", base=2)
        axes[1, col].set_xticks(tps, [str(t) for t in tps])
    axes[0, 0].set_ylabel(f"speed-up vs TP {int(sc['ref_tp'].min())} (x)")
    axes[1, 0].set_ylabel("parallel efficiency (speed-up / GPUs)")
    axes[0, 1].legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


def efficiency_sentence(sc: pd.DataFrame) -> str:
    """Name the best decode efficiency past the reference TP; above 1 it needs explaining, since
    the extra GPUs then did better than perfect scaling."""
    dd = sc[(sc["metric"] == "decode_token_latency") & (sc["tp"] > sc["ref_tp"])]
    top = dd.loc[dd["efficiency"].idxmax()]
    where = f"{top['efficiency']:.2f} at batch {int(top['batch_size'])} and TP {int(top['tp'])}"
    if top["efficiency"] > 1:
        return (
            f"The exception is the highest efficiency, {where}. Above 1 means the smaller TP was slower "
            "than its share of the work alone would explain: at larger batches, its decode step was no "
            "longer bound by reading the weights."
        )
    return f"No decode step scales perfectly: the highest efficiency is {where}."


def speedup_glues(sc: pd.DataFrame, w: pd.DataFrame, tps: list[int], tp_unknown: int) -> dict:
    """The section-1 numbers at the smallest batch; NaN and no sentence when the input has one TP
    only, so that the prose still renders."""
    if len(tps) < 2:
        return {
            "eff_sentence": "",
            "dec_best_speedup": NAN,
            "dec_eff_maxtp": NAN,
            "pre_speedup_maxtp": NAN,
            "max_tp": max(tps) if tps else tp_unknown,
            "min_bs": int(w["batch_size"].min()),
        }
    d1 = sc[(sc["metric"] == "decode_token_latency") & (sc["batch_size"] == sc["batch_size"].min())]
    p1 = sc[(sc["metric"] == "prefill_latency") & (sc["batch_size"] == sc["batch_size"].min())]
    return {
        "dec_best_speedup": d1["speedup"].max(),
        "dec_eff_maxtp": d1.sort_values("tp")["efficiency"].iloc[-1],
        "pre_speedup_maxtp": p1.sort_values("tp")["speedup"].iloc[-1],
        "max_tp": max(tps),
        "min_bs": int(sc["batch_size"].min()),
        "eff_sentence": efficiency_sentence(sc),
    }


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


def plot_fits(fits: list[dict], tps: list[int]):
    """Measured mean latency against TP (points) and each fitted curve (lines), per phase, with
    the parameters and their standard errors in the legend."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, metric, title in (
        (axes[0], "prefill_latency", "Prefill"),
        (axes[1], "decode_token_latency", "Decode (per token)"),
    ):
        for i, item in enumerate(x for x in fits if x["metric"] == metric):
            f, pts = item["fit"], item["points"]
            grid = np.linspace(min(tps), max(tps), 100)
            ax.plot(pts["tp"], pts["mean"], "o", color=color(i))
            ax.plot(
                grid,
                f.predict(grid),
                "-",
                color=color(i),
                label=f"bs {item['batch_size']}: a={f.a:.0f}±{f.a_err:.0f}, b={f.b:.1f}±{f.b_err:.1f}, "
                f"c={f.c:.0f}±{f.c_err:.0f}",
            )
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(tps, [str(t) for t in tps])
        ax.set_xlabel("tensor-parallel GPUs (TP)")
        ax.set_ylabel("mean latency (ms)")
        ax.set_title(title)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def fit_optimum_sentence(fit: ScalingFit, tps, best_tp: int, best_ms: float) -> str:
    """Whether the fitted optimum agrees with the measured one; when not, tell the reader to trust
    the measurement, because a fit with so few degrees of freedom cannot place a minimum between TPs."""
    if fit.nearest_measured(tps) == best_tp:
        return f"The measured TP nearest to it, TP {best_tp}, is also the measured minimum."
    return (
        f"The measured minimum is at TP {best_tp} ({best_ms:.2f} ms) instead: with "
        f"{fit.dof} degree(s) of freedom the fit cannot place its minimum between the TPs measured, "
        "so deploy the measured minimum, not the fitted one."
    )


def fit_glues(fits: list[dict], best: pd.DataFrame) -> dict:
    """The decode fit at the smallest batch fitted, for the prose; NaN and no sentence when there
    is none, so that the prose still renders."""
    dec = [x for x in fits if x["metric"] == "decode_token_latency"]
    if not dec:
        keys = ("fit_bs", "fit_a", "fit_a_err", "fit_b", "fit_b_err", "fit_c", "fit_c_err", "fit_opt")
        return dict.fromkeys(keys, NAN) | {"fit_opt_sentence": ""}
    dfit, f = dec[0], dec[0]["fit"]
    measured = best[best["batch_size"] == dfit["batch_size"]].iloc[0]
    return {
        "fit_bs": dfit["batch_size"],
        "fit_a": f.a,
        "fit_a_err": f.a_err,
        "fit_b": f.b,
        "fit_b_err": f.b_err,
        "fit_c": f.c,
        "fit_c_err": f.c_err,
        "fit_opt": f.tp_optimum,
        "fit_opt_sentence": fit_optimum_sentence(f, dfit["points"]["tp"], measured["best_tp"], measured["best_ms"]),
    }


def slowdown_glues(best: pd.DataFrame) -> dict:
    """At the smallest batch: the TP past which decode gets slower and the latencies either side,
    or a sentence saying the input shows no such TP."""
    b1 = best[best["batch_size"] == best["batch_size"].min()] if len(best) else best
    if len(b1) and bool(b1["slower_past_best"].iloc[0]):
        r = b1.iloc[0]
        return {
            "slow_tp": int(r["best_tp"]),
            "slow_best_ms": r["best_ms"],
            "slow_max_tp": int(r["max_tp"]),
            "slow_max_ms": r["max_tp_ms"],
            "slow_sentence": f"Past TP {int(r['best_tp'])}, decode gets slower",
        }
    return dict.fromkeys(("slow_tp", "slow_best_ms", "slow_max_tp", "slow_max_ms"), NAN) | {
        "slow_sentence": "In this input, no TP past which decode gets slower is visible"
    }


def plot_tp_roofline(rp: pd.DataFrame, gpu):
    """`roofline_points` under the GPU's per-GPU roofline, one colour per phase and TP."""
    fig, ax = plt.subplots(figsize=(8, 5))
    pts = rp.assign(
        label=np.where(rp["metric"] == "prefill_latency", "prefill", "decode") + " TP " + rp["tp"].astype(str)
    )
    plot_roofline(ax, gpu, pts, hue_col="label", xlim=(0.1, 100_000))
    ax.set_title(f"Per-GPU roofline, {gpu.name} (assumed)")
    return fig


def roofline_glues(rp: pd.DataFrame) -> dict:
    """Decode's bandwidth fraction at the smallest batch on the smallest and largest TP, the best
    prefill compute fraction, and how many points exceed a peak (a sign of a wrong assumption)."""
    dec = rp[rp["metric"] == "decode_token_latency"]
    prf = rp[rp["metric"] == "prefill_latency"]
    d_b1 = dec[dec["batch_size"] == dec["batch_size"].min()].sort_values("tp")
    return {
        "bw_frac_tp1": d_b1["bandwidth_fraction"].iloc[0],
        "bw_tp1": d_b1["tp"].iloc[0],
        "bw_frac_maxtp": d_b1["bandwidth_fraction"].iloc[-1],
        "bw_maxtp": d_b1["tp"].iloc[-1],
        "pf_frac_max": prf["compute_fraction"].max(),
        "over_peak": int((rp["bandwidth_fraction"] > 1).sum() + (rp["compute_fraction"] > 1).sum()),
    }


def roofline_fraction_table(rp: pd.DataFrame) -> pd.DataFrame:
    """Fraction of peak per batch size (rows) and TP (columns): bandwidth for decode, which is
    bound by reading weights, and fp16 FLOP/s for prefill, which is bound by compute."""
    table = rp.pivot_table(
        index=["metric", "batch_size"], columns="tp", values=["bandwidth_fraction", "compute_fraction"]
    ).round(3)
    phases = table.index.get_level_values(0)
    table = pd.concat(
        {
            "decode: fraction of peak bandwidth": table.loc["decode_token_latency", "bandwidth_fraction"]
            if "decode_token_latency" in phases
            else pd.DataFrame(),
            "prefill: fraction of peak fp16 FLOP/s": table.loc["prefill_latency", "compute_fraction"]
            if "prefill_latency" in phases
            else pd.DataFrame(),
        }
    )
    table.columns = [f"TP {c}" for c in table.columns]
    return table


def percentile_glues(w: pd.DataFrame, inv: pd.DataFrame) -> dict:
    """The counts that show the p50/p90/p99 columns are unsorted vector elements, not percentiles."""
    lat = w[w["metric"].str.endswith("latency") & w["p90"].notna()]
    pre = lat[lat["metric"] == "prefill_latency"]
    return {
        "n_p90_lt_p50": int((inv["p90"] < inv["p50"]).sum()),
        "n_p90_lt_mean": int((inv["p90"] < inv["mean"]).sum()),
        "n_p90_eq_p99": int((lat["p90"] == lat["p99"]).sum()),
        "n_lat_rows": len(lat),
        "n_p90_below_max": int((lat["p90"] < lat["max"]).sum()),
        "n_prefill_p90_max": int((pre["p90"] == pre["max"]).sum()),
        "n_prefill": int((lat["metric"] == "prefill_latency").sum()),
    }


def budget_sentences(budget: pd.DataFrame) -> dict:
    """The token budget and the two kinds of counter-example to "the failures hit the budget":
    batches over it that ran, and batches under it that did not ("none" when there are none)."""
    ran_over = budget[budget["ran"] & ~budget["predicted_to_run"]]
    failed_under = budget[~budget["ran"] & budget["predicted_to_run"]]
    return {
        "budget": int(budget["budget"].iloc[0]) if len(budget) else 0,
        "ran_over": "; ".join(
            f"TP {r.tp} batch {r.batch_size} ({r.tokens:,} tokens) ran" for r in ran_over.itertuples()
        )
        or "none",
        "failed_under": "; ".join(
            f"TP {r.tp} batch {r.batch_size} ({r.tokens:,} tokens) did not run" for r in failed_under.itertuples()
        )
        or "none",
    }


def jump_sentence(jumps: pd.DataFrame, w: pd.DataFrame) -> str:
    """Describe the largest superlinear jump, and point at memory pressure when it is the last
    batch size before the failures; empty when there is no jump."""
    if not len(jumps):
        return ""
    j = jumps.sort_values("growth_per_batch").iloc[-1]
    text = (
        f"The largest: TP {j.tp} prefill goes from {j.from_ms:.0f} ms at batch {j.from_bs} to {j.to_ms:.0f} ms "
        f"at batch {j.to_bs}, {j.growth_per_batch:.2f}x faster growth than the batch."
    )
    if ran_last_before_failure(w, j.tp, j.section, j.to_bs):
        text += (
            " This happens at the last batch size that ran before the failures, which suggests memory "
            "pressure (allocator retries, fragmentation) rather than compute."
        )
    return text


def plot_quantization(qs: pd.DataFrame):
    """Decode latency per token against batch size, fp16 and its quantized twin."""
    name = str(qs.sort_values("batch_size").iloc[0]["quantize"])
    fig, ax = plt.subplots()
    ax.plot(qs["batch_size"], qs["fp16_ms"], "o-", color=color(0), label="fp16")
    ax.plot(qs["batch_size"], qs["quantized_ms"], "o-", color=color(3), label=name)
    ax.set_xscale("log", base=2)
    ax.set_xticks(sorted(qs["batch_size"]), [str(b) for b in sorted(qs["batch_size"])])
    ax.set_xlabel("batch size (sequences)")
    ax.set_ylabel("decode latency per token (ms)")
    ax.set_ylim(0, None)
    ax.legend()
    return fig


def quantization_sentences(qs: pd.DataFrame, params_b: float, gpu) -> dict:
    """Caption, explanation and takeaway for the quantized run. A quantized decode that is slower
    than fp16 contradicts the bandwidth-bound picture, so the explanation says what binds it instead."""
    if not len(qs):
        return {
            "q_caption": "This input has no quantized run with an fp16 twin to compare.",
            "q_explain": "",
            "q_take": "This input has no quantized run to compare with fp16.",
        }
    q1 = qs.sort_values("batch_size").iloc[0]
    name, bs = q1["quantize"], int(q1["batch_size"])
    if (qs["slowdown"] > 1).all():
        caption = f"{name} decode is slower than fp16 at every batch size measured."
    elif (qs["slowdown"] < 1).all():
        caption = f"{name} decode is faster than fp16 at every batch size measured."
    else:
        caption = f"{name} decode is slower than fp16 at some batch sizes and faster at others."
    explain = (
        "Fewer bytes per weight should make a bandwidth-bound decode faster; that it gets slower at "
        f"batch {bs} shows the step is bound by the kernels instead."
        if q1["slowdown"] > 1
        else ""
    )
    if str(name).startswith("bitsandbytes"):
        explain += (
            " bitsandbytes' LLM.int8() splits each matrix product into an int8 part and an fp16 outlier "
            "part, and dequantizes on the fly."
        )
    q_bytes = QUANT_BYTES_PER_WEIGHT.get(name)
    if q_bytes:
        q_bw = achieved_bandwidth_gb_s(params_b * 1e9 * q_bytes / q1["tp"], q1["quantized_ms"] / 1000)
        explain += (
            f" Its kernels reach {q_bw / gpu.bandwidth_gb_s:.1%} of {gpu.name}'s bandwidth here (counting "
            f"{q_bytes:g} byte(s) per weight)."
        )
    return {
        "q_caption": caption,
        "q_explain": explain,
        "q_take": f"{name} made decode at batch {bs} {q1['slowdown']:.1f}x slower than fp16.",
    }


def quantization_glues(qs: pd.DataFrame, params_b: float, gpu) -> dict:
    """The quantized-vs-fp16 numbers at the smallest batch and the sentences about them; NaN,
    zero and "none" when the input has no quantized run with an fp16 twin."""
    if not len(qs):
        numbers = dict.fromkeys(("q_slow_bs1", "q_fp16", "q_q", "q_slow_min"), NAN)
        numbers |= {"q_name": "none", "q_bs": 0, "q_tp": 0}
    else:
        q1 = qs.sort_values("batch_size").iloc[0]
        numbers = {
            "q_name": str(q1["quantize"]),
            "q_slow_bs1": q1["slowdown"],
            "q_fp16": q1["fp16_ms"],
            "q_q": q1["quantized_ms"],
            "q_bs": int(q1["batch_size"]),
            "q_tp": int(q1["tp"]),
            "q_slow_min": qs["slowdown"].min(),
        }
    return numbers | quantization_sentences(qs, params_b, gpu)


def recommendation_glues(rec: dict, tps: list[int]) -> dict:
    """`recommendation` flattened for the prose (0 and NaN where a phase is missing), with a note
    on whether decode had stopped gaining before the largest TP measured."""
    out = {}
    for key, name in (("decode_token_latency", "rec_dec"), ("prefill_latency", "rec_pre")):
        out[f"{name}_tp"] = rec[key]["tp"] if key in rec else 0
        out[f"{name}_ms"] = rec[key]["ms"] if key in rec else NAN
    t = rec.get("throughput_per_gpu", {"tp": 0, "tok_s_per_gpu": NAN, "batch_size": 0, "tok_s": NAN})
    out |= {
        "rec_thr_tp": t["tp"],
        "rec_thr_pg": t["tok_s_per_gpu"],
        "rec_thr_bs": t["batch_size"],
        "rec_thr": t["tok_s"],
    }
    rd = rec.get("decode_token_latency")
    if rd is None:
        out["rec_dec_note"] = ""
    elif rd["tp"] < max(tps):
        out["rec_dec_note"] = f"Beyond TP {rd['tp']}, more GPUs do not help decode at this batch."
    else:
        out["rec_dec_note"] = f"Decode still gained at TP {rd['tp']}, the largest measured: more GPUs may help further."
    return out


def coverage_sentence(missing: pd.DataFrame) -> str:
    """Warn that the recommendations ignore the batch sizes that never ran, listing them per TP."""
    if not len(missing):
        return "Every batch size ran at every TP of the main configuration."
    not_run = "; ".join(
        f"at TP {int(t)}, batch {', '.join(map(str, sorted(g['batch_size'])))}" for t, g in missing.groupby("tp")
    )
    return (
        f"These figures cover only the batch sizes that ran; these did not: {not_run}. The "
        "throughput ranking may change where they would have run."
    )
