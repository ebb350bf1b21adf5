"""The batch_saturation claims: one function per verdict, from `analysis.batch` results."""

from __future__ import annotations

import math

import pandas as pd

from benchbook.analysis.batch import BYTES_PER_PARAM, CAP_TOLERANCE, NEW_TOKENS
from benchbook.claims import Claim, make

#: A knee needs this many measured batch sizes, and the curve must bend by this much (log-log
#: slope before the knee minus slope after it; 1 = a line of slope 1 turning flat).
MIN_POINTS = 4
MIN_BEND = 0.5
#: Latency counts as flat while every step and the whole drift stay within this relative change.
FLAT_TOLERANCE = 0.10


def _f(v) -> float | None:
    try:
        v = float(v)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def _int(v) -> int | None:
    f = _f(v)
    return int(f) if f is not None else None


def series_name(row: pd.Series) -> str:
    """How a claim names the series of a row of `analysis.batch` (`knee`, `step_roofline`): framework
    and dtype, the settings that also split it (`variant`), and the GPU only when the input sweeps that model, framework and dtype on several (a
    row without `named_gpu` names none)."""
    name = " ".join(x for x in (row["framework"], row["dtype"]) if x)
    variant = row.get("variant", "")
    name += f" (`{variant}`)" if isinstance(variant, str) and variant else ""  # claims are Markdown
    gpu = row.get("named_gpu", "")
    return f"{name} on {gpu}" if gpu else name


def knee(k: pd.Series | None) -> Claim:
    """The saturation batch of the reference series by the fraction-of-peak rule."""
    ev = dict(x=None, rule="fraction of peak", n_points=0, strength=None, min_points=MIN_POINTS, min_strength=MIN_BEND)
    if k is not None:
        ev.update(
            x=int(k["knee_batch_size"]),
            n_points=int(k["n_points"]),
            strength=_f(k["strength"]),
            fraction=_f(k["fraction"]),
            dtype=k["dtype"],
            framework=k["framework"],
            series=series_name(k),
            knee_tok_s=_f(k["knee_tok_s"]),
            peak_tok_s=_f(k["peak_tok_s"]),
            peak_batch_size=int(k["peak_batch_size"]),
            first_batch_size=int(k["first_batch_size"]),
            first_tok_s=_f(k["first_tok_s"]),
            gain=_f(k["peak_tok_s"] / k["first_tok_s"]),
        )
        if _f(k.get("knee_share")) is not None:  # the margin to the fraction, against the curve's wobble
            ev.update(knee_share=_f(k["knee_share"]), knee_noise=_f(k["noise"]) or 0.0, noise_from=k.get("noise_from"))
            ev.update(before_share=_f(k["before_share"]), before_batch_size=_int(k["before_batch_size"]))
    rule = (
        f"the knee is the smallest batch reaching the given fraction of peak throughput; it is stated with at "
        f"least {MIN_POINTS} measured batch sizes and a bend (log-log slope before minus after) of at least "
        f"{MIN_BEND}; its margin is its share of the peak / the fraction - 1, fragile when that margin or the "
        "best smaller batch's is inside the curve's noise (its largest fall between consecutive batch sizes; for a "
        "curve that never falls, the largest of any series in the input)"
    )
    return make("knee", "knee", rule, ev)


def _devices(row: pd.Series) -> int | None:
    """The GPUs a step's run spans where it states more than one (its roofs are their summed peaks)."""
    n = _f(row.get("devices"))
    return int(n) if n and n > 1 else None


def bound(regime: str, row: pd.Series | None, peaks, threshold: float, said: dict | None = None) -> Claim:
    """What limits one regime (`small`: the smallest batch; `large`: the batch of peak throughput):
    the fractions of the device's two peaks the step reaches, and its intensity against the ridge.
    `said`: what the input says of a device none was taken from (`analysis.roofline.said`)."""
    ev = dict(bandwidth_fraction=None, compute_fraction=None, intensity=None, ridge=None, threshold=threshold)
    ev.update(said or {})
    ev.update(regime=regime, device=getattr(peaks, "device", None), peak_source=getattr(peaks, "source", None))
    ev.update(no_point=row is None)
    if row is not None:
        ev.update(
            bandwidth_fraction=_f(row["bandwidth_fraction"]),
            compute_fraction=_f(row["compute_fraction"]),
            intensity=_f(row["intensity"]),
            ridge=_f(row["ridge"]),
            batch_size=int(row["batch_size"]),
            dtype=row["dtype"],
            series=series_name(row),
            step_ms=_f(row["step_s"] * 1000),
            weight_gb=_f(row["weight_bytes"] / 1e9),
            devices=_devices(row),
        )
    rule = (
        "memory-bandwidth when the step's weight traffic reaches the threshold fraction of peak bandwidth (left of "
        "the ridge); compute when its FLOP rate reaches the threshold fraction of peak compute right of the ridge; "
        "overhead when both fractions are under the threshold"
    )
    return make(f"bound_{regime}", "bound", rule, ev)


def bandwidth(
    row: pd.Series | None, peaks, params_b: float | None, params_source: str, said: dict | None = None
) -> Claim:
    """The fraction of peak bandwidth the smallest batch reaches by streaming the weights once per step."""
    ev = dict(fraction=None, peak=getattr(peaks, "total_bandwidth_gb_s", None), unit="GB/s", **(said or {}))
    ev.update(device=getattr(peaks, "device", None), peak_source=getattr(peaks, "source", None), streaming=True)
    ev.update(active_params_b=params_b, params_source=params_source, bytes_per_token=None, no_point=row is None)
    if row is not None:
        ev.update(
            fraction=_f(row["bandwidth_fraction"]),
            achieved=_f(row["achieved_gb_s"]),
            peak=_f(row.get("peak_gb_s")) if _f(row.get("peak_gb_s")) is not None else ev["peak"],
            devices=_devices(row),
            batch_size=int(row["batch_size"]),
            dtype=row["dtype"],
            series=series_name(row),
            bytes_per_token=_f(row["weight_bytes"] / row["batch_size"]),
            weight_gb=_f(row["weight_bytes"] / 1e9),
            step_ms=_f(row["step_s"] * 1000),
        )
    rule = (
        f"achieved = weight bytes per step / (latency / new tokens per sequence: {NEW_TOKENS} in the bigcode "
        "tool, --output-len in vllm bench latency); shown when at most 100 % of the peak"
    )
    return make("bandwidth_small", "fraction_of_peak", rule, ev)


def compute(row: pd.Series | None, peaks, said: dict | None = None) -> Claim:
    """The fraction of the dtype's peak compute reached at the batch of peak throughput."""
    ev = dict(fraction=None, peak=None, unit="TFLOP/s", **(said or {}))
    ev.update(device=getattr(peaks, "device", None), peak_source=getattr(peaks, "source", None))
    if row is not None:
        ev.update(
            fraction=_f(row["compute_fraction"]),
            peak=_f(row["peak_tflops"]),
            achieved=_f(row["achieved_tflops"]),
            devices=_devices(row),
            batch_size=int(row["batch_size"]),
            dtype=row["dtype"],
            series=series_name(row),
        )
    rule = "achieved = 2 x parameters x throughput; shown when at most 100 % of the dtype's dense peak"
    return make("compute_large", "fraction_of_peak", rule, ev)


def dtypes(pair, noise: float) -> Claim:
    """The wider dtype against the narrower at the same small batch: bandwidth-bound steps would run
    slower by about the ratio of their bytes per weight."""
    ev = dict(a=None, b=None, ratio=None, noise=noise)
    if pair is not None:
        wide, narrow = pair
        a, b = _f(wide["throughput_tok_s"]), _f(narrow["throughput_tok_s"])
        ev.update(
            a=a,
            b=b,
            ratio=a / b if a and b else None,
            wide=wide.name,
            narrow=narrow.name,
            framework=wide["framework"] or "the same framework",
            batch_size=int(wide["batch_size"]),
            bytes_ratio=BYTES_PER_PARAM[wide.name] / BYTES_PER_PARAM[narrow.name],
        )
    rule = "throughput ratio of the wider to the narrower dtype at the same batch; within the rounding noise: withheld"
    return make("dtypes_small", "comparison", rule, ev)


def knees_elsewhere(knees: pd.DataFrame) -> Claim:
    """The other series' saturation batches (`knee` speaks of the fastest one only) that the same rule
    states but whose margin, or the best smaller batch's, is inside the series' noise: the knee table
    marks them, and a sentence says so, so that no saturation batch a page shows reads as pinned when
    its curve's wobble could move it. Not applicable where no other series has a knee the rule states."""
    others = knees.drop(index=knees["peak_tok_s"].idxmax()) if len(knees) else knees
    stated = [c.evidence for c in (knee(row) for _, row in others.iterrows()) if c.status == "shown"]
    fragile = [
        {k: ev.get(k) for k in ("series", "x", "knee_share", "peak_tok_s", "peak_batch_size", "fraction")}
        | {
            "margin": ev.get("margin"),
            "before_margin": ev.get("before_margin"),
            "before_batch_size": ev.get("before_batch_size"),
            "knee_noise": ev.get("knee_noise"),
            "noise_from": ev.get("noise_from"),
        }
        for ev in stated
        if ev.get("fragile")
    ]
    ev = {"n": len(stated), "count": len(fragile), "series": fragile}
    if not stated:
        ev["applicable"] = False
    rule = (
        "every series but the fastest whose saturation batch the knee rule states, and of those the ones whose "
        "margin to the fraction of peak, or the best smaller batch's, is inside the series' noise (its largest "
        "fall between consecutive batch sizes)"
    )
    return make("knees_elsewhere", "anomaly", rule, ev)


def latency_flat(flat: pd.DataFrame, past: pd.DataFrame | None = None) -> Claim:
    """The leading batch sizes over which the latency of one generate() call (or one decode step, where
    the tool times the step) stays flat; `past`, the series' rows after them, are where it grows (their
    batch, mean latency and throughput per batch size, for an exercise that needs no device)."""
    xs = [int(x) for x in flat["batch_size"]] if flat is not None else []
    ys = [_f(y) for y in flat["latency_s"]] if flat is not None else []
    ev = dict(xs=xs, ys=ys, direction="flat", min_points=3, tolerance=FLAT_TOLERANCE)
    if past is not None and len(past) and "throughput_tok_s" in past:
        after = past.groupby("batch_size", sort=True)[["latency_s", "throughput_tok_s"]].mean().dropna()
        ev.update(
            past_xs=[int(x) for x in after.index],
            past_ys=[_f(y) for y in after["latency_s"]],
            past_tok_s=[_f(t) for t in after["throughput_tok_s"]],
        )
    # what the latency times: a generate() call, or one decode step the tool timed (`analysis.one_batch`)
    timed = flat["timed"].iat[0] if flat is not None and len(flat) and "timed" in flat else None
    ev["timed"] = timed if isinstance(timed, str) else "generate() call"
    if flat is not None and len(flat) and {"framework", "dtype"} <= set(flat.columns):
        ev["series"] = series_name(flat.iloc[0])  # which curve: an input may hold several (fp32 and bf16)
    if len(xs):
        ev.update(first=xs[0], last=xs[-1], low=min(ys), high=max(ys))
        if "throughput_tok_s" in flat:  # what a fixed step time predicts: throughput in proportion to the batch
            ev.update(
                first_tok_s=_f(flat["throughput_tok_s"].iloc[0]), last_tok_s=_f(flat["throughput_tok_s"].iloc[-1])
            )
    rule = f"latency flat: every step and the drift from the first batch within {FLAT_TOLERANCE:.0%}; needs 3 points"
    return make("latency_flat", "scaling", rule, ev)


def conflicts(conf: pd.DataFrame, n_configs: int) -> Claim:
    """Configurations printed twice with different values, left out of every figure and claim."""
    configs = conf.drop(columns=["metric", "values", "lines"]).drop_duplicates()
    ev = dict(count=len(configs), n=n_configs)
    if len(conf):
        ev["lines"] = sorted({int(x) for ls in conf["lines"] for x in ls})
    return make("conflicts", "anomaly", "a configuration printed more than once with different values", ev)


def speculative(runs: pd.DataFrame) -> Claim:
    """The runs that say they used speculative decoding (`analysis.batch.offline_runs`' `speculative`):
    a step then yields more than one token per request, so a token rate is not a step rate and the
    weights are read less than once per token."""
    spec = runs[runs["speculative"].notna()] if "speculative" in runs else runs.iloc[0:0]
    ev = dict(n=len(runs), count=len(spec))
    if len(spec):
        first = spec.iloc[0]
        ev.update(run=str(first["run"]), method=str(first["speculative"]), tokens_per_step=_f(first["tokens_per_step"]))
    rule = "a run whose output states a speculative-decoding method (or an acceptance length above 1) is named"
    c = make("speculative", "anomaly", rule, ev)
    return c.not_applicable("the input has no offline run") if runs.empty else c


def over_cap(checked: pd.DataFrame, tolerance: float = CAP_TOLERANCE) -> Claim:
    """Runs whose printed request rate and mean latency put more requests in flight on average
    (Little's law) than their concurrency cap allows (`analysis.batch.over_cap`): the figures cannot
    all hold, and the page says so rather than read the run as a normal saturated one."""
    bad = checked[checked["over"]] if len(checked) else checked
    ev = dict(n=len(checked), count=len(bad), tolerance=tolerance)
    if len(bad):
        r = bad.iloc[0]
        ev.update(
            run=str(r["run"]),
            rate=_f(r["request_rate"]),
            latency_s=_f(r["mean_latency_s"]),
            in_flight=_f(r["in_flight"]),
            cap=_f(r["concurrency"]),
            duration_s=_f(r["duration_s"]),
            implied=_f(r["implied_requests"]),
            sent=_f(r["requests_sent"]),
        )
    rule = (
        "Little's law: requests in flight on average = request rate x mean latency, at most the concurrency cap; "
        f"more than {tolerance:.0%} above it, the printed rate, latency and cap cannot all hold"
    )
    c = make("over_cap", "anomaly", rule, ev)
    return c.not_applicable("no run prints a concurrency cap with a rate and a mean latency") if checked.empty else c
