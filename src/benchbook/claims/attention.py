"""The attention-kernels chapter's verdicts, each a claim judged from attention-gym's numbers.

Noise: attention-gym prints one time per kernel and no spread, but re-times the same causal FA2
problem in every section; `attention.noise` turns that into a relative noise (at least
`attention.NOISE_FLOOR`), and a comparison inside it is withheld. Kernel speed is judged on the
FLOPs a kernel performs per second (`work_tflops`), never on the credited TF/s the tool prints.
Headline claims use the forward pass (`PASS`).
"""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import attention, roofline
from benchbook.claims import Claim, make

PASS = "fw"

#: A kernel is called compute- or bandwidth-bound only above this fraction of the matching peak.
BOUND_THRESHOLD = 0.5


def _num(v):
    return None if v is None or pd.isna(v) else float(v)


def _noise_ev(noise: tuple[float, int]) -> dict:
    return {"noise": noise[0], "noise_sections": noise[1]}


def flex_sparsest(sp: pd.DataFrame, noise: tuple[float, int]) -> Claim:
    """FlexAttention against SDPA + mask on the sparsest block mask: time ratio beyond the noise."""
    r = attention.sparsest(sp, PASS)
    ev = {
        "mask": r["mask"] if r is not None else None,
        "density": _num(r["density"]) if r is not None else None,
        "a": _num(r["flex_vs_sdpa"]) if r is not None else None,  # SDPA time / Flex time
        "b": 1.0,
        "ratio": _num(r["flex_vs_sdpa"]) if r is not None else None,
        "pass": PASS,
        **_noise_ev(noise),
    }
    return make(
        "flex_sparsest", "comparison", "SDPA + mask time / FlexAttention time differs from 1 beyond the noise", ev
    )


def skip_sparsest(sp: pd.DataFrame, noise: tuple[float, int]) -> Claim:
    """On the sparsest block mask, FlexAttention's speed-up against what skipping the masked blocks
    alone gives (1 / density): above 1, it is also faster per computed block; below, slower."""
    r = attention.sparsest(sp, PASS)
    a = _num(r["flex_vs_sdpa"]) if r is not None else None
    b = _num(r["ideal_vs_sdpa"]) if r is not None else None
    ev = {
        "mask": r["mask"] if r is not None else None,
        "density": _num(r["density"]) if r is not None else None,
        "a": a,
        "b": b,
        "ratio": a / b if a is not None and b else None,
        "more": bool(a > b) if a is not None and b is not None else None,
        "pass": PASS,
        **_noise_ev(noise),
    }
    # the next sparsest block mask, where the same share of the ideal can be put to the test
    nxt = attention.sparsest(sp[sp["mask"] != r["mask"]], PASS) if r is not None else None
    if nxt is not None:
        ev.update(next_mask=nxt["mask"], next_density=_num(nxt["density"]), next_gain=_num(nxt["flex_vs_sdpa"]))
    rule = "measured speed-up / (1 / density) differs from 1 beyond the noise"
    return make("skip_sparsest", "comparison", rule, ev)


def dense_gain(sp: pd.DataFrame, noise: tuple[float, int]) -> Claim:
    """Where nothing is skipped (density 1), FlexAttention against SDPA + mask, judged on the
    smallest gain (the verdict "faster even with nothing to skip" must hold for every such mask)."""
    d = attention.dense_rows(sp, PASS)
    low = d.sort_values("flex_vs_sdpa").iloc[0] if len(d) else None
    ev = {
        "mask": low["mask"] if low is not None else None,
        "a": _num(low["flex_vs_sdpa"]) if low is not None else None,
        "b": 1.0,
        "ratio": _num(low["flex_vs_sdpa"]) if low is not None else None,
        "max_ratio": _num(d["flex_vs_sdpa"].max()) if len(d) else None,
        "n_masks": len(d),
        "pass": PASS,
        **_noise_ev(noise),
    }
    rule = "the smallest SDPA + mask / FlexAttention time ratio at density 1 differs from 1 beyond the noise"
    return make("dense_gain", "comparison", rule, ev)


def sdpa_printed(k: pd.DataFrame, sp: pd.DataFrame, noise: tuple[float, int]) -> Claim:
    """On the sparsest block mask, the work SDPA + mask performs per second against the TF/s the tool
    prints for it: it computes every tile and is credited only the density's share, so the two
    differ by 1 / density, told only where that is beyond the noise."""
    r = attention.sparsest(sp, PASS)
    row = (
        k[(k["operation"] == "sdpa_mask") & (k["pass"] == PASS) & (k["mask"] == r["mask"])]
        if r is not None
        else k.iloc[0:0]
    )
    a = _num(row["work_tflops"].iloc[0]) if len(row) else None
    b = _num(row["tflops"].iloc[0]) if len(row) else None
    ev = {
        "mask": r["mask"] if r is not None else None,
        "density": _num(r["density"]) if r is not None else None,
        "a": a,
        "b": b,
        "ratio": a / b if a is not None and b else None,
        "pass": PASS,
        **_noise_ev(noise),
    }
    rule = "performed TFLOP/s of SDPA + mask / its printed TFLOP/s on the sparsest mask differs from 1 beyond the noise"
    return make("sdpa_printed", "comparison", rule, ev)


def kernel_fraction(k: pd.DataFrame, operation: str, peaks: roofline.Peaks, claim_id: str, said=None) -> Claim:
    """The performed-work rate of `operation` (its best mask) as a fraction of the dense FP16 peak
    (`said`: what the input says of a device none was taken from, `analysis.roofline.said`)."""
    w = attention.work_rates(k, operation, PASS)
    best = _num(w.max()) if len(w) else None
    ev = {
        "operation": operation,
        "fraction": peaks.share(best),
        "fraction_low": peaks.share(_num(w.min())) if len(w) else None,
        "tflops_low": _num(w.min()) if len(w) else None,
        "tflops_high": best,
        "n_masks": len(w),
        "peak": peaks.dense_tflops,
        "unit": "TFLOP/s",
        "device": peaks.device,
        "peak_source": peaks.source,
        "pass": PASS,
        **(said or {}),
        "suspects": [
            "the wrong device (its peak is not this run's)",
            "a shape other than attention-gym's B=16, H=16, D=64 (the work would be miscounted)",
        ],
    }
    rule = "performed TFLOP/s (best mask) / dense FP16 peak, at most 1"
    return make(claim_id, "fraction_of_peak", rule, ev)


def sdpa_vs_fa2(k: pd.DataFrame, noise: tuple[float, int]) -> Claim:
    """SDPA + mask's performed-work rate against FA2's (medians over masks): is SDPA + mask a slow
    kernel per FLOP it does, beyond doing work the mask throws away?"""
    s, f = attention.work_rates(k, "sdpa_mask", PASS), attention.work_rates(k, "causal_fa2", PASS)
    a = _num(s.median()) if len(s) else None
    b = _num(f.median()) if len(f) else None
    ev = {
        "a": a,
        "b": b,
        "ratio": a / b if a is not None and b else None,
        "a_low": _num(s.min()) if len(s) else None,
        "a_high": _num(s.max()) if len(s) else None,
        "b_low": _num(f.min()) if len(f) else None,
        "b_high": _num(f.max()) if len(f) else None,
        "n_masks": len(s),
        "n_sparse": int((k[(k["operation"] == "sdpa_mask") & (k["pass"] == PASS)]["density"] < 1).sum()),
        "pass": PASS,
        **_noise_ev(noise),
    }
    rule = "median performed TFLOP/s of SDPA + mask / that of causal FA2 differs from 1 beyond the noise"
    return make("sdpa_vs_fa2", "comparison", rule, ev)


def flex_vs_fa2_causal(k: pd.DataFrame, noise: tuple[float, int]) -> Claim:
    """On the plain causal mask, the one problem both run: FlexAttention's time against FA2's. The
    evidence keeps the section's shape and SDPA + mask's time and printed TF/s, for the exercise
    that counts the FLOPs (only where the rows fit the benchmark's default shape)."""
    rows = attention.causal_row(k, PASS).set_index("operation")
    c = rows["time_ms"]
    a = _num(c.get("flexattention")) if len(c) else None
    b = _num(c.get("causal_fa2")) if len(c) else None
    ev = {"a": a, "b": b, "ratio": a / b if a is not None and b else None, "pass": PASS, **_noise_ev(noise)}
    if len(rows) and "sdpa_mask" in rows.index and (rows["shape"] == "default").all():
        sd = rows.loc["sdpa_mask"]
        ev.update(
            seq_len=int(sd["seq_len"]),
            density=_num(sd["density"]),
            sdpa_ms=_num(sd["time_ms"]),
            sdpa_printed=_num(sd["tflops"]),
            fa2_printed=_num(rows["tflops"].get("causal_fa2")),
            b_size=attention.DEFAULT_B,
            heads=attention.DEFAULT_H,
            head_dim=attention.DEFAULT_D,
        )
    rule = "FlexAttention time / FA2 time on the causal mask differs from 1 beyond the noise"
    return make("flex_vs_fa2_causal", "comparison", rule, ev)


def best_bound(pts: pd.DataFrame, peaks: roofline.Peaks, threshold: float = BOUND_THRESHOLD, said=None) -> Claim:
    """What limits the kernel that performs the most work per second, from its place on the roofline
    (compulsory traffic only: the bandwidth fraction is a lower bound; `said` as `kernel_fraction`'s)."""
    r = attention.best_point(pts)
    ev = {
        "operation": r["operation"] if r is not None else None,
        "mask": r["mask"] if r is not None else None,
        "pass": r["pass"] if r is not None else None,
        "achieved_tflops": _num(r["achieved_tflops"]) if r is not None else None,
        "compute_fraction": peaks.share(_num(r["achieved_tflops"])) if r is not None else None,
        "bandwidth_fraction": peaks.share(_num(r["achieved_gb_s"]), "bandwidth") if r is not None else None,
        "intensity": _num(r["intensity_flop_per_byte"]) if r is not None else None,
        "ridge": peaks.ridge(),
        "threshold": threshold,
        "device": peaks.device,
        "peak_source": peaks.source,
        **(said or {}),
    }
    rule = f"bound rule on the best point: a limit is named only above {threshold:.0%} of its peak"
    return make("best_bound", "bound", rule, ev)


def all_claims(k: pd.DataFrame, sp: pd.DataFrame, pts: pd.DataFrame, peaks: roofline.Peaks, said=None) -> list[Claim]:
    """Every claim of the chapter, in page order (`said`: what the input says of a device none was
    taken from, `analysis.roofline.said`)."""
    nz = attention.noise(k)
    return [
        flex_sparsest(sp, nz),
        sdpa_printed(k, sp, nz),
        skip_sparsest(sp, nz),
        dense_gain(sp, nz),
        kernel_fraction(k, "sdpa_mask", peaks, "sdpa_fraction", said),
        kernel_fraction(k, "causal_fa2", peaks, "fa2_fraction", said),
        sdpa_vs_fa2(k, nz),
        flex_vs_fa2_causal(k, nz),
        best_bound(pts, peaks, said=said),
    ]
