"""The tp_scaling chapter's verdicts, each a claim with its evidence (numbers from
`benchbook.analysis.tp`); their sentences are in notebooks/tp_scaling.claims.yml.

Noise, wherever a rule needs it, is half the Lowest-Highest range of a row relative to its
Average (the spread text-generation-benchmark prints), the larger of the rows compared.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.analysis import roofline
from benchbook.analysis import tp as atp
from benchbook.claims import Claim, make, rules

NOISE = (
    "noise: 2 standard errors of the ratio, each Average's standard deviation estimated as "
    "(Highest - Lowest) / d2(N Runs), normal runs assumed"
)


def _options(rows: pd.DataFrame, label, col: str) -> dict:
    return {label(r): float(r[col]) for _, r in rows.iterrows()}


# ------------------------------------------------------------------------------------- scaling
def decode_speedup(sc: pd.DataFrame) -> Claim:
    """The largest decode speed-up over the reference TP at the smallest batch measured at two TPs."""
    d = atp.at_smallest_batch(sc, "decode_token_latency")
    rule = "comparison: reference-TP latency / fastest-TP latency, shown when the ratio is beyond the " + NOISE
    if d.empty:
        ev = {"a": None, "b": None, "ratio": None, "noise": None}
        return make("decode_speedup", "comparison", rule, ev).withhold("the input has fewer than two TPs")
    ref, best = d.iloc[0], d.loc[d["latency_ms"].idxmin()]
    ev = {
        "a": ref["latency_ms"],
        "b": best["latency_ms"],
        "ratio": ref["latency_ms"] / best["latency_ms"],
        "noise": atp.noise(ref["rel_se"], best["rel_se"]),
        "batch_size": int(ref["batch_size"]),
        "ref_tp": int(ref["tp"]),
        "best_tp": int(best["tp"]),
        "line": int(best["line"]),
    }
    c = make("decode_speedup", "comparison", rule, ev)
    if ev["best_tp"] == ev["ref_tp"]:
        return c.withhold(f"no larger TP decoded faster than TP {ev['ref_tp']} at batch {ev['batch_size']}")
    return c


def _trend(claim_id: str, sc: pd.DataFrame, metric: str, col: str, direction: str, rule: str) -> Claim:
    d = atp.at_smallest_batch(sc, metric)
    if d.empty:
        ev = {"xs": [], "ys": [], "direction": direction, "min_points": 3}
        return make(claim_id, "scaling", rule, ev).withhold("no batch size was measured at two or more TPs")
    se = d.sort_values("tp")["rel_se"].tolist()
    ev = {
        "xs": [int(t) for t in d["tp"]],
        "ys": [float(v) for v in d[col]],
        "direction": direction,
        "min_points": 3,
        "tolerance": 0.0,
        "noise": [atp.noise(a, b) for a, b in zip(se, se[1:], strict=False)],
        "batch_size": int(d["batch_size"].iloc[0]) if len(d) else None,
        "last_x": int(d["tp"].iloc[-1]) if len(d) else None,
        "last_y": float(d[col].iloc[-1]) if len(d) else None,
        "ref_tp": int(d["ref_tp"].iloc[0]) if len(d) else None,
    }
    return make(claim_id, "scaling", rule, ev)


def prefill_speedup_rises(sc: pd.DataFrame) -> Claim:
    """Prefill gets faster at every larger TP (at the smallest batch measured at two TPs or more)."""
    rule = "scaling: prefill speed-up at every larger TP, at least 3 TPs, each step up beyond the " + NOISE
    return _trend("prefill_speedup_rises", sc, "prefill_latency", "speedup", "rises", rule)


def prefill_efficiency_falls(sc: pd.DataFrame) -> Claim:
    """Prefill's parallel efficiency falls at every larger TP."""
    rule = "scaling: prefill parallel efficiency at every larger TP, at least 3 TPs, each step down beyond the " + NOISE
    return _trend("prefill_efficiency_falls", sc, "prefill_latency", "efficiency", "falls", rule)


def superlinear_efficiency(sc: pd.DataFrame) -> Claim:
    """A decode efficiency above 1 explained by its baseline: efficiency(bs) / efficiency(bs0) is the
    reference TP's latency growth from bs0 to bs over the larger TP's growth (an identity)."""
    rule = (
        "comparison: reference-TP decode latency growth from the smallest batch to the batch of the highest "
        "efficiency, over the larger TP's growth; shown when the efficiency exceeds 1 and the ratio is beyond the "
        + NOISE
    )
    s = atp.superlinear_efficiency(sc)
    if s is None:
        ev = {"a": None, "b": None, "ratio": None, "noise": None}
        return make("superlinear_efficiency", "comparison", rule, ev).withhold("the input has fewer than two TPs")
    ev = s | {"a": s["ref_growth"], "b": s["tp_growth"], "ratio": s["ref_growth"] / s["tp_growth"]}
    c = make("superlinear_efficiency", "comparison", rule, ev)
    if s["efficiency"] <= 1:
        return c.withhold(
            f"no decode step beat perfect scaling (the highest efficiency is {s['efficiency']:.2f}, at batch "
            f"{s['batch_size']} and TP {s['tp']})"
        )
    return c


def decode_turn_at(t: dict) -> Claim:
    """At one batch size, where decode latency stops falling (`analysis.tp.turning_tp`), said by the
    comparison that shows it: past the turn, the largest TP against the turn ("slower"); up to it, the
    TP below against the turn ("flat": the larger TPs are within the noise of it); with no turn, the
    smallest TP against the largest ("falling"). Withheld when no TP differs beyond the noise."""
    rule = (
        "comparison, per batch size: the turn is the smallest TP that no larger TP beats by more than the larger of "
        "the slowdown tolerance and the " + NOISE + "; the comparison shown is the largest TP against the turn "
        "(slower past it), the TP below against the turn (flat past it), or the smallest TP against the largest "
        "(still falling)"
    )
    after = t["after"]
    if after == "slower" or (after == "flat" and t["prev_tp"] is None):
        a, b, a_tp, b_tp, band = t["max_ms"], t["turn_ms"], t["max_tp"], t["turn_tp"], t["max_noise"]
    elif after == "flat":
        a, b, a_tp, b_tp, band = t["prev_ms"], t["turn_ms"], t["prev_tp"], t["turn_tp"], t["prev_noise"]
    else:
        a, b, a_tp, b_tp, band = t["ref_ms"], t["max_ms"], t["ref_tp"], t["max_tp"], t["max_noise"]
    ev = {k: t[k] for k in ("batch_size", "turn_tp", "turn_ms", "max_tp", "max_ms", "ref_tp", "ref_ms", "after")}
    ev |= {"a": a, "b": b, "a_tp": a_tp, "b_tp": b_tp, "ratio": a / b, "noise": band, "tps": t["tps"]}
    ev |= {"ms": t["ms"], "line": t["max_line"] if after != "flat" else t["turn_line"]}
    c = make(f"decode_turn_{t['batch_size']}", "comparison", rule, ev)
    if after == "flat" and t["prev_tp"] is None:  # nothing turned: every TP within the noise of the smallest
        return c.withhold(
            f"no larger TP than TP {t['turn_tp']} decodes faster or slower beyond the noise (TP {t['max_tp']}: "
            f"{t['max_ms'] / t['turn_ms'] - 1:+.1%} against a noise of {band:.1%})"
        )
    return c


def decode_turn(turns: pd.DataFrame, claims: list[Claim], arch: dict | None) -> Claim:
    """Where decode stops getting faster with more GPUs, over the batch sizes (each `decode_turn_at`
    claim): the TPs where it turns, the batch sizes where it still falls at the largest TP, and whether
    the turn moves to larger TPs as the batch grows. The smallest batch's numbers and the model's
    layers and hidden size ride along for the exercises."""
    by_bs = {c.evidence["batch_size"]: c for c in claims}
    shown = [by_bs[bs] for bs in sorted(by_bs) if by_bs[bs].shown]
    turned = [c.evidence for c in shown if c.evidence["after"] in ("slower", "flat")]
    falling = [c.evidence for c in shown if c.evidence["after"] == "falling"]
    groups: dict[int, list[int]] = {}
    for e in turned:
        groups.setdefault(int(e["turn_tp"]), []).append(int(e["batch_size"]))
    level = turns[(turns["after"] == "flat") & turns["prev_tp"].isna()] if len(turns) else pd.DataFrame()
    order = [int(e["turn_tp"]) for e in sorted(turned + falling, key=lambda e: e["batch_size"])]
    ev = {
        "turns": [{"tp": t, "batches": b, "smallest": t == min(turns["ref_tp"])} for t, b in groups.items()],
        "level": [int(b) for b in level["batch_size"]] if len(level) else [],
        "level_tp": int(level["turn_tp"].iloc[0]) if len(level) else None,
        "falling": [{"batch_size": int(e["batch_size"]), "max_tp": int(e["max_tp"])} for e in falling],
        "rises_with_batch": bool(len(set(order)) > 1 and order == sorted(order)),
        "per_batch": [
            {k: c.evidence[k] for k in ("batch_size", "ref_tp", "ref_ms", "turn_tp", "after")} for c in shown
        ],
    }
    if turned:
        first = turned[0]
        ev |= {k: first[k] for k in ("batch_size", "turn_tp", "turn_ms", "max_tp", "max_ms", "ref_tp", "ref_ms")}
        ev["after"] = first["after"]
        ev["line"] = by_bs[first["batch_size"]].evidence["line"]
    if arch:
        ev |= {
            "layers": arch["layers"],
            "hidden": arch["hidden"],
            "allreduces": atp.ALLREDUCES_PER_LAYER * arch["layers"],
        }
    return _anomaly(
        "decode_turn",
        "anomaly: batch sizes where decode latency stops falling before the largest TP (each by its decode_turn_<batch> "
        "rule), out of the batch sizes measured at two or more TPs",
        len(turned),
        len(turns),
        empty="no batch size was measured at two or more TPs",
        **ev,
    )


# ------------------------------------------------------------------------------- what to deploy
def latency_recommendation(w: pd.DataFrame, metric: str) -> Claim:
    """The TP with the lowest mean latency of one phase at the smallest batch, against the next best."""
    phase = "decode latency per token" if metric == "decode_token_latency" else "prefill latency"
    cid = "rec_decode_latency" if metric == "decode_token_latency" else "rec_prefill_latency"
    rule = f"recommendation: the TP with the lowest mean {phase} at the smallest batch; shown when it beats the " + (
        "runner-up by more than the " + NOISE
    )
    r = atp.ranked_latency(w, metric)
    ev = {
        "metric": f"mean {phase} (ms), batch {int(r['batch_size'].iloc[0])}" if len(r) else f"mean {phase} (ms)",
        "choice": f"TP {int(r['tp'].iloc[0])}" if len(r) else None,
        "choice_tp": int(r["tp"].iloc[0]) if len(r) else None,
        "value": r["mean"].iloc[0] if len(r) else None,
        "runner_up": f"TP {int(r['tp'].iloc[1])}" if len(r) > 1 else None,
        "runner_up_value": r["mean"].iloc[1] if len(r) > 1 else None,
        "noise": atp.noise(*r["rel_se"].iloc[:2]) if len(r) else None,
        "batch_size": int(r["batch_size"].iloc[0]) if len(r) else None,
        "options": _options(r, lambda x: f"TP {int(x['tp'])}", "mean"),
        "max_tp": int(r["tp"].max()) if len(r) else None,
    }
    return make(cid, "recommendation", rule, ev)


def throughput_recommendation(tput: pd.DataFrame) -> Claim:
    """The TP (at its best batch) that delivers the most generated tokens per second per GPU,
    counting the prefill every request needs; the decode-only ranking rides along as evidence."""
    rule = (
        "recommendation: the TP whose best batch gives the most generated tokens/s per GPU, counting the prefill "
        "(batch x decode_length over prefill + decode time); shown when it beats the best other TP by more than "
        "the " + NOISE
    )
    e2e = atp.best_per_tp(tput, "e2e_tok_s_per_gpu")
    dec = atp.best_per_tp(tput, "decode_tok_s_per_gpu")

    def label(r):
        return f"TP {int(r['tp'])} at batch {int(r['batch_size'])}"

    ev = {
        "metric": "generated tokens/s per GPU, counting the prefill",
        "choice": label(e2e.iloc[0]) if len(e2e) else None,
        "choice_tp": int(e2e["tp"].iloc[0]) if len(e2e) else None,
        "value": e2e["e2e_tok_s_per_gpu"].iloc[0] if len(e2e) else None,
        "runner_up": label(e2e.iloc[1]) if len(e2e) > 1 else None,
        "runner_up_tp": int(e2e["tp"].iloc[1]) if len(e2e) > 1 else None,
        "runner_up_value": e2e["e2e_tok_s_per_gpu"].iloc[1] if len(e2e) > 1 else None,
        "noise": atp.noise(*e2e["e2e_rel_se"].iloc[:2]) if len(e2e) else None,
        "options": _options(e2e, label, "e2e_tok_s_per_gpu"),
        "smallest_tp": int(tput["tp"].min()) if len(tput) else None,
        "sequence_length": int(e2e["sequence_length"].iloc[0]) if len(e2e) else None,
        "decode_length": int(e2e["decode_length"].iloc[0]) if len(e2e) else None,
        "decode_only_metric": "the tool's decode tokens/s per GPU (prefill left out)",
        "decode_only_choice": label(dec.iloc[0]) if len(dec) else None,
        "decode_only_value": dec["decode_tok_s_per_gpu"].iloc[0] if len(dec) else None,
        "decode_only_options": _options(dec, label, "decode_tok_s_per_gpu"),
        "choice_decode_only_value": (
            float(
                tput.loc[
                    (tput["tp"] == e2e["tp"].iloc[0]) & (tput["batch_size"] == e2e["batch_size"].iloc[0]),
                    "decode_tok_s_per_gpu",
                ].iloc[0]
            )
            if len(e2e)
            else None
        ),
    }
    return make("rec_throughput", "recommendation", rule, ev)


# ------------------------------------------------------------------------------------ roofline
def _withheld_fraction(claim_id: str, rule: str, device: dict, unit: str, reason: str) -> Claim:
    ev = {
        "fraction": None,
        "peak": None,
        "unit": unit,
        "device": device.get("device"),
        "peak_source": device.get("source"),
        **device.get("said", {}),
    }
    return make(claim_id, "fraction_of_peak", rule, ev).withhold(reason)


def _suspects(row: dict, device: dict, tp_unknown: int) -> list[str]:
    out = []
    if not row.get("tp_stated", True):
        out.append(f"the TP: the file does not state it and the chapter assumed TP {tp_unknown} (parameter tp_unknown)")
    out += [
        "the model size (parameter params_b) or bytes per weight (bytes_per_param)",
        "the KV-cache bytes per token counted (kv_bytes_per_token)",
    ]
    return out


#: The throughput table's cells, TGI's means of per-run ratios (batch / latency): no step time comes back
#: from them (the mean of 1/x is not 1/mean x), so the roofline reads the latency table alone.
THROUGHPUT_ONLY = (
    "the input prints TGI's throughput table only, whose Average is a mean of per-run ratios (batch / latency), "
    "not a step time, and the roofline reads the latency table"
)


def _why_no_row(w: pd.DataFrame) -> str:
    """Why no roofline point exists for a model of known size: no latency row at all where the input
    has throughput rows, or no row of the kind the claim needs."""
    metrics = set(w["metric"]) if "metric" in w else set()
    if not metrics & set(atp.LATENCY_METRICS) and metrics & {"prefill_throughput", "decode_throughput"}:
        return THROUGHPUT_ONLY
    return "the input has no such row"


def fraction_of_peak(
    claim_id: str,
    row: dict | None,
    device: dict,
    *,
    compute: bool,
    active_params_b: float | None,
    tp_unknown: int,
    why_missing: str,
    bytes_per_weight: float | None = None,
) -> Claim:
    """Measured / peak for one roofline row: bandwidth per GPU for a weight-streaming decode step,
    FLOP/s per GPU for a prefill."""
    unit = "TFLOP/s" if compute else "GB/s"
    rule = "fraction_of_peak: achieved per GPU / the device's peak; above 1 is implausible " + (
        "(2 x parameters x tokens FLOPs over the time)" if compute else "(weights / TP + KV cache read per step)"
    )
    if row is None:
        return _withheld_fraction(claim_id, rule, device, unit, why_missing)
    peak = device["tflops"] if compute else device["bandwidth_gb_s"]
    achieved = row["achieved_tflops"] if compute else row["achieved_gb_s_per_gpu"]
    ev = {
        "fraction": achieved / peak,
        "achieved": achieved,
        "peak": peak,
        "unit": unit,
        "device": device["device"],
        "peak_source": device["source"],
        **device.get("said", {}),
        "tp": int(row["tp"]),
        "tp_stated": bool(row["tp_stated"]),
        "batch_size": int(row["batch_size"]),
        "latency_ms": row["latency_ms"],
        "line": int(row["line"]),
        "suspects": _suspects(row, device, tp_unknown),
    }
    if not compute:
        ev |= {
            "streaming": True,
            "bytes_per_token": row["bytes_per_gpu"],
            "active_params_b": active_params_b,
            "kv_counted": bool(row.get("kv_bytes_per_token", 0)),
        }
        if bytes_per_weight is not None:
            ev["bytes_per_weight"] = bytes_per_weight
    return make(claim_id, "fraction_of_peak", rule, ev)


def highest_fraction(ext: dict, device: dict, tp_unknown: int, why_missing: str) -> Claim:
    """The physics check: the highest fraction of either peak over every roofline point."""
    h = ext.get("highest")
    rule = "fraction_of_peak: the highest fraction of either peak over all points; above 1 is implausible"
    if h is None:
        return _withheld_fraction("highest_fraction", rule, device, "fraction", why_missing)
    compute = h["peak_kind"] == "compute"
    ev = {
        "fraction": h["fraction"],
        "peak": device["tflops"] if compute else device["bandwidth_gb_s"],
        "unit": "TFLOP/s" if compute else "GB/s",
        "device": device["device"],
        "peak_source": device["source"],
        **device.get("said", {}),
        "peak_kind": h["peak_kind"],
        "phase": "prefill" if h["metric"] == "prefill_latency" else "decode",
        "tp": int(h["tp"]),
        "batch_size": int(h["batch_size"]),
        "line": int(h["line"]),
        "n_over_peak": ext.get("n_over_peak", 0),
        "suspects": _suspects(h, device, tp_unknown),
    }
    return make("highest_fraction", "fraction_of_peak", rule, ev)


def bound(claim_id: str, row: dict | None, device: dict, threshold: float, why_missing: str, tp_unknown: int) -> Claim:
    """What limits one roofline row: a peak it nearly reaches, or neither (overhead)."""
    rule = (
        "bound: memory-bandwidth when the bandwidth fraction reaches the threshold left of the ridge, compute when "
        "the compute fraction does right of it, overhead when both stay below it; whatever the device, not "
        "compute-bound below the lowest ridge of any device in the hardware table; fragile when the deciding "
        "fraction is within the noise (2 standard errors of the latency) of the threshold"
    )
    if row is None:
        ev = {"verdict": "unknown", "bandwidth_fraction": None, "compute_fraction": None, "threshold": threshold}
        return make(claim_id, "bound", rule, ev).withhold(why_missing)
    ev = {
        "bandwidth_fraction": row["bandwidth_fraction"],
        "compute_fraction": row["compute_fraction"],
        "noise": atp.noise(row.get("rel_se")),
        "lowest_ridge": roofline.lowest_ridge()[0],
        "lowest_ridge_device": roofline.lowest_ridge()[1],
        "intensity": row["intensity_flop_per_byte"],
        "ridge": roofline.ridge(device["tflops"], device["bandwidth_gb_s"]),
        "threshold": threshold,
        "device": device["device"],
        "peak_source": device["source"],
        **device.get("said", {}),
        "phase": "prefill" if row["metric"] == "prefill_latency" else "decode",
        "tp": int(row["tp"]),
        "batch_size": int(row["batch_size"]),
        "line": int(row["line"]),
        "suspects": _suspects(row, device, tp_unknown),
    }
    return make(claim_id, "bound", rule, ev)


# ----------------------------------------------------------------------------------- anomalies
def _anomaly(claim_id: str, rule: str, count: int, n: int, empty: str = "", **extra) -> Claim:
    """An anomaly count; `empty` is the reason to give when there is nothing to check (n = 0)."""
    c = make(claim_id, "anomaly", rule, {"count": int(count), "n": int(n), **extra})
    return c.withhold(empty) if not n and empty else c


def percentile_inversions(counts: dict) -> Claim:
    """Rows whose p90 is below their p50: impossible for percentiles of a sorted sample."""
    return _anomaly(
        "percentile_inversions",
        "anomaly: latency rows with p90 < p50, out of the latency rows with percentiles",
        counts["p90_lt_p50"],
        counts["latency_rows"],
        empty="the input prints no percentile columns",
        p90_lt_mean=counts["p90_lt_mean"],
        p90_eq_p99=counts["p90_eq_p99"],
    )


def p90_below_highest(counts: dict) -> Claim:
    """Rows whose p90 is below their own Highest: with 10 runs p90 is the last element, so the
    vector was never sorted."""
    return _anomaly(
        "p90_below_highest",
        "anomaly: latency rows with p90 below Highest, out of the latency rows with percentiles",
        counts["p90_below_max"],
        counts["latency_rows"],
        empty="the input prints no percentile columns",
        prefill_p90_eq_max=counts["prefill_p90_eq_max"],
        prefill_rows=counts["prefill_rows"],
    )


def missing_batches(miss: pd.DataFrame, w: pd.DataFrame) -> Claim:
    """Batch sizes printed with no runs (NaN or a merged blank)."""
    n = int((w["metric"] == "prefill_latency").sum())
    where = [f"TP {int(t)} batch {', '.join(map(str, sorted(g['batch_size'])))}" for t, g in miss.groupby("tp")]
    return _anomaly(
        "missing_batches",
        "anomaly: (TP, batch size) prefill rows printed with no runs, out of all prefill rows",
        len(miss),
        n,
        where=where,
    )


def budget_refuted(budget: pd.DataFrame, miss: pd.DataFrame) -> Claim:
    """Counter-examples to "the missing batches exceeded max_batch_total_tokens"."""
    rule = (
        "anomaly: batches where 'batch x (prompt + decode) > max_batch_total_tokens' predicts the wrong outcome "
        "(ran although over, or failed although under), out of the rows with a stated budget"
    )
    bad = budget[~budget["consistent"]] if len(budget) else budget
    ex = [
        f"TP {r.tp} batch {r.batch_size} ({r.tokens:,} tokens) {'ran' if r.ran else 'did not run'}"
        for r in bad.itertuples()
    ]
    c = _anomaly(
        "budget_refuted",
        rule,
        len(bad),
        len(budget),
        budget=int(budget["budget"].iloc[0]) if len(budget) else None,
        examples=ex,
    )
    if budget.empty and miss.empty:
        return c.withhold("the input states no max_batch_total_tokens, or has no batch size to test")
    if miss.empty:
        return c.withhold("every batch size ran, so there is no failure to explain")
    if budget.empty:
        return c.withhold("the input does not state max_batch_total_tokens")
    return c


def superlinear_jumps(jumps: pd.DataFrame, w: pd.DataFrame, threshold: float) -> Claim:
    """Prefill latency growing faster than the batch between consecutive batch sizes."""
    ev = {"threshold": threshold}
    if len(jumps):
        j = jumps.sort_values("growth_per_batch").iloc[-1]
        ev |= {
            "tp": int(j["tp"]),
            "from_bs": int(j["from_bs"]),
            "to_bs": int(j["to_bs"]),
            "from_ms": j["from_ms"],
            "to_ms": j["to_ms"],
            "growth_per_batch": j["growth_per_batch"],
            "line": int(j["line"]),
            "last_before_failure": atp.ran_last_before_failure(w, j["tp"], j["section"], int(j["to_bs"])),
        }
    return _anomaly(
        "superlinear_jumps",
        "anomaly: consecutive batch sizes where prefill latency grows more than `threshold` times faster than "
        "the batch, out of all consecutive steps",
        len(jumps),
        atp.n_batch_steps(w),
        empty="no configuration ran at two or more batch sizes",
        **ev,
    )


def decode_slower_steps(slower: pd.DataFrame, w: pd.DataFrame, tolerance: float) -> Claim:
    """Steps to the next larger TP that made decode slower by more than the tolerance."""
    return _anomaly(
        "decode_slower_steps",
        "anomaly: steps to the next larger TP where decode latency rose by more than `tolerance` and the "
        + NOISE
        + ", out of all steps",
        len(slower),
        atp.n_tp_steps(w),
        empty="no batch size was measured at two or more TPs",
        tolerance=tolerance,
        cases=[
            f"batch {r.batch_size}: TP {r.from_tp} to TP {r.to_tp} (+{r.slowdown:.0%})" for r in slower.itertuples()
        ],
    )


# ---------------------------------------------------------------------------------- quantization
def quantization_slowdown(qs: pd.DataFrame) -> Claim:
    """A quantized decode against its fp16 twin at the smallest batch."""
    rule = "comparison: quantized / fp16 decode latency per token at the same TP, prompt and batch; beyond the " + NOISE
    if qs.empty:
        ev = {"a": None, "b": None, "ratio": None, "noise": None}
        return make("quant_slowdown", "comparison", rule, ev).withhold(
            "the input has no quantized run with an fp16 twin"
        )
    q = qs.sort_values("batch_size").iloc[0]
    direction = np.sign(qs["slowdown"] - 1)
    ev = {
        "a": q["quantized_ms"],
        "b": q["fp16_ms"],
        "ratio": q["slowdown"],
        "noise": q["noise"],
        "quantize": str(q["quantize"]),
        "tp": int(q["tp"]),
        "batch_size": int(q["batch_size"]),
        "min_ratio": float(qs["slowdown"].min()),
        "max_ratio": float(qs["slowdown"].max()),
        "n_batches": len(qs),
        "every_batch": "slower" if (direction > 0).all() else "faster" if (direction < 0).all() else "mixed",
        "line": int(q["line"]),
    }
    return make("quant_slowdown", "comparison", rule, ev)


def quantization_bandwidth(
    qs: pd.DataFrame, params_b: float | None, active_params_b: float | None, device: dict
) -> Claim:
    """The quantized decode's weight-streaming bandwidth, counting the bytes per weight the
    launcher's --quantize value states."""
    rule = "fraction_of_peak: quantized weights (parameters x bytes per weight) / TP / decode time, over the peak"
    if qs.empty:
        return _withheld_fraction(
            "quant_bandwidth", rule, device, "GB/s", "the input has no quantized run with an fp16 twin"
        )
    q = qs.sort_values("batch_size").iloc[0]
    per_weight = (
        roofline.bytes_per_weight(atp.QUANT_PRECISION[str(q["quantize"])])
        if str(q["quantize"]) in atp.QUANT_PRECISION
        else None
    )
    if per_weight is None:
        return _withheld_fraction(
            "quant_bandwidth", rule, device, "GB/s", f"the bytes per weight of {q['quantize']} are not known here"
        )
    if params_b is None:
        return _withheld_fraction("quant_bandwidth", rule, device, "GB/s", "the model's parameter count is unknown")
    nbytes = params_b * 1e9 * per_weight / int(q["tp"])
    gbs = nbytes / (q["quantized_ms"] / 1000) / 1e9
    ev = {
        "fraction": gbs / device["bandwidth_gb_s"],
        "achieved": gbs,
        "peak": device["bandwidth_gb_s"],
        "unit": "GB/s",
        "device": device["device"],
        "peak_source": device["source"],
        **device.get("said", {}),
        "streaming": True,
        "bytes_per_token": nbytes,
        "bytes_per_weight": per_weight,
        "active_params_b": active_params_b,
        "quantize": str(q["quantize"]),
        "tp": int(q["tp"]),
        "batch_size": int(q["batch_size"]),
        "line": int(q["line"]),
    }
    return make("quant_bandwidth", "fraction_of_peak", rule, ev)


def all_claims(
    *,
    w: pd.DataFrame,
    w_all: pd.DataFrame,
    device: dict,
    params_b: float | None,
    active_params_b: float | None,
    why_no_params: str,
    tp_unknown: int,
    bound_threshold: float,
    jump_threshold: float,
    slowdown_tolerance: float,
    analysis: atp.Analysis,
    arch: dict | None = None,
) -> list[Claim]:
    """Every claim of the chapter, in page order, from the input's analyses (`analysis.tp.analyse`,
    computed once for the claims and the page)."""
    sc, turns, rp = analysis.scaling, analysis.turns, analysis.roofline
    per_batch = [decode_turn_at(t) for t in turns.to_dict("records")]
    ext = atp.roofline_extremes(rp)
    missing = why_no_params if not params_b else _why_no_row(w)
    no_seq = w[w["metric"].isin(atp.LATENCY_METRICS) & w["mean"].notna() & w["sequence_length"].isna()]
    unplaced = "the input does not state its prompt length (Sequence Length), which the FLOP and KV-cache counts need"
    missing_pre = unplaced if params_b and len(no_seq) and not (rp["metric"] == "prefill_latency").any() else missing
    missing_dec = (
        unplaced if params_b and len(no_seq) and not (rp["metric"] == "decode_token_latency").any() else missing
    )
    prefill_small = None
    if len(rp):
        pre = rp[rp["metric"] == "prefill_latency"]
        pre = pre[pre["batch_size"] == pre["batch_size"].min()].sort_values("tp")
        prefill_small = pre.iloc[0].to_dict() if len(pre) else None
    miss, qs = analysis.missing_all, analysis.quant
    fop = {"device": device, "active_params_b": active_params_b, "tp_unknown": tp_unknown, "why_missing": missing_dec}
    claims = [
        decode_speedup(sc),
        prefill_speedup_rises(sc),
        prefill_efficiency_falls(sc),
        superlinear_efficiency(sc),
        decode_turn(turns, per_batch, arch),
        *per_batch,
        fraction_of_peak("decode_bw_small_tp", ext["decode_small_tp"], compute=False, **fop),
        fraction_of_peak(
            "decode_bw_large_tp",
            ext["decode_large_tp"],
            compute=False,
            **(fop | {"why_missing": missing_dec if not params_b else "the input has fewer than two TPs"}),
        ),
        fraction_of_peak(
            "prefill_compute_best", ext["prefill_best"], compute=True, **(fop | {"why_missing": missing_pre})
        ),
        highest_fraction(
            ext,
            device,
            tp_unknown,
            rules.no_device_reason(device.get("said", {})) if len(rp) and device["device"] is None else missing_dec,
        ),
        bound("decode_bound", ext["decode_small_tp"], device, bound_threshold, missing_dec, tp_unknown),
        bound("prefill_bound", prefill_small, device, bound_threshold, missing_pre, tp_unknown),
        percentile_inversions(analysis.counts),
        p90_below_highest(analysis.counts),
        missing_batches(miss, w_all),
        budget_refuted(analysis.budget, miss),
        superlinear_jumps(analysis.jumps, w_all, jump_threshold),
        decode_slower_steps(analysis.slower, w, slowdown_tolerance),
        quantization_slowdown(qs),
        quantization_bandwidth(qs, params_b, active_params_b, device),
        latency_recommendation(w, "decode_token_latency"),
        latency_recommendation(w, "prefill_latency"),
        throughput_recommendation(analysis.throughput),
    ]
    return consistent_roofline(claims)


#: The claims that rest on the roofline's assumptions (device, TP, model size).
ROOFLINE_IDS = (
    "decode_bw_small_tp",
    "decode_bw_large_tp",
    "prefill_compute_best",
    "decode_bound",
    "prefill_bound",
    "quant_bandwidth",
)


def consistent_roofline(claims: list[Claim]) -> list[Claim]:
    """When any point of the run is beyond a peak (highest_fraction implausible), the assumptions
    behind every fraction of it are wrong: withhold the roofline claims that still look plausible."""
    top = next((c for c in claims if c.id == "highest_fraction"), None)
    if top is None or top.status != "implausible":
        return claims
    why = (
        f"another point of this run is at {top.evidence['fraction']:.0%} of a peak, so the device, TP or model "
        "size the roofline assumes is wrong and no fraction of it can be trusted"
    )
    return [c.withhold(why) if c.id in ROOFLINE_IDS and c.status == "shown" else c for c in claims]
