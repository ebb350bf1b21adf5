"""Attention kernels: FlexAttention vs FlashAttention-2 vs SDPA with a dense mask (attention-gym).

Numbers only. Each attention-gym section runs one mask at one shape and prints time and TF/s for
three kernels. The TF/s are *credited* FLOPs per second: FA2 always runs plain causal attention and
is credited 0.5 S^2; SDPA + mask and FlexAttention are credited density x S^2 where density is the
fraction of 128 x 128 blocks not masked out. FlexAttention skips the masked blocks, so its credit
is its work. SDPA with a dense boolean mask computes every block, so its work is the full S^2 and
its printed TF/s understates what the GPU did by 1 / density.
"""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pandas as pd

from benchbook import hardware
from benchbook.analysis import roofline
from benchbook.ingest.attention_gym import DEFAULT_B, DEFAULT_D, DEFAULT_H

#: attention-gym's FLOP multiplier per pass (examples/benchmark.py: 4 matmul-FLOPs forward, 10 backward).
MULTIPLIER = {"fw": 4, "bw": 10}

#: Bytes per element of Q, K, V, O (the benchmark runs float16).
BYTES_PER_ELEMENT = 2

#: The kernels' order on every figure and table.
OPERATIONS = ("causal_fa2", "sdpa_mask", "flexattention")

#: Relative timing noise assumed when the input re-times no kernel (one section per shape):
#: triton's do_bench mean is typically stable to a few per cent on an idle GPU.
NOISE_FLOOR = 0.05


def kernels(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (mask, operation, pass) with time_ms, tflops, seq_len, density and the
    section's order of appearance."""
    d = df[df["tool"] == "attention-gym"].copy()
    d.attrs = {}
    if d.empty:  # an input of tritonbench tables only: no mask, no kernel of attention-gym's
        cols = ["mask", "operation", "pass", "seq_len", "sparsity_pct", "density", "time_ms", "tflops", "order"]
        return pd.DataFrame({c: pd.Series(dtype=object if c in ("mask", "operation", "pass") else float) for c in cols})
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


def credited_fraction(operation: str, density: float) -> float:
    """Share of S^2 the tool credits a kernel with: 0.5 for causal FA2, the density for the others."""
    return 0.5 if operation == "causal_fa2" else density


def work_fraction(operation: str, density: float) -> float:
    """Share of S^2 a kernel performs: 0.5 for causal FA2, the density for FlexAttention (it skips
    masked blocks), 1 for SDPA + mask and any other kernel (dense work)."""
    return {"causal_fa2": 0.5, "flexattention": density}.get(operation, 1.0)


#: Relative gap between the printed TF/s and the tool's formula at the default shape beyond which
#: a row was run at another shape (a modified benchmark): 2 %, far above the printing's rounding.
SHAPE_TOLERANCE = 0.02


def with_work(k: pd.DataFrame) -> pd.DataFrame:
    """Add work_tflops (FLOPs performed per second), credit_ratio (credited / performed) and
    `shape`: "default" when the printed TF/s match the tool's formula at B=16, H=16, D=64 (work from
    the time), "other" when they do not (a modified benchmark: work from the printed TF/s, which
    carry the real shape, times performed / credited share). A missing density counts as 1."""
    k = k.copy()
    dens = k["density"].fillna(1.0)
    rows = zip(k["operation"], k["pass"], k["seq_len"], dens, k["time_ms"], k["tflops"], strict=True)
    work, shape = [], []
    for op, ps, s, de, t, printed in rows:
        secs = t / 1e3
        from_time = work_flops(op, ps, s, de) / secs / 1e12 if secs > 0 else np.nan
        credited = MULTIPLIER[ps] * credited_fraction(op, de) * DEFAULT_B * DEFAULT_H * DEFAULT_D * s * s / secs / 1e12
        if pd.notna(printed) and printed > 0 and abs(credited / printed - 1) > SHAPE_TOLERANCE + 0.005 / printed:
            work.append(printed * work_fraction(op, de) / credited_fraction(op, de))
            shape.append("other")
        else:
            work.append(from_time)
            shape.append("default")
    k["work_tflops"] = np.array(work, dtype=float)
    k["credit_ratio"] = k["tflops"] / k["work_tflops"]
    k["shape"] = shape
    return k


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
    return MULTIPLIER[pass_] * work_fraction(operation, density) * b * h * d * seq_len * seq_len


def speedups(k: pd.DataFrame) -> pd.DataFrame:
    """Per (mask, pass): FlexAttention's speed-up over SDPA + mask and over causal FA2 (time ratios),
    with the mask density. `ideal_vs_sdpa` = 1 / density is the speed-up skipping the masked blocks
    alone gives at equal speed per block; `per_block` = measured / ideal is FlexAttention's speed per
    computed block relative to SDPA's (above 1: faster per block as well, below 1: slower)."""
    t = k.pivot_table(
        index=["order", "mask", "pass", "density", "seq_len"], columns="operation", values="time_ms", aggfunc="first"
    ).reset_index()
    out = t[["order", "mask", "pass", "density", "seq_len"]].copy()
    out["flex_vs_sdpa"] = t["sdpa_mask"] / t["flexattention"] if {"sdpa_mask", "flexattention"} <= set(t) else np.nan
    out["flex_vs_fa2"] = t["causal_fa2"] / t["flexattention"] if {"causal_fa2", "flexattention"} <= set(t) else np.nan
    out["ideal_vs_sdpa"] = 1.0 / out["density"]
    out["per_block"] = out["flex_vs_sdpa"] / out["ideal_vs_sdpa"]
    return out.sort_values(["order", "pass"]).reset_index(drop=True)


def retime_spread(k: pd.DataFrame) -> tuple[float | None, int]:
    """(largest spread, most sections) of the causal FA2 times re-timed at one shape and pass
    (max / min - 1): attention-gym prints one time per kernel and no spread, but it times the same
    causal FA2 problem in every section, so this is how much an identical kernel moves between
    sections. (None, 0) when no shape was timed in two sections."""
    fa2 = k[(k["operation"] == "causal_fa2") & k["time_ms"].notna()]
    if "shape" in fa2:
        fa2 = fa2[fa2["shape"] == "default"]  # sections at other shapes are other problems
    spreads, n = [], 0
    for _, g in fa2.groupby(["seq_len", "pass"]):
        if len(g) >= 2:
            spreads.append(g["time_ms"].max() / g["time_ms"].min() - 1)
            n = max(n, len(g))
    return (max(spreads) if spreads else None, n)


def noise(k: pd.DataFrame, floor: float = NOISE_FLOOR) -> tuple[float, int]:
    """(relative timing noise, sections it was measured from): the re-timing spread, never less
    than `floor`; (floor, 0) when nothing was re-timed."""
    spread, n = retime_spread(k)
    return (max(floor, spread or 0.0), n)


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
    traffic: Q, K, V read and O written once (forward), plus dO, dQ, dK, dV (backward). SDPA + mask
    also reads its S x S mask, which this leaves out."""
    tensors = 4 if pass_ == "fw" else 8
    return work_flops(operation, pass_, seq_len, density, b, h, d) / (tensors * b * h * seq_len * d * BYTES_PER_ELEMENT)


def roofline_points(k: pd.DataFrame) -> pd.DataFrame:
    """`k` with the roofline coordinates of the work performed (not the credited work) and the
    compulsory bytes moved per second; a missing density counts as 1 (nothing skipped)."""
    dens = k["density"].fillna(1.0)
    inten = [intensity(o, s, d, ps) for o, s, d, ps in zip(k["operation"], k["seq_len"], dens, k["pass"], strict=True)]
    pts = k.assign(intensity_flop_per_byte=inten, achieved_tflops=k["work_tflops"])
    pts["achieved_gb_s"] = pts["achieved_tflops"] * 1e3 / pts["intensity_flop_per_byte"]
    return pts


# --- the device and its peaks --------------------------------------------------------------------


#: No device: neither the reader nor the input names one, and none is assumed.
NONE = roofline.NO_DEVICE


def peaks(gpu: str = "", texts=(), peak_tflops: float = 0.0, peak_bandwidth_gb_s: float = 0.0) -> roofline.Peaks:
    """The device and peaks a run is measured against (`benchbook.hardware.choose`): `gpu` (a table
    name or alias) when given, else the device the texts name, else `NONE` (a page about someone
    else's run assumes no device); `peak_tflops` / `peak_bandwidth_gb_s` above 0 replace the
    table's figures (and make the source `parameter`); a name several rows fit takes the highest peaks and
    says so (`Peaks.variants`, as `roofline.of_named`). The device the texts name is `roofline.named`'s
    (the context reader's precedence; a line comparing devices or asking for a run names none).
    Raises hardware.UnknownDevice for a name the table lacks."""
    found = roofline.named([t for t in texts if t]) if not gpu else None
    named = hardware.device(found.device) if found is not None and found.device else None
    if not gpu and peak_tflops > 0 and not peak_bandwidth_gb_s and named is None:
        # the reader's compute peak alone, no device named: that peak stands, the bandwidth is unknown
        return roofline.Peaks("your device", None, {"fp16": float(peak_tflops)}, "parameter")
    choice = hardware.choose(
        gpu or None,
        detected=named,
        bandwidth_gb_s=peak_bandwidth_gb_s or None,
        peak_tflops=peak_tflops or None,
    )
    if choice is None:
        return NONE
    peaks = roofline.of_device(choice.device, choice.source)
    fits = roofline.fits_of(found, choice.device) if choice.source == "detected" else []
    # a name several rows fit (`MI300`): the highest peaks, said, so a share of a peak is a floor
    return dataclasses.replace(peaks, variants=tuple((d.name, d.bandwidth_gb_s) for d in fits)) if fits else peaks


# --- what the claims rest on ---------------------------------------------------------------------


def sparsest(sp: pd.DataFrame, pass_: str = "fw") -> pd.Series | None:
    """The speed-up row of the sparsest block mask (density below 1) in `pass_`, else None."""
    s = sp[(sp["pass"] == pass_) & (sp["density"] < 1) & sp["flex_vs_sdpa"].notna()]
    return s.sort_values(["density", "order"]).iloc[0] if len(s) else None


def dense_rows(sp: pd.DataFrame, pass_: str = "fw") -> pd.DataFrame:
    """Speed-up rows where nothing is skipped (density 1: score modifications only)."""
    return sp[(sp["pass"] == pass_) & (sp["density"] >= 0.9999) & sp["flex_vs_sdpa"].notna()]


def work_rates(k: pd.DataFrame, operation: str, pass_: str = "fw") -> pd.Series:
    """Performed TFLOP/s of one kernel in one pass, one value per mask (finite only)."""
    s = k[(k["operation"] == operation) & (k["pass"] == pass_)]
    return s.set_index("mask")["work_tflops"].replace([np.inf, -np.inf], np.nan).dropna()


def causal_row(k: pd.DataFrame, pass_: str = "fw") -> pd.DataFrame:
    """The kernels' rows of the plain causal mask (the one problem FA2 and the others share)."""
    return k[(k["mask"] == "causal_mask") & (k["pass"] == pass_)]


def best_point(pts: pd.DataFrame) -> pd.Series | None:
    """The roofline point that performs the most work per second."""
    p = pts[np.isfinite(pts["achieved_tflops"])]
    return p.loc[p["achieved_tflops"].idxmax()] if len(p) else None


# --- the lesson: FLOPs and block sparsity ----------------------------------------------------------

#: The tile a block-sparse kernel skips or computes whole (attention-gym's default BlockMask size).
BLOCK = 128

_CAUSAL = re.compile(r"^causal(?:_mask)?$")
_WINDOW = re.compile(r"^sliding_window(?:_mask)?_(\d+)$")
_PREFIX = re.compile(r"^prefix_lm(?:_causal)?(?:_mask)?_(\d+)$")
_SCORE_MODS = re.compile(r"^(?:noop|alibi(?:_mod)?|(?:tanh_)?softcap(?:_approx)?(?:_mod)?_?\d*|rel(?:ative)?_pos\w*)$")


def dense_flops(pass_: str, seq_len: float, b: int = DEFAULT_B, h: int = DEFAULT_H, d: int = DEFAULT_D) -> float:
    """FLOPs of unmasked attention: Q K^T and P V are 2 x S^2 x D each per head, 4 x B x H x S^2 x D
    forward; the backward recomputes and differentiates both, MULTIPLIER["bw"] / 4 = 2.5 times that."""
    return MULTIPLIER[pass_] * b * h * d * seq_len * seq_len


def block_density(mask: str, seq_len: int, block: int = BLOCK) -> tuple[str, float] | None:
    """(formula, density) of the tiles a mask keeps, from its family and parameter in attention-gym's
    section name, with n = S / block tiles per side: causal keeps n(n+1)/2 of n^2; a causal sliding
    window of W keeps min(i + 1, W / block + 1) tiles in row i; a causal prefix-LM with prefix P adds
    the p(p-1)/2 tiles above the diagonal of its first p = P / block columns; a score modification
    masks nothing. None for a mask whose tiles the name does not fix (document masks, random)."""
    n = -(-int(seq_len) // block)
    name = mask.lower()
    if _CAUSAL.match(name):
        return "n(n+1) / 2n^2", n * (n + 1) / 2 / n**2
    m = _WINDOW.match(name)
    if m:
        w = int(m.group(1)) // block
        return f"sum of min(i+1, {w + 1}) / n^2", sum(min(i + 1, w + 1) for i in range(n)) / n**2
    m = _PREFIX.match(name)
    if m:
        p = min(int(m.group(1)) // block, n)
        return f"(n(n+1)/2 + {p}x{p - 1}/2) / n^2", (n * (n + 1) / 2 + p * (p - 1) / 2) / n**2
    if _SCORE_MODS.match(name):
        return "1 (nothing masked)", 1.0
    return None


def densities(k: pd.DataFrame) -> pd.DataFrame:
    """Per section: the mask, S, tiles per side, the density derived from the mask's name
    (`block_density`; NaN where the name does not fix it) and the density the input printed."""
    rows = []
    for (mask, s), g in k.groupby(["mask", "seq_len"], sort=False):
        got = block_density(mask, int(s))
        rows.append(
            {
                "mask": mask,
                "seq_len": int(s),
                "tiles_per_side": -(-int(s) // BLOCK),
                "formula": got[0] if got else None,
                "derived": got[1] if got else np.nan,
                "printed": g["density"].iloc[0],
            }
        )
    return pd.DataFrame(rows, columns=["mask", "seq_len", "tiles_per_side", "formula", "derived", "printed"])
