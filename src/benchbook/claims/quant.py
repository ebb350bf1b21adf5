"""The quantization chapter's verdicts, each a claim judged from the runs' numbers.

Winners are sets (Welch t-test against the best at level alpha, `analysis.quant.winner_sets`); the
mechanism behind weight-only int8's loss at large batch is judged from the phases' times and the
roofline (intensities against the ridge), never assumed; flagged runs are checked against physics.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from benchbook.analysis import quant, roofline
from benchbook.claims import Claim, make, rules

#: Relative change between neighbouring batch sizes below which a trend step counts as flat.
TREND_TOLERANCE = 0.02

#: Why a run's implied prefill can exceed the device's peak, when output throughput is the value flagged.
TIMESTAMP_SUSPECTS = [
    "the run's TTFT timestamp: output throughput (the one metric that depends on it) is the flagged value",
    "the wrong device (its peak is not this run's)",
    "the wrong model size",
]


def _num(v) -> float | None:
    return None if v is None or (isinstance(v, float) and not math.isfinite(v)) or pd.isna(v) else float(v)


def winner(win: pd.DataFrame, regime: str, alpha: float) -> Claim:
    """The winning set of one regime: the best scheme by the regime's metric and every scheme whose
    Welch test against it gives p >= alpha."""
    g = win[win["regime"] == regime].sort_values("rank")
    best = g.iloc[0] if len(g) else None
    ev = {
        "regime": regime,
        "candidates": list(g["scheme"]),
        "best": best["scheme"] if best is not None else None,
        "metric": best["metric"] if best is not None else None,
        "alpha": alpha,
        "p_values": {r.scheme: _num(r.p_vs_best) for r in g.itertuples() if r.scheme != g["scheme"].iloc[0]},
        "means": {r.scheme: _num(r.mean) for r in g.itertuples()},
        "ratios_to_best": {r.scheme: _num(r.ratio_to_best) for r in g.itertuples()},
        "runs": {r.scheme: int(r.n) for r in g.itertuples()},
        "lower_is_better": bool(best["metric"] in quant.LOWER_IS_BETTER) if best is not None else None,
    }
    ev["n_runs_min"] = min(ev["runs"].values()) if ev["runs"] else None
    rule = "the best mean plus every scheme a two-sided Welch t-test cannot tell from it (p >= alpha)"
    return make(f"winner_{regime}", "winner", rule, ev)


def metric_changes(sens: pd.DataFrame, schemes_per_regime: pd.Series, dependent: pd.Series | None = None) -> Claim:
    """In how many regimes with at least two schemes the best scheme depends on the metric
    (latency, output or overall throughput), beyond the noise when `dependent`
    (`analysis.quant.metric_dependent`) says which regimes' bests the runs can tell apart."""
    multi = [r for r in sens.index if schemes_per_regime.get(r, 0) >= 2]
    differs = sens.loc[multi].nunique(axis=1) > 1
    changed = differs & (dependent.reindex(differs.index).fillna(False).astype(bool) if dependent is not None else True)
    ev = {"count": int(changed.sum()), "n": len(multi), "regimes": list(changed.index[changed])}
    ev["within_noise"] = list(differs.index[differs & ~changed])
    rule = "regimes whose best scheme differs between metrics"
    if dependent is not None:
        rule += ", beyond the noise: the best under one metric is outside another metric's winning set"
    return make("metric_changes", "anomaly", rule, ev)


def source_first_place(differs: list[str], pub: pd.DataFrame) -> Claim:
    """In how many regimes the source's own first place is not the best by the regime's metric."""
    n = int(pub["regime"].nunique()) if len(pub) else 0
    ev = {"count": len(differs), "n": n, "regimes": differs}
    return make("source_first_place", "anomaly", "regimes where the published first place is not our best", ev)


def confound(where: dict) -> Claim:
    """Whether each scheme ran on its own GPU (so GPU-to-GPU differences ride on every comparison),
    from what the input's manifest says; nothing to check when it says nothing."""
    own = where.get("own_gpu_each")
    ev = {
        "count": 1 if own else 0,
        "n": 0 if own is None else 1,
        "hardware": where.get("hardware"),
        "own_gpu_each": own,
        # how many GPUs the rest of the file states (`analysis.quant.count_said`, the absence rule)
        **{k: v for k, v in where.items() if k.startswith("count_")},
    }
    return make("confound", "anomaly", "the manifest says each scheme ran on its own GPU", ev)


def outlier_cells(flagged: pd.DataFrame, timestamp: pd.Series, n_cells: int, rule: str) -> Claim:
    """How many (regime, scheme) cells the outlier rule flags, and how many show the signature of one
    run's TTFT timestamp (only output throughput off, and low)."""
    cells = flagged.drop_duplicates(["regime", "scheme"])
    ev = {
        "count": len(cells),
        "n": n_cells,
        "outlier_rule": rule,
        "timestamp_cells": int(timestamp.sum()) if len(timestamp) else 0,
        "cells": [f"{r.scheme} in {r.regime}" for r in cells.itertuples()],
    }
    return make("outlier_cells", "anomaly", "cells flagged by the outlier rule", ev)


def outlier_effect(changes: int, n_members: int, n_flagged: int) -> Claim:
    """Whether leaving the flagged values out changes any winning-set membership."""
    ev = {"count": changes, "n": n_members, "n_flagged": n_flagged}
    return make("outlier_effect", "anomaly", "winning-set memberships that differ with and without flagged values", ev)


def outlier_physics(phys: pd.DataFrame, peaks: roofline.Peaks | None, n_flagged: int | None = None) -> Claim:
    """The flagged run whose values imply the largest fraction of its compute peak in prefill: above
    1, physics says the run's numbers are not a measurement of the GPU."""
    rows = []
    for r in phys.itertuples():
        peak = peaks.compute_peak(r.peak) if peaks is not None else None
        rate = _num(r.implied_prefill_tflops)
        rows.append((rate / peak if rate is not None and peak else None, r, peak))
    known = [x for x in rows if x[0] is not None]
    frac, r, peak = max(known, key=lambda x: x[0]) if known else (None, None, None)
    ev = {
        "fraction": frac,
        "peak": peak,
        "unit": "TOP/s (int8)" if r is not None and r.peak == "int8" else "TFLOP/s",
        "device": peaks.device if peaks is not None else None,
        "peak_source": peaks.source if peaks is not None else None,
        "model": r.model if r is not None else None,
        "run": r.run if r is not None else None,
        "line": r.line if r is not None else None,
        "value": _num(r.value) if r is not None else None,
        "implied_tflops": _num(r.implied_prefill_tflops) if r is not None else None,
        "implied_ttft_ms": 1000 * r.implied_ttft if r is not None and _num(r.implied_ttft) is not None else None,
        "n_flagged_runs": len(phys) if n_flagged is None else n_flagged,
        "fractions": {f"{x[1].model} {x[1].run}": x[0] for x in rows},
        "suspects": TIMESTAMP_SUSPECTS,
    }
    rule = "prefill rate implied by a flagged run / its compute peak, at most 1"
    return make("outlier_physics", "fraction_of_peak", rule, ev)


def decode_bandwidth(
    pts: pd.DataFrame,
    peaks: roofline.Peaks | None,
    params_b: float | None,
    baseline: str = "",
    baseline_bytes_per_weight: float | None = None,
) -> Claim:
    """The weight streaming of the fastest decode at the smallest batch (the highest rate, 2 x params
    x tokens/s = achieved FLOP/s, not the highest bandwidth: a scheme with fewer bytes per weight
    streams less for the same rate), as a fraction of the device's memory bandwidth (weights only:
    a lower bound on the bytes moved)."""
    d = pts[(pts["phase"] == "decode")] if len(pts) else pts
    if len(d):
        d = d[(d["batch_size"] == d["batch_size"].min()) & d["weight_gb_s"].notna()]
    top = d.loc[d["achieved_tflops"].idxmax()] if len(d) and d["achieved_tflops"].notna().any() else None
    bpw = quant.precision(top["scheme"])["bytes_per_weight"] if top is not None else None
    ev = {
        "fraction": _num(top["weight_gb_s"]) / peaks.bandwidth_gb_s if top is not None and peaks else None,
        "peak": peaks.bandwidth_gb_s if peaks else None,
        "unit": "GB/s",
        "device": peaks.device if peaks else None,
        "peak_source": peaks.source if peaks else None,
        "streaming": True,
        "active_params_b": params_b,
        "bytes_per_token": params_b * 1e9 * bpw / top["batch_size"] if top is not None and params_b else None,
        "gb_s": _num(top["weight_gb_s"]) if top is not None else None,
        "tok_s": _num(top["achieved_tflops"]) * 1e12 / (2 * params_b * 1e9) if top is not None and params_b else None,
        "gb_s_std": _num(top["weight_gb_s_std"]) if top is not None else None,
        "scheme": top["scheme"] if top is not None else None,
        "regime": top["regime"] if top is not None else None,
        "batch_size": int(top["batch_size"]) if top is not None else None,
        "bytes_per_weight": bpw,
        "step_gb": params_b * bpw if top is not None and params_b else None,
    }
    base = d[(d["scheme"] == baseline) & (d["regime"] == ev["regime"])] if top is not None and baseline else d.iloc[0:0]
    if len(base) and params_b and baseline_bytes_per_weight:
        ev["baseline"] = baseline
        ev["baseline_bytes_per_weight"] = baseline_bytes_per_weight
        ev["baseline_step_gb"] = params_b * baseline_bytes_per_weight
        ev["baseline_tok_s"] = _num(base["achieved_tflops"].iloc[0]) * 1e12 / (2 * params_b * 1e9)
    rule = (
        "weight bytes per decode step x steps per second / peak bandwidth, at most 1, for the decode with the highest "
        "rate at the smallest batch"
    )
    return make("decode_bandwidth", "fraction_of_peak", rule, ev)


def decode_trend(trend: pd.DataFrame, scheme: str | None, baseline: str, peaks: roofline.Peaks | None) -> Claim:
    """The weight-only scheme's decode speed relative to the baseline (baseline time / scheme time)
    falls as the tokens each decode pass multiplies (the batch) grow; the evidence keeps every
    step's intensity and the ridge, so a reader sees whether any step crossed it."""
    ev = {
        "scheme": scheme,
        "baseline": baseline,
        "xs": [int(x) for x in trend["batch_size"]] if scheme else [],
        "ys": [float(y) for y in trend["ratio"]] if scheme else [],
        "direction": "falls",
        "min_points": 3,
        "tolerance": TREND_TOLERANCE,
        "noise": _step_noise(trend) if scheme else [],
        "intensities": [float(x) for x in trend["intensity"]] if scheme else [],
        "intensities_baseline": [float(x) for x in trend["intensity_baseline"]] if scheme else [],
        "ridge": peaks.ridge() if peaks else None,
        "device": peaks.device if peaks else None,
        "peak_source": peaks.source if peaks else None,
    }
    if ev["intensities"] and ev["ridge"]:
        ev["max_intensity"] = max(ev["intensities"])
        ev["left_of_ridge"] = bool(ev["max_intensity"] < ev["ridge"])
    ev["y_first"] = ev["ys"][0] if ev["ys"] else None
    ev["y_last"] = ev["ys"][-1] if ev["ys"] else None
    ev["x_first"] = ev["xs"][0] if ev["xs"] else None
    ev["x_last"] = ev["xs"][-1] if ev["xs"] else None
    ev["judged"] = "ends"
    ev["point_noise"] = [_num(v) for v in trend["half_width"]] if scheme and "half_width" in trend else []
    bands = rules.step_bands(ev, max(len(ev["xs"]) - 1, 0))
    ev["steps_inside_noise"] = [
        f"{x0} to {x1}"
        for x0, x1, y0, y1, band in zip(ev["xs"], ev["xs"][1:], ev["ys"], ev["ys"][1:], bands, strict=False)
        if abs(y1 / y0 - 1) <= band
    ]
    ev["crossover_batch"] = quant.crossover_batch(trend) if scheme else None
    ev["tflops"] = peaks.dense_tflops if peaks else None
    ev["bandwidth_gb_s"] = peaks.bandwidth_gb_s if peaks else None
    rule = (
        "baseline decode time / scheme decode time (median over regimes per batch) is lower at the largest batch than "
        "at the smallest, beyond the two ends' noise (their interval half-widths combined), and no step between "
        "neighbouring batches rises beyond its own noise"
    )
    return make("w8a16_decode_trend", "scaling", rule, ev)


def w8a8_gain(best: pd.DataFrame, baseline: str, alpha: float, baseline_precision: str | None) -> Claim:
    """In how many regimes the best w8a8 scheme (`analysis.quant.best_against_baseline`) is faster
    than the baseline beyond the noise: speed-up above 1 and a two-sided Welch p below alpha."""
    ok = best[(best["speedup"] > 1) & (best["p"] < alpha)] if len(best) else best
    ev = {
        "count": len(ok),
        "n": len(best),
        "baseline": baseline,
        "baseline_precision": baseline_precision,
        "alpha": alpha,
        "low": _num(ok["speedup"].min()) if len(ok) else None,
        "high": _num(ok["speedup"].max()) if len(ok) else None,
        "p_max": _num(ok["p"].max()) if len(ok) else None,
        "schemes": sorted(set(ok["scheme"])) if len(ok) else [],
        "batch_low": int(ok["batch_size"].min()) if len(ok) else None,
        "batch_high": int(ok["batch_size"].max()) if len(ok) else None,
        "regimes_not": [r for r in best["regime"] if r not in set(ok["regime"])] if len(best) else [],
        "speedups": {r.regime: _num(r.speedup) for r in best.itertuples()},
        "p_values": {r.regime: _num(r.p) for r in best.itertuples()},
    }
    rule = "regimes where the best w8a8 scheme beats the baseline: speed-up above 1 with a Welch p below alpha"
    return make("w8a8_gain", "anomaly", rule, ev)


def _step_noise(trend: pd.DataFrame) -> list[float | None]:
    """Each step's noise: its two batches' interval half-widths (relative) combined in quadrature."""
    hw = [_num(v) for v in trend["half_width"]] if "half_width" in trend else [None] * len(trend)
    return [math.hypot(a, b) if a is not None and b is not None else None for a, b in zip(hw, hw[1:], strict=False)]


def large_batch_bound(
    pts: pd.DataFrame, scheme: str | None, peaks: roofline.Peaks | None, params_b: float | None, threshold: float
) -> Claim:
    """What limits the weight-only scheme's decode step at the largest batch: its weight streaming
    against the bandwidth, its FLOP/s against the 16-bit peak, its intensity against the ridge."""
    d = pts[(pts["phase"] == "decode") & (pts["scheme"] == scheme)] if scheme and len(pts) else pts.iloc[0:0]
    top = d.loc[d["batch_size"].idxmax()] if len(d) else None
    ok = top is not None and peaks is not None
    ev = {
        "scheme": scheme,
        "regime": top["regime"] if top is not None else None,
        "batch_size": int(top["batch_size"]) if top is not None else None,
        "bandwidth_fraction": _num(top["weight_gb_s"]) / peaks.bandwidth_gb_s if ok else None,
        "compute_fraction": _num(top["achieved_tflops"]) / peaks.dense_tflops if ok else None,
        "intensity": _num(top["intensity_flop_per_byte"]) if top is not None else None,
        "intensity_16bit": float(top["batch_size"]) if top is not None else None,  # 2 x batch / 2 bytes
        "ridge": peaks.ridge() if peaks else None,
        "threshold": threshold,
        "device": peaks.device if peaks else None,
        "peak_source": peaks.source if peaks else None,
        "params_b": params_b,
    }
    rule = "bandwidth and compute fractions of the decode step against the threshold, intensity against the ridge"
    return make("w8a16_large_batch_bound", "bound", rule, ev)


def long_prefill(ratios: pd.DataFrame, scheme: str | None, baseline: str) -> Claim:
    """In the regime with the longest prefill (most tokens in one prefill), the weight-only scheme's
    prefill time against the baseline's (a = baseline time / scheme time; below 1 it is slower),
    with its decode ratio beside it; noise is the half-width of the ratio's interval."""
    p = ratios[(ratios["phase"] == "prefill") & np.isfinite(ratios["ratio"])] if scheme else ratios.iloc[0:0]
    # the most tokens in one prefill; among equals the smallest batch (its decode is the lightest)
    top = p.assign(neg_bs=-p["batch_size"]).sort_values(["tokens_per_pass", "neg_bs"]).iloc[-1] if len(p) else None
    same = ratios[ratios["regime"] == top["regime"]] if top is not None else ratios.iloc[0:0]
    dec, tot = same[same["phase"] == "decode"], same[same["phase"] == "total"]
    ratio = _num(top["ratio"]) if top is not None else None
    noise = (
        (_num(top["ci_high"]) - _num(top["ci_low"])) / 2 / ratio
        if top is not None and _num(top["ci_high"]) is not None and _num(top["ci_low"]) is not None and ratio
        else None
    )
    ev = {
        "scheme": scheme,
        "baseline": baseline,
        "regime": top["regime"] if top is not None else None,
        "batch_size": int(top["batch_size"]) if top is not None else None,
        "tokens_per_pass": int(top["tokens_per_pass"]) if top is not None else None,
        "a": ratio,
        "b": 1.0,
        "ratio": ratio,
        "noise": noise,
        "ci_low": _num(top["ci_low"]) if top is not None else None,
        "ci_high": _num(top["ci_high"]) if top is not None else None,
        "decode_ratio": _num(dec["ratio"].iloc[0]) if len(dec) else None,
        "total_ratio": _num(tot["ratio"].iloc[0]) if len(tot) else None,
        "intensity": _num(top["intensity"]) if top is not None else None,
        "slower": bool(ratio < 1) if ratio is not None else None,
        # right of every device's ridge: said whichever device ran it (none is assumed)
        "highest_ridge": roofline.highest_ridge()[0],
    }
    rule = "baseline prefill time / scheme prefill time differs from 1 by more than its interval's half-width"
    return make("w8a16_long_prefill", "comparison", rule, ev)
