"""Attention kernels: FlexAttention vs FlashAttention-2 vs SDPA with a dense mask (attention-gym).

Each attention-gym section runs one mask at one shape and prints time and TF/s for three kernels.
The TF/s are *credited* FLOPs per second: FA2 always runs plain causal attention and is credited
0.5 S^2; SDPA + mask and FlexAttention are credited density x S^2 where density is the fraction
of 128 x 128 blocks not masked out. FlexAttention skips the masked blocks, so its credit is its
work. SDPA with a dense boolean mask computes every block, so its work is the full S^2 and its
printed TF/s understates what the GPU did by 1 / density.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.analysis import roofline
from benchbook.checks.attention_gym import MULTIPLIER
from benchbook.ingest.attention_gym import DEFAULT_B, DEFAULT_D, DEFAULT_H

#: Bytes per element of Q, K, V, O (the benchmark runs float16).
BYTES_PER_ELEMENT = 2

OPERATION_LABELS = {"causal_fa2": "causal FA2", "sdpa_mask": "F.sdpa + mask", "flexattention": "FlexAttention"}


def kernels(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (mask, operation, pass) with time_ms, tflops, seq_len, density and the
    section's order of appearance."""
    d = df[df["tool"] == "attention-gym"].copy()
    d.attrs = {}
    order = {m: i for i, m in enumerate(d["mask"].drop_duplicates())}
    w = d.pivot_table(
        index=["mask", "operation", "pass", "seq_len", "sparsity_pct", "density"],
        columns="metric",
        values="value",
        aggfunc="first",
        dropna=False,
    ).reset_index()
    w = w.rename(columns={"time": "time_ms"}).dropna(subset=["time_ms"], how="all")
    w["order"] = w["mask"].map(order)
    return w.sort_values(["order", "pass", "operation"]).reset_index(drop=True)


def work_flops(
    operation: str,
    pass_: str,
    seq_len: float,
    density: float,
    b: int = DEFAULT_B,
    h: int = DEFAULT_H,
    d: int = DEFAULT_D,
) -> float:
    """FLOPs the kernel actually performs: FA2 half of S^2 (causal), Flex the unmasked blocks,
    SDPA + mask all of S^2 (the dense mask is applied after computing every score)."""
    frac = {"causal_fa2": 0.5, "flexattention": density}.get(operation, 1.0)
    return MULTIPLIER[pass_] * frac * b * h * d * seq_len * seq_len


def with_work(k: pd.DataFrame) -> pd.DataFrame:
    """Add work_tflops (FLOPs performed per second) and credit_ratio (credited / performed)."""
    k = k.copy()
    dens = k["density"].fillna(1.0)
    work = [work_flops(o, p, s, de) for o, p, s, de in zip(k["operation"], k["pass"], k["seq_len"], dens, strict=True)]
    k["work_tflops"] = np.array(work, dtype=float) / (k["time_ms"] / 1e3) / 1e12
    k["credit_ratio"] = k["tflops"] / k["work_tflops"]
    return k


def speedups(k: pd.DataFrame) -> pd.DataFrame:
    """Per (mask, pass): FlexAttention's speed-up over SDPA + mask and over causal FA2 (time ratios),
    with the mask density; 1 / density is the speed-up block sparsity alone could give over SDPA."""
    t = k.pivot_table(
        index=["order", "mask", "pass", "density", "seq_len"], columns="operation", values="time_ms", aggfunc="first"
    ).reset_index()
    out = t[["order", "mask", "pass", "density", "seq_len"]].copy()
    if "sdpa_mask" in t and "flexattention" in t:
        out["flex_vs_sdpa"] = t["sdpa_mask"] / t["flexattention"]
    if "causal_fa2" in t and "flexattention" in t:
        out["flex_vs_fa2"] = t["causal_fa2"] / t["flexattention"]
    out["ideal_vs_sdpa"] = 1.0 / out["density"]
    return out.sort_values(["order", "pass"]).reset_index(drop=True)


def intensity(
    operation: str,
    seq_len: float,
    density: float,
    pass_: str = "fw",
    b: int = DEFAULT_B,
    h: int = DEFAULT_H,
    d: int = DEFAULT_D,
) -> float:
    """Arithmetic intensity (FLOP/byte) of the performed work, counting only the compulsory
    traffic: Q, K, V read and O written once (forward), plus dO, dQ, dK, dV (backward)."""
    tensors = 4 if pass_ == "fw" else 8
    return work_flops(operation, pass_, seq_len, density, b, h, d) / (tensors * b * h * seq_len * d * BYTES_PER_ELEMENT)


def plot_tflops(ax, k: pd.DataFrame, pass_: str = "fw") -> None:
    """Grouped bars: printed TF/s per mask and kernel for one pass."""
    from benchbook.presentation.plotting import color

    sub = k[k["pass"] == pass_]
    masks = list(dict.fromkeys(sub.sort_values("order")["mask"]))
    ops = [o for o in OPERATION_LABELS if o in set(sub["operation"])]
    x = np.arange(len(masks))
    width = 0.8 / max(len(ops), 1)
    for i, op in enumerate(ops):
        vals = [sub[(sub["mask"] == m) & (sub["operation"] == op)]["tflops"].max() for m in masks]
        ax.bar(x + (i - (len(ops) - 1) / 2) * width, vals, width, color=color(i), label=OPERATION_LABELS[op])
    ax.set_xticks(x)
    ax.set_xticklabels([m.replace("_", " ") for m in masks], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(f"{pass_.upper()} throughput as printed (TFLOP/s)")
    ax.legend(fontsize=8)


def plot_speedup(ax, sp: pd.DataFrame) -> None:
    """FlexAttention over SDPA + mask vs block density (log-log), with the 1 / density line."""
    from benchbook.presentation.plotting import color

    for i, (ps, g) in enumerate(sp.groupby("pass", sort=False)):
        ax.scatter(g["density"], g["flex_vs_sdpa"], color=color(i), label=f"{ps.upper()} measured", zorder=3)
        for _, r in g.iterrows():
            ax.annotate(
                r["mask"].replace("_", " "),
                (r["density"], r["flex_vs_sdpa"]),
                fontsize=7,
                textcoords="offset points",
                xytext=(4, 3),
            )
    xs = np.logspace(np.log10(max(sp["density"].min() * 0.8, 1e-3)), 0, 50)
    ax.plot(xs, 1 / xs, color="grey", ls="--", label="1 / density (skip masked blocks, same speed)")
    ax.axhline(1.0, color="black", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("block density (fraction of 128 x 128 blocks computed, log scale)")
    ax.set_ylabel("speed-up of FlexAttention over SDPA + mask (x, log scale)")
    ax.legend(fontsize=8)


def stop_note(messages: list[str]) -> str:
    """The completeness line: the parser's "run stopped" warning, so a run cut short by a traceback
    says where, else that every section finished."""
    stops = [m for m in messages if m.startswith("warning: the run stopped")]
    return stops[0].removeprefix("warning: ") if stops else "the run completed every section it started"


def credit_values(k: pd.DataFrame, rep: pd.DataFrame) -> dict:
    """rep_n, rep_ok (recomputed TF/s cells and how many agree) and fa2_min, fa2_max (FA2's forward
    TF/s range, flat because it runs the same causal problem in every section)."""
    fa2 = k[(k["pass"] == "fw") & (k["operation"] == "causal_fa2")]
    return {
        "rep_n": len(rep),
        "rep_ok": int(rep["agrees"].sum()),
        "fa2_min": fa2["tflops"].min(),
        "fa2_max": fa2["tflops"].max(),
    }


def speedup_values(sp: pd.DataFrame) -> dict:
    """sp_mask, sp_density (%), sp_speedup, sp_pass for the sparsest mask; dense_min, dense_max the
    speed-up range where nothing is skipped (density 1) and causal_flex_fa2 the causal forward
    Flex/FA2 ratio, NaN where the input lacks them."""
    sparsest = sp.sort_values("density").iloc[0]
    dense = sp[sp["density"] >= 0.999]
    causal = sp[(sp["mask"] == "causal_mask") & (sp["pass"] == "fw")]
    return {
        "sp_mask": sparsest["mask"].replace("_", " "),
        "sp_density": 100 * sparsest["density"],
        "sp_speedup": sparsest["flex_vs_sdpa"],
        "sp_pass": sparsest["pass"].upper(),
        "dense_min": dense["flex_vs_sdpa"].min() if len(dense) else float("nan"),
        "dense_max": dense["flex_vs_sdpa"].max() if len(dense) else float("nan"),
        "causal_flex_fa2": causal["flex_vs_fa2"].iat[0] if len(causal) and "flex_vs_fa2" in causal else float("nan"),
    }


def sdpa_table(k: pd.DataFrame) -> pd.DataFrame:
    """Forward SDPA + mask per mask: printed TF/s next to the work it actually performs."""
    sd = k[(k["operation"] == "sdpa_mask") & (k["pass"] == "fw")]
    return sd[["mask", "density", "time_ms", "tflops", "work_tflops"]]


def sdpa_values(k: pd.DataFrame) -> dict:
    """sd_mask, sd_printed, sd_work for the lowest printed SDPA + mask forward figure, and
    sd_work_min, sd_work_max: the steady range of work it really does per second."""
    sd = sdpa_table(k)
    low = sd.sort_values("tflops").iloc[0]
    return {
        "sd_mask": low["mask"].replace("_", " "),
        "sd_printed": low["tflops"],
        "sd_work": low["work_tflops"],
        "sd_work_min": sd["work_tflops"].min(),
        "sd_work_max": sd["work_tflops"].max(),
    }


def roofline_points(k: pd.DataFrame) -> pd.DataFrame:
    """`k` with the roofline coordinates of the work performed (not the credited work), labelled by
    kernel; a missing density counts as 1 (nothing skipped)."""
    return k.assign(
        intensity_flop_per_byte=[
            intensity(o, s, d if d == d else 1.0, ps)
            for o, s, d, ps in zip(k["operation"], k["seq_len"], k["density"], k["pass"], strict=True)
        ],
        achieved_tflops=k["work_tflops"],
        label=k["operation"].map(OPERATION_LABELS),
    )


def _n_left_of_ridge(pts: pd.DataFrame, g: roofline.GPU) -> int:
    return int((pts["intensity_flop_per_byte"] < g.ridge_flop_per_byte).sum())


def roofline_values(k: pd.DataFrame, pts: pd.DataFrame, g: roofline.GPU) -> dict:
    """roof_sentence (whether any kernel is bandwidth-bound on `g`), and peak, best_work, best_pct,
    best_label for the kernel that performs the most work per second."""
    ridge = g.ridge_flop_per_byte
    n_left = _n_left_of_ridge(pts, g)
    i_min = pts["intensity_flop_per_byte"].min()
    if n_left == 0:
        roof_sentence = (
            f"every kernel here does at least {i_min:,.0f} FLOPs per byte of compulsory traffic, right "
            f"of the ridge at {ridge:.0f} FLOP/byte: these kernels are compute-bound."
        )
    else:
        roof_sentence = (
            f"the least intense point does {i_min:,.0f} FLOPs per byte of compulsory traffic, and "
            f"{n_left} of {len(pts)} points sit left of the ridge at {ridge:.0f} FLOP/byte, where "
            "bandwidth bounds them; the others are compute-bound."
        )
    best = k.loc[k["work_tflops"].idxmax()]
    return {
        "roof_sentence": roof_sentence,
        "peak": g.fp16_tflops,
        "best_work": best["work_tflops"],
        "best_pct": 100 * best["work_tflops"] / g.fp16_tflops,
        "best_label": f"{OPERATION_LABELS.get(best['operation'], best['operation'])} "
        f"{best['pass'].upper()} ({best['mask'].replace('_', ' ')})",
    }


def tflops_figure(k: pd.DataFrame):
    """`plot_tflops` of the forward pass as a Figure."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    plot_tflops(ax, k, "fw")
    ax.set_title("Forward TFLOP/s as printed: FA2 is flat, SDPA + mask looks slow")
    return fig


def speedup_figure(sp: pd.DataFrame):
    """`plot_speedup` as a Figure."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    plot_speedup(ax, sp)
    ax.set_title("FlexAttention gains more than block skipping alone explains")
    return fig


def roofline_figure(pts: pd.DataFrame, g: roofline.GPU):
    """The kernels' performed work on `g`'s roofline, titled with how many are compute-bound."""
    import matplotlib.pyplot as plt

    n_left = _n_left_of_ridge(pts, g)
    fig, ax = plt.subplots()
    roofline.plot_roofline(ax, g, pts, hue_col="label", xlim=(10, 100_000))
    ax.set_title(f"{len(pts) - n_left} of {len(pts)} points right of the ridge (compute-bound)")
    return fig
