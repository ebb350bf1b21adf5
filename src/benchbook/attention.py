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
    from benchbook.plotting import color

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
    from benchbook.plotting import color

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
