"""The serving_saturation claims: one function per verdict, from `analysis.serving` results."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from benchbook.analysis import roofline, serving
from benchbook.claims import Claim, make
from benchbook.claims.rules import margin

#: A knee needs this many load levels on the curve, and the curve must bend by this much there
#: (log-log slope before the knee minus slope after it).
MIN_POINTS = 4
MIN_BEND = 0.25
#: One run per load level and no spread printed: differences under this share are called noise.
RUN_NOISE = serving.RUN_NOISE
#: A capped run whose mean requests in flight stay under this share of its cap never reached it.
UNDERFILLED = 0.8
#: A capped run whose Little's-law count exceeds its cap by more than the noise (RUN_NOISE): no server
#: holds more requests than the client lets in, so the printed rate and latency cannot both hold.
OVERFILLED = 1 + serving.RUN_NOISE
#: Mean TPOT this many times mean ITL: the two average different things (see the chapter).
TPOT_OVER_ITL = 1.5


#: Why a figure that needs the weights' bytes or the peak at their precision is withheld.
NO_PRECISION = "the output does not state the weights' precision, and none is assumed"
#: Why no bytes per weight are taken for a precision that mixes widths (`int4 experts, fp8 rest`).
MIXED_PRECISION = "the weights are in {}, whose shares per token the input does not give, and none is assumed"
#: Why no peak is taken for a precision that mixes widths: no one precision is the peak's.
MIXED_WIDTHS = "the weights are in {}, a mix of widths, and no one of them is assumed"
#: Why no bytes per weight are taken where the runs' own names give different precisions.
PER_RUN_PRECISION = "the runs' own names give their weights different precisions, and none is every run's"


def _f(v) -> float | None:
    try:
        v = float(v)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def knee(kn: pd.DataFrame, threshold: float, variable: str, n_levels: int = 0, queue: dict | None = None) -> Claim:
    """The knee of the first series by the elasticity rule (`n_levels`: the curve's load levels,
    for an input too short for `knees` to return a series); with `queue` (`serving.queue_limits`),
    the knee Little's law predicts, N* = mu x W0, and the requests the knee's load held in flight."""
    ev = dict(x=None, rule="elasticity", n_points=n_levels, strength=None, min_points=MIN_POINTS)
    ev["min_strength"] = MIN_BEND
    ev.update(threshold=threshold, variable=variable.replace("_", " "))
    if len(kn):
        k = kn.iloc[0]
        ev.update(
            x=_f(k["knee"]),
            n_points=int(k["n"]),
            strength=_f(k["strength"]),
            series=k["series"],
            knee_tput=_f(k["knee_tput"]),
            top_tput=_f(k["top_tput"]),
            top_x=_f(k["top_x"]),
            share=_f(k["knee_tput"] / k["top_tput"]) if _f(k["knee_tput"]) else None,
            el_first=_f(k["el_first"]),
            el_last=_f(k["el_last"]),
        )
        if k.get("repeats", 1) > 1:  # the repeats' spread is the noise of each step
            ev.update(repeats=int(k["repeats"]), noise=_f(k["noise"]), in_noise=_f(k["in_noise"]))
        el, el_noise = _f(k.get("knee_el")), _f(k.get("knee_el_noise"))
        if el is not None and threshold:  # how far the knee step's elasticity is under the threshold
            ev.update(knee_el=el, knee_noise=_f(el_noise / abs(threshold)) if el_noise is not None else None)
            ev.update(margin(el, threshold, ev["knee_noise"]))
    if queue:
        ev.update(w0_s=queue["w0_s"], w0_run=queue["w0_run"], mu=queue["mu"], mu_run=queue["mu_run"])
        ev["predicted_in_flight"] = queue["knee_in_flight"]
        at = [(n, r) for x, n, r in zip(queue["x"], queue["in_flight"], queue["rate"], strict=True) if x == ev["x"]]
        ev["knee_in_flight"], ev["knee_rate"] = at[0] if len(at) == 1 else (None, None)
    rule = (
        f"the knee is the start of the first step whose relative throughput gain over relative load gain falls "
        f"below the threshold; stated with at least {MIN_POINTS} load levels and a bend (log-log slope before minus "
        f"after) of at least {MIN_BEND}"
    )
    if ev.get("repeats"):
        rule += (
            "; with repeats, on the loads' means, and a step must fall short of the threshold by more than its noise"
        )
    spread = "the spread of its loads' repeats" if ev.get("repeats") else f"{RUN_NOISE:.0%} of each run's throughput"
    rule += (
        f"; its margin is the knee step's elasticity / the threshold - 1, fragile inside that step's noise ({spread}) "
        "over the threshold"
    )
    return make("knee", "knee", rule, ev)


def growth(curve: pd.DataFrame, variable: str, runs: pd.DataFrame | None = None) -> Claim:
    """Output throughput rises at every step of the curve of the first series (the loads' means;
    with repeats, a step must rise by more than the largest step noise, sqrt(sd0^2 + sd1^2) / y0;
    with one run per load, by more than RUN_NOISE). A curve of one load states its output throughput
    (`measured_y`, `rules.MEASURED`): what a page with no verdict answers with; a curve that decides no trend, the
    highest throughput a run measured (`best_y`, over `runs`: every run, those kept apart from the curve too)."""
    lv = serving.per_load(curve) if len(curve) else curve.assign(n=1)
    d = lv[lv["series"] == lv["series"].iloc[0]].sort_values(variable) if len(lv) else lv
    xs, ys = [_f(x) for x in d[variable]], [_f(y) for y in d["output_throughput"]]
    ev = dict(xs=xs, ys=ys, direction="rises", min_points=3, tolerance=0.0, variable=variable.replace("_", " "))
    ev["noise"] = RUN_NOISE  # one run per load: a step under RUN_NOISE is not a step
    if xs:
        ev.update(first_x=xs[0], last_x=xs[-1], first_y=ys[0], last_y=ys[-1], series=d["series"].iloc[0])
    if len(xs) == 1 and lv["series"].nunique() == 1 and ys[0] is not None:
        ev["measured_y"] = ys[0]  # one load: no trend, but the figure it measured is the page's answer
        # a rate the tool marks inferred (`serving.runs`' `output_inferred`) is said as the tool's inference
        ev["inferred"] = bool("output_inferred" in curve and curve["output_inferred"].fillna(False).astype(bool).any())
    else:
        ev.update(_best_measured(curve if runs is None else runs))
    if len(d) and d["n"].max() > 1:
        sd, y = d["output_throughput_sd"].fillna(0).to_numpy(), d["output_throughput"].to_numpy()
        noise = np.hypot(sd[:-1], sd[1:]) / y[:-1]
        ev.update(repeats=int(d["n"].max()), tolerance=_f(noise.max()) if len(noise) else 0.0, noise=None)
    rule = "output throughput higher at every step of the load, each step beyond the noise"
    return make("growth", "scaling", rule, ev)


#: The throughputs a run may have measured, in the order a page's answer takes them: output tokens a second, else
#: the one an authors' table names neither output nor total (`Throughput (tok/s)`), said as it names it.
MEASURED_THROUGHPUT = ("output_throughput", "throughput")


def _best_measured(curve: pd.DataFrame) -> dict:
    """The highest throughput any run of the curve measured (`best_y`), its run and series, and whether the
    table names it neither output nor total (`best_named`): several loads or series decide no trend with too
    few points, but what they measured is the page's answer (`rules.MEASURED`). Empty where none measured one."""
    for col in MEASURED_THROUGHPUT:
        y = pd.to_numeric(curve[col], errors="coerce") if col in curve else None
        if y is not None and y.notna().any():
            series = serving.series_key(curve) if "model" in curve else pd.Series("", index=curve.index)
            at = y.idxmax()
            return dict(
                best_y=_f(y.max()),
                best_run=str(curve.loc[at, "run"]),
                best_series=str(series[at]) if series.nunique() > 1 else None,
                best_named=col != "output_throughput",
            )
    return {}


#: A latency statistic column of a run (`ttft_mean`, `e2el_p75`, `itl_max`): the figure of completed requests.
LATENCY_STAT = re.compile(r"(?:ttft|tpot|itl|e2el)_(?:mean|median|min|max|std|p\d+(?:\.\d+)?)")


def underfilled(lit: pd.DataFrame, cap_said: dict | None = None) -> Claim:
    """Capped runs whose measured concurrency (Little's law) stayed well under their cap. `cap_said`
    (`analysis.serving.cap_said`): what the input says of a cap where no run has one, so that "no run has a
    cap" is said only where it is absent, and a cap stated or spoken of elsewhere is named by its line."""
    capped = lit[lit["max_concurrency"].notna() & lit["in_flight"].notna()]
    if "cap_share" not in capped:  # the share of the cap itself (`littles_law` gives it)
        capped = capped.assign(cap_share=capped["in_flight"] / capped["max_concurrency"])
    low = capped[capped["utilisation"] < UNDERFILLED]
    ev = dict(count=len(low), n=len(capped), threshold=UNDERFILLED)
    ev["bound"] = int(capped["prompts_below_cap"].sum()) if "prompts_below_cap" in capped else 0
    if not lit["max_concurrency"].notna().any():
        ev.update(cap_said or {"cap_status": "absent"})
    # capped runs with nothing in flight to measure: every request failed, or the output format records
    # no request throughput (InferenceX's per-GPU results): a cap, not its absence
    blind = lit["max_concurrency"].notna() & lit["in_flight"].isna()
    # a run whose format declares no request throughput but has one (an authors' `Req/s` column) has a rate
    lam = pd.to_numeric(lit["request_throughput"], errors="coerce") if "request_throughput" in lit else None
    no_rate = ~serving.recorded(lit, "request_throughput") & (lam.isna() if lam is not None else True)
    silent = lit["no_output"].fillna(False).astype(bool) if "no_output" in lit else False
    ev["silent"] = int((blind & ~no_rate & silent).sum())  # completed, but not one token: no latency
    # completed requests but no mean latency (neither an E2EL nor a TTFT and TPOT to estimate it from):
    # the latency is what is missing, never the requests
    done = pd.to_numeric(lit["completed"], errors="coerce").fillna(0) > 0 if "completed" in lit else False
    done = done | ~serving.recorded(lit, "completed")  # a count the format does not record is not zero
    # a latency statistic is one of completed requests: a run that prints one completed some, however
    # its count row was lost (a paste cut above it)
    stats = [c for c in lit.columns if LATENCY_STAT.fullmatch(str(c))]
    done = done | (lit[stats].apply(pd.to_numeric, errors="coerce").notna().any(axis=1) if stats else False)
    # a mean latency read but no request rate (the paste cut before its throughput lines): the rate is
    # what Little's law lacks, never the requests or their latency
    timed = lit["mean_e2el_s"].notna() if "mean_e2el_s" in lit else pd.Series(False, index=lit.index)
    rateless = blind & ~no_rate & ~silent & timed & (lam.isna() if lam is not None else True)
    ev["no_rate_read"] = int(rateless.sum())
    ev["unmeasured"] = int((blind & ~no_rate & ~silent & ~done & ~rateless).sum())
    ev["no_latency"] = int((blind & ~no_rate & ~silent & done & ~rateless).sum())
    ev["no_throughput"] = int((blind & no_rate).sum())
    if "max_concurrency_recorded" in lit:  # runs whose output format records no cap: no absence to claim
        ev["unrecorded"] = int((lit["max_concurrency"].isna() & ~lit["max_concurrency_recorded"].astype(bool)).sum())
    # above the cap itself (not the prompts: a run over its prompts is `over_requests`, said on its own)
    above = capped[capped["cap_share"] > OVERFILLED]
    # an estimated E2EL (TTFT + TPOT x output tokens, blind to how they co-vary) that puts more in
    # flight than the cap lets in overstates the latency: said of the estimate, not of the run's figures
    guessed = above["estimated"].fillna(False).astype(bool) if "estimated" in above else pd.Series(False, above.index)
    over = above[~guessed]
    ev["over"], ev["est_over"] = len(over), int(guessed.sum())
    if guessed.any():
        e = above[guessed].loc[above.loc[guessed, "cap_share"].idxmax()]
        ev.update(est_run=str(e["run"]), est_in_flight=_f(e["in_flight"]), est_cap=_f(e["max_concurrency"]))
    if len(over):  # the worst: its rate x latency, and rate x duration against the requests sent
        o = over.loc[over["cap_share"].idxmax()]
        ev.update(
            over_run=str(o["run"]),
            over_tool=o.get("tool"),
            over_in_flight=_f(o["in_flight"]),
            over_cap=_f(o["max_concurrency"]),
            over_rate=_f(o["request_throughput"]),
            over_latency_s=_f(o["mean_e2el_s"]),
            over_duration_s=_f(o.get("duration")),
            over_sent=_f(o.get("num_prompts")),
        )
        if ev["over_duration_s"] and ev["over_rate"]:
            ev["over_counted"] = ev["over_rate"] * ev["over_duration_s"]
    ev.update(_near_line(capped["run"], capped["utilisation"]))
    if len(low):
        w = low.loc[low["utilisation"].idxmin()]
        ev.update(
            run=str(w["run"]),
            in_flight=_f(w["in_flight"]),
            cap=_f(w["max_concurrency"]),
            prompts=_f(w["prompts_sent"]) if bool(w.get("prompts_below_cap")) else None,
            utilisation=_f(w["utilisation"]),
            estimated=bool(w["estimated"]),
            rate=_f(w.get("request_rate_used")),
            latency_s=_f(w.get("mean_e2el_s")),
        )
    rule = (
        f"mean in flight (request throughput x mean E2EL) under {UNDERFILLED:.0%} of the most the run could hold "
        f"(its concurrency cap, or its prompts where fewer: n prompts never hold more than n in flight); above "
        f"{OVERFILLED:.0%} of it (`over`), the printed rate and latency cannot both hold for a run held at that cap; "
        f"the count is fragile when a run's utilisation / {UNDERFILLED:.0%} - 1 is inside a run's noise "
        f"({RUN_NOISE:.0%}), and then says the range it could take"
    )
    return make("underfilled", "anomaly", rule, ev)


def _near_line(runs: pd.Series, utilisation: pd.Series) -> dict:
    """The runs whose utilisation sits within a run's noise of the UNDERFILLED line (the margin rule):
    how many there are, the one nearest the line with its margin, and the range the count could take
    (`low_count`: every near run above the line; `high_count`: every near run under it)."""
    margins = [margin(u, UNDERFILLED, RUN_NOISE) for u in utilisation]
    near = [i for i, m in enumerate(margins) if m.get("fragile")]
    if not near:
        return {"near": 0, "fragile": False, "noise": RUN_NOISE}
    i = min(near, key=lambda j: abs(margins[j]["margin"]))
    under = sum(1 for j in near if margins[j]["margin"] < 0)
    below = int((utilisation < UNDERFILLED).sum())
    return dict(
        near=len(near),
        near_run=str(runs.iloc[i]),
        near_utilisation=_f(utilisation.iloc[i]),
        margin=margins[i]["margin"],
        fragile=True,
        noise=RUN_NOISE,
        low_count=below - under,
        high_count=below - under + len(near),
    )


def uncapped(apart: pd.DataFrame, curve: pd.DataFrame, first_order: int | None, unnamed_said=()) -> Claim:
    """The first all-at-once run kept apart (infinite rate, no cap) against the best run of its own
    series on the curve (output throughput); `unnamed_said`, what the input says of a model for runs
    that name none beside named ones (`analysis.serving.unnamed_said`, the absence rule)."""
    ev = dict(a=None, b=None, ratio=None, noise=RUN_NOISE)
    # an infinite rate, not an unknown one (an output that records no rate)
    # and no cap, where its format records one (GuideLLM 0.1 prints none, though one bounds every mode)
    recorded = apart["max_concurrency_recorded"].astype(bool) if "max_concurrency_recorded" in apart else True
    burst = apart[np.isinf(apart["request_rate"].astype(float)) & apart["max_concurrency"].isna() & recorded]
    if len(apart):
        u = (burst if len(burst) else apart).iloc[0]
        ev.update(run=str(u["run"]), all_at_once=bool(len(burst)), rate=_f(u["request_rate"]))
        ev["refuted"] = bool(u.get("at_once_refuted", False))  # no rate printed, and all at once ruled out
        if not len(burst) and not (u.get("max_concurrency_recorded", True) and u.get("request_rate_recorded", True)):
            ev["unrecorded"] = True  # its output does not record the cap or the rate: no all-at-once claim either way
            # which of the two is unknown: a rate its label states (GuideLLM's `asynchronous@0.85 req/sec`) is read
            ev["cap_unknown"] = bool(pd.isna(u["max_concurrency"]) and not u.get("max_concurrency_recorded", True))
            ev["rate_unknown"] = bool(pd.isna(u["request_rate"]))
            ev["rate_assumed"] = bool(u.get("rate_assumed", False))  # no rate printed: the tool's default taken
        # the series labelled over all the runs at once: a setting (tp=2) that varies only between the curve and
        # the run kept apart would be dropped from a label made of either side alone, joining two deployments
        keys = serving.series_key(pd.concat([curve, apart.loc[[u.name]]], ignore_index=True))
        same = curve[keys.iloc[: len(curve)].to_numpy() == keys.iloc[-1]] if len(curve) else curve
        # an unnamed run beside named ones: another unnamed run may be any other model (five models under
        # their own headings), so "its series" is not known
        if pd.isna(u.get("model")) and "model" in curve and curve["model"].notna().any():
            ev["unnamed"], same = True, same.iloc[0:0]
            ev["unnamed_said"] = [list(t) for t in unnamed_said]
        if len(burst) and len(same) and same["output_throughput"].notna().any():
            lv = serving.per_load(same, ["output_throughput"])  # repeats: the best load's mean, its spread the noise
            best = lv.loc[lv["output_throughput"].idxmax()]
            a, b = _f(u["output_throughput"]), _f(best["output_throughput"])
            if lv["n"].max() > 1 and b:
                ev.update(repeats=int(best["n"]), noise=_f(np.nan_to_num(best["output_throughput_sd"]) / b))
            ev.update(
                a=a,
                b=b,
                ratio=a / b if a is not None and b else None,
                best_run=str(best["run"]),
                ttft_s=_f(u.get("ttft_mean", np.nan) / 1000),
                ran_first=bool(first_order is not None and u["order"] == first_order),
            )
    rule = (
        "output throughput of the first all-at-once run (infinite rate, no cap) over the best run of its series on "
        "the curve; within the noise: withheld"
    )
    if ev.get("repeats"):
        rule += " (with repeats: the best load's mean, the noise its standard deviation over that mean)"
    return make("uncapped", "comparison", rule, ev)


def tpot_itl(r: pd.DataFrame) -> Claim:
    """Runs whose mean TPOT is far above their mean ITL (two averages of different things), and runs
    whose output was not streamed token by token (`serving.unstreamed`: ITL about 0, TTFT about
    E2EL), whose TPOT and ITL are not per-token latencies at all: both are anomalies a reader must
    know before quoting either figure; a run not streamed is never read as the first kind."""
    ok = r[r["tpot_mean"].notna() & r["itl_mean"].notna()] if {"tpot_mean", "itl_mean"} <= set(r) else r.iloc[0:0]
    flat = serving.unstreamed(ok)
    far = ok[~flat & (ok["tpot_mean"] > TPOT_OVER_ITL * ok["itl_mean"])]
    one = ok[flat]
    burst = r[serving.bursty(r)] if len(r) else r
    # the other way round: chunks of several tokens each (speculative decoding, a stream interval), so
    # the gap between chunks is several tokens' time
    bunched = ok[~flat & (ok["itl_mean"] > TPOT_OVER_ITL * ok["tpot_mean"])]
    bunched = bunched[~serving.bursty(bunched)] if len(bunched) else bunched
    # a mean ITL far over the mean TPOT whose medians are not: a few long gaps, not chunks of several tokens
    gaps = bunched[serving.gapped(bunched, TPOT_OVER_ITL)] if len(bunched) else bunched
    bunched = bunched.drop(index=gaps.index)
    # a printed peak of output tokens per second below the run's own mean: the tool's peak counts streamed
    # chunks (one per token timestamp), so chunks of several tokens make it a peak of chunks, not of tokens
    low = serving.peak_output_below_mean(r)
    ev = dict(
        count=len(far) + len(one) + len(burst) + len(bunched) + len(gaps) + len(low),
        # a run flagged for its peak is checked though it prints no TPOT and ITL to compare (a copy cut first)
        n=len(ok) + int((~low["run"].isin(ok["run"].astype(str))).sum()) if len(low) else len(ok),
        factor=TPOT_OVER_ITL,
        unstreamed=len(one),
    )
    ev["peak_low"] = len(low)
    if len(low):
        p = low.iloc[0]
        ev.update(
            peak_run=str(p["run"]),
            peak_value=_f(p["peak"]),
            peak_mean=_f(p["mean"]),
            peak_least=_f(p["least"]),
            peak_tokens=_f(p["tokens"]),
            peak_buckets=_f(p["buckets"]),
            peak_line=int(p["line"]) if pd.notna(p["line"]) else None,
            peak_per_chunk=_f(p["per_chunk"]),
            peak_several=bool(pd.notna(p["per_chunk"]) and p["per_chunk"] > serving.SEVERAL_TOKENS),
            peak_per_step=_f(p["per_step"]) if pd.notna(p["per_step"]) else None,
            peak_cut=bool(p["cut"]),
        )
    ev["bunched"] = len(bunched)
    ev["gapped"] = len(gaps)
    if len(gaps):
        g = gaps.loc[(gaps["itl_mean"] / gaps["tpot_mean"]).idxmax()]
        p99 = _f(g.get("itl_p99"))
        ev.update(
            gap_run=str(g["run"]),
            gap_itl=_f(g["itl_mean"]),
            gap_tpot=_f(g["tpot_mean"]),
            gap_itl_median=_f(g["itl_median"]),
            gap_tpot_median=_f(g["tpot_median"]),
            gap_itl_p99=p99 if p99 is not None and p99 < g["itl_mean"] else None,  # the mean over its own p99
        )
    if len(bunched):
        g = bunched.loc[(bunched["itl_mean"] / bunched["tpot_mean"]).idxmax()]
        method, per_step = serving.tokens_per_step(bunched.loc[[g.name]])
        ev.update(bunch_run=str(g["run"]), bunch_itl=_f(g["itl_mean"]), bunch_tpot=_f(g["tpot_mean"]))
        ev["bunch_per_step"] = _f(per_step.iat[0]) if per_step.iat[0] > 1 else None
        ev["bunch_method"] = method.iat[0] if isinstance(method.iat[0], str) else None
        ev["bunch_cut"] = bool(pd.notna(g.get("copy_ends")))  # its copy ends first: the length may follow
    ev["bursty"] = len(burst)
    if len(burst):
        b = burst.iloc[0]
        ev.update(burst_run=str(b["run"]), burst_median=_f(b["itl_median"]), burst_mean=_f(b["itl_mean"]))
    ev.update(itl_at_most=serving.UNSTREAMED_ITL_MS, ttft_share=serving.UNSTREAMED_TTFT_SHARE)
    ev["silent"] = int(r["no_output"].fillna(False).astype(bool).sum()) if "no_output" in r else 0
    ev["no_text"] = int(r["no_text"].fillna(False).astype(bool).sum()) if "no_text" in r else 0
    printed = r["latency_printed"].fillna(False).astype(bool) if "latency_printed" in r else pd.Series(True, r.index)
    ev["silent_printed"] = int((r["no_output"].fillna(False).astype(bool) & printed).sum()) if "no_output" in r else 0
    ev["uncounted"] = int(r["uncounted"].fillna(False).astype(bool).sum()) if "uncounted" in r else 0
    cut = serving.cut_of(r.drop(index=ok.index), "tpot")  # a run lacking TPOT because its copy ends first
    ev.update(cut_run=cut[0] if cut else None, cut_line=cut[1] if cut else None)
    if len(far):
        w = far.loc[(far["tpot_mean"] / far["itl_mean"]).idxmax()]
        ev.update(run=str(w["run"]), tpot=_f(w["tpot_mean"]), itl=_f(w["itl_mean"]))
    if len(one):
        u = one.iloc[0]
        ev.update(
            flat_run=str(u["run"]),
            flat_itl=_f(u["itl_mean"]),
            flat_tpot=_f(u["tpot_mean"]),
            flat_ttft=_f(u["ttft_mean"]),
            flat_e2el=_f(u["e2el_mean"]),
        )
    rule = (
        f"mean TPOT above {TPOT_OVER_ITL}x mean ITL in a streamed run; or not streamed: mean ITL at most "
        f"{serving.UNSTREAMED_ITL_MS:g} ms with mean TTFT at least {serving.UNSTREAMED_TTFT_SHARE:.0%} of mean E2EL; "
        f"or sent in bursts: median ITL at most {serving.UNSTREAMED_ITL_MS:g} ms, mean above twice that; "
        "or vLLM's printed Peak output token throughput below its output tokens / (ceil(duration) + 1), the least a "
        "per-second count of them could reach (the tool counts one per streamed chunk)"
    )
    return make("tpot_itl", "anomaly", rule, ev)


def slo_margin(row: pd.Series, slo_ttft_ms: float, slo_tpot_ms: float) -> dict:
    """The margin of a load's goodput bound to its SLOs: of the percentiles under an SLO that set the
    bound (each metric's highest), the one nearest its SLO, as value / SLO - 1 (-0.01: 1 % under it).
    Empty when no printed percentile is under an SLO."""
    near = None
    for metric, slo in (("ttft", slo_ttft_ms), ("tpot", slo_tpot_ms)):
        under = [
            (q, _f(row.get(f"{metric}_{stat}")))
            for stat, q in serving.PERCENTILE_OF.items()
            if _f(row.get(f"{metric}_{stat}")) is not None and _f(row.get(f"{metric}_{stat}")) <= slo
        ]
        if under and slo:
            q, v = max(under)
            m = v / slo - 1
            if near is None or abs(m) < abs(near["margin"]):
                near = {"margin": m, "slo_percentile": f"p{q:g} {metric.upper()}", "slo_value": v, "slo": slo}
    return near or {}


def goodput(gb: pd.DataFrame, slo_ttft_ms: float | None = None, slo_tpot_ms: float | None = None) -> Claim:
    """The load with the most requests proven to meet both SLOs (the goodput lower bound): one run
    per load, with `RUN_NOISE` as the noise; with repeats, the loads' means, and the spread of the
    two best loads, sqrt(sd_best^2 + sd_runner_up^2) / runner-up, as the noise. With the SLOs, the
    choice states the margin of its deciding percentile to its SLO, `fragile` inside RUN_NOISE. Runs of
    several series (`serving.series_key`) are no sweep of one load: no choice across them, `series` says how
    many, and `per_series` holds the same choice within each series that sweeps a load."""
    ev = dict(choice=None, metric="goodput lower bound (req/s)", value=None, runner_up=None, runner_up_value=None)
    ev["noise"] = RUN_NOISE
    lv = serving.per_load(gb, ["goodput_lo", "share_lo", "request_throughput"]) if len(gb) else gb
    g = lv[lv["goodput_lo"] > 0].sort_values("goodput_lo", ascending=False)
    ev["options"] = len(lv)  # the loads measured, a provable goodput or not
    n_series = lv["series"].nunique() if "series" in lv else 1
    if n_series > 1:  # a best load is one load of one sweep: never chosen across deployments or workloads
        ev["series"] = int(n_series)
        # a series that sweeps a load: two loads or more; several runs at one load are configurations
        swept = [s for s in lv["series"].unique() if len(lv[lv["series"] == s]) > 1]
        swept = [s for s in swept if not serving.one_load(lv[lv["series"] == s])]
        ev["per_series"] = [_best_in(s, lv[lv["series"] == s]) for s in swept]
        g = g.iloc[:0]
    elif serving.one_load(lv):  # runs at one load that differ in their configuration: compared at that load
        ev["configurations"] = len(lv)
    if len(g):
        b = g.iloc[0]
        ev.update(
            choice=str(b["run"]), value=_f(b["goodput_lo"]), share=_f(b["share_lo"]), rate=_f(b["request_throughput"])
        )
        if len(g) > 1:
            ev.update(runner_up=str(g.iloc[1]["run"]), runner_up_value=_f(g.iloc[1]["goodput_lo"]))
        if slo_ttft_ms is not None and slo_tpot_ms is not None:
            if b.get("slo_whose") == "output":  # judged against the limits its output states
                slo_ttft_ms, slo_tpot_ms = b["slo_ttft_ms"], b["slo_tpot_ms"]
                ev["slo_whose"] = "output"
            m = slo_margin(b, slo_ttft_ms, slo_tpot_ms)
            if m:  # the rule's margin, so that `benchbook claims check` re-derives it from the evidence
                ev.update(m, slo_noise=RUN_NOISE, **margin(m["slo_value"], m["slo"], RUN_NOISE))
        if lv["n"].max() > 1:
            sd = g["goodput_lo_sd"].fillna(0).iloc[:2].to_numpy()
            ev.update(repeats=int(b["n"]), value_sd=_f(sd[0]))
            if len(g) > 1:
                ev["noise"] = _f(np.hypot(*sd) / g.iloc[1]["goodput_lo"])
    rule = (
        "the run with the highest proven goodput within one series, when it beats the runner-up by more than the noise"
    )
    if ev.get("configurations"):
        rule = "runs at one load (the same cap and rate) are configurations: the one with the highest proven goodput at that load, when it beats the runner-up by more than the noise"
    if ev.get("repeats"):
        rule = "the load with the highest mean proven goodput over its repeats, when it beats the runner-up by more than the noise (their spread)"
    return make("goodput", "recommendation", rule, ev)


def _best_in(series: str, lv: pd.DataFrame) -> dict:
    """The recommendation's evidence within one series' loads (`serving.per_load` rows): its best
    proven goodput and runner-up, the noise one run's (`RUN_NOISE`) or the two best loads' spread."""
    g = lv[lv["goodput_lo"] > 0].sort_values("goodput_lo", ascending=False)
    ev = dict(series=str(series), options=len(lv), choice=None, value=None, runner_up=None, runner_up_value=None)
    ev["noise"] = RUN_NOISE
    if len(g):
        b = g.iloc[0]
        ev.update(choice=str(b["run"]), value=_f(b["goodput_lo"]), share=_f(b["share_lo"]))
        ev["rate"] = _f(b["request_throughput"])
    if len(g) > 1:
        ev.update(runner_up=str(g.iloc[1]["run"]), runner_up_value=_f(g.iloc[1]["goodput_lo"]))
        if lv["n"].max() > 1:
            sd = g["goodput_lo_sd"].fillna(0).iloc[:2].to_numpy()
            ev["noise"] = _f(np.hypot(*sd) / g.iloc[1]["goodput_lo"])
    return ev


def _repeats(ev: dict, row: pd.Series) -> None:
    """A load's row from `serving.per_load` with repeats: the evidence says how many runs it averages."""
    if row.get("n", 1) > 1:
        ev["repeats"] = int(row["n"])


def bound(
    which: str,
    row: pd.Series | None,
    peaks,
    threshold: float,
    assumed_bytes: bool,
    said: dict | None = None,
    configurations: int = 0,
) -> Claim:
    """What limits one run (`low`: the lightest load on the curve; `best`: its highest throughput).
    `said`: what the input says of a device none was taken from (`analysis.roofline.said`); `configurations`:
    how many runs share the one load of the curve (0: several loads), where `low` is no lightest load."""
    ev = dict(bandwidth_fraction=None, compute_fraction=None, intensity=None, ridge=None, threshold=threshold)
    if configurations:
        ev["configurations"] = configurations
    ev.update(said or {})
    ev.update(which=which, device=getattr(peaks, "device", None), peak_source=getattr(peaks, "source", None))
    ev["count"] = getattr(peaks, "count", 1)  # devices whose peaks are summed: a sentence names them all
    ev["bytes_assumed"] = assumed_bytes
    # the noise the deciding fraction is judged in (`rules.bound_margin`), and the ridge below which no
    # device is compute-bound (a verdict that needs no device: `rules.bound_verdict`)
    ev.update(noise=RUN_NOISE, lowest_ridge=roofline.lowest_ridge()[0], lowest_ridge_device=roofline.lowest_ridge()[1])
    if row is not None:
        _repeats(ev, row)
        sd, tput = _f(row.get("output_throughput_sd")), _f(row.get("output_throughput"))
        if ev.get("repeats") and sd is not None and tput:  # repeats: their spread over the mean
            ev["noise"] = sd / tput
        ev.update(
            run=str(row["run"]),
            bandwidth_fraction=_f(row.get("bandwidth_fraction")),
            compute_fraction=_f(row.get("compute_fraction")),
            intensity=_f(row.get("intensity")),
            ridge=_f(row.get("ridge")),
            in_flight=_f(row.get("in_flight")),
            precision=row.get("precision"),
            prefill_share=_f(1 - row["output_throughput"] / row["total_token_throughput"])
            if _f(row.get("total_token_throughput"))
            else None,
        )
    rule = (
        "memory-bandwidth when weight traffic at the measured concurrency reaches the threshold fraction of peak "
        "bandwidth (left of the ridge); compute when the FLOP rate reaches the threshold fraction of peak compute "
        "right of the ridge; overhead when both are under it; with no known device, an intensity below the lowest "
        "ridge of any device in the hardware table is not compute-bound; fragile when the deciding fraction is "
        f"within the noise ({RUN_NOISE:.0%} for one run per load, the repeats' spread over their mean) of the "
        "threshold"
    )
    return make(f"bound_{which}", "bound", rule, ev)


def bandwidth(
    row: pd.Series | None,
    peaks,
    active_b: float | None,
    bytes_per_weight: float,
    said: dict | None = None,
    models: int = 1,
    served: tuple | None = None,
    per_run: bool = False,
    precision: str | None = None,
    configurations: int = 0,
) -> Claim:
    """The fraction of peak bandwidth the lightest load reaches by reading the weights once per step
    (`models`: how many models the runs are of; the roofline sizes one; `served`: the checkpoint and its
    line beside a served name of no known size, `analysis.serving.served_checkpoint`; `per_run`: the runs'
    own names give different precisions, `analysis.serving.run_precisions`; `precision`: the weights'
    precision where it is known and its bytes per weight are not, a mix such as SGLang's W4AFp8;
    `configurations`: how many runs share the one load, `analysis.serving.one_load`, where none is lighter
    than another and the row is only the first of them)."""
    ev = dict(fraction=None, peak=getattr(peaks, "total_bandwidth_gb_s", None), unit="GB/s", streaming=True)
    ev.update(models=models, checkpoint=list(served) if served else None, configurations=configurations)
    ev.update(said or {})
    ev.update(device=getattr(peaks, "device", None), peak_source=getattr(peaks, "source", None))
    ev.update(count=getattr(peaks, "count", 1), active_params_b=active_b, bytes_per_token=None)
    if row is not None:  # the bytes per token are the weights over the requests in flight: say which is missing
        ev.update(in_flight=_f(row.get("in_flight")))
    if row is not None and _f(row.get("in_flight")):
        _repeats(ev, row)
        ev.update(
            fraction=_f(row.get("bandwidth_fraction")),
            achieved=_f(row.get("achieved_gb_s")),
            run=str(row["run"]),
            in_flight=_f(row["in_flight"]),
            bytes_per_token=_f(active_b * 1e9 * bytes_per_weight / row["in_flight"]) if active_b else None,
        )
    if row is not None:
        ev.update(speculative=row.get("speculative") if isinstance(row.get("speculative"), str) else None)
        ev.update(tokens_per_step=_f(row.get("tokens_per_step")))
        ev.update(_chunks(row, ev))
    rule = (
        "achieved = active weight bytes x steps per second, a step = (output tok/s / mean requests in flight) / "
        "tokens each request gains per step (1, or the acceptance length under speculative decoding); shown up to "
        "100 % of the peak"
    )
    c = make("bandwidth_low", "fraction_of_peak", rule, ev)
    if row is not None and _f(bytes_per_weight) is None:
        why = PER_RUN_PRECISION if per_run else MIXED_PRECISION.format(precision) if precision else NO_PRECISION
        return c.withhold(why + ", so the bytes read per step, and their share of the peak, are unknown")
    if ev.get("speculative") and ev.get("tokens_per_step") is None:
        return c.withhold(
            f"the run uses speculative decoding{_method(ev['speculative'])}, so a step can yield more than one token per "
            f"request, and {'this copy holds' if pd.notna(row.get('copy_ends')) else 'the output prints'} no "
            "acceptance length: the steps per second, and the weight traffic, are unknown"
        )
    return c


def _method(name: str) -> str:
    """A speculative method named after the words 'speculative decoding', unless it is those words."""
    return "" if name == "speculative decoding" else f" ({name})"


def _chunks(row: pd.Series, ev: dict) -> dict:
    """Where a run states no speculative decoding (one token per step taken) but its streamed chunks
    carry several tokens each (mean ITL over TPOT_OVER_ITL x mean TPOT, streamed, not in bursts: the
    `tpot_itl` anomaly), the tokens per chunk and the weight traffic if each chunk were one step: the
    output does not say whether a stream interval (one token per step) or speculative decoding (a
    chunk per step) made them, so the figure at one token per step is no lower bound then."""
    itl, tpot, achieved = _f(row.get("itl_mean")), _f(row.get("tpot_mean")), ev.get("achieved")
    if ev.get("tokens_per_step") != 1.0 or not (itl and tpot and itl > TPOT_OVER_ITL * tpot):
        return {}
    one = pd.DataFrame([row])
    if serving.unstreamed(one).iat[0] or serving.bursty(one).iat[0] or serving.gapped(one, TPOT_OVER_ITL).iat[0]:
        return {}
    return {"chunk_tokens": itl / tpot, "achieved_per_chunk": achieved * tpot / itl if achieved else None}


def compute(
    row: pd.Series | None, peaks, said: dict | None = None, configurations: int = 0, precision: str | None = None
) -> Claim:
    """The fraction of peak compute the best run reaches (2 x active parameters per token processed);
    `configurations`: how many runs share the one load of the curve (0: several loads), where the fastest is the
    fastest configuration at that load, no best load; `precision`: a mix of widths the file states for the
    weights (`int4 experts, fp8 rest`), which has no one dense peak (the run's own precision is then none)."""
    ev = dict(fraction=None, peak=None, unit="TFLOP/s", **(said or {}))
    if configurations:
        ev["configurations"] = configurations
    ev.update(device=getattr(peaks, "device", None), peak_source=getattr(peaks, "source", None))
    ev.update(count=getattr(peaks, "count", 1))
    if row is not None:
        _repeats(ev, row)
        ev.update(
            fraction=_f(row.get("compute_fraction")),
            peak=_f(row.get("peak_tflops")),
            achieved=_f(row.get("achieved_tflops")),
            run=str(row["run"]),
            precision=row.get("precision"),
        )
    rule = "achieved = 2 x active parameters x total token throughput; shown up to 100 % of the dense peak"
    c = make("compute_best", "fraction_of_peak", rule, ev)
    if row is not None and ev["achieved"] is not None and not isinstance(ev["precision"], str):
        why = MIXED_WIDTHS.format(precision) if precision else NO_PRECISION
        return c.withhold(why + ", so there is no dense peak at that precision to set its compute against")
    return c


#: The lowest success rate (%) that prints as 100.00 % at two decimals: a run printing it lost fewer than 0.005 %.
SUCCESS_ALL = 99.995


def failed(r: pd.DataFrame, sent_said: dict | None = None) -> Claim:
    """Requests that failed, from the runs whose output counts them (vLLM's `Failed requests`, the
    JSON's `failed`): a run whose output has no such count is not one where none failed. `sent_said`
    (`analysis.serving.fact_said` of the prompts sent): where no run's failures are known, a line that
    speaks of the requests sent in words the reader does not take (`in 1000 requests`) is named."""
    known = r[r["failed"].notna()] if "failed" in r else r.iloc[0:0]
    bad = known[known["failed"] > 0]
    ev = dict(count=len(bad), n=len(known), runs=len(r), threshold=0)
    done = r["completed"].dropna()  # every run table has the column (`analysis.serving.COLUMNS`)
    ev["completed_all"] = _f(done.sum()) if len(done) else None
    ev.update(completed=_f(known["completed"].sum()) if len(known) else None, failed=_f(known["failed"].sum()))
    # counts the output does not print but its prompts give (sent - completed): said as such
    ev["implied"] = bool(known["failed_implied"].any()) if "failed_implied" in known else False
    if len(bad):
        w = bad.loc[(bad["failed"] / (bad["failed"] + bad["completed"].fillna(0))).idxmax()]
        ev.update(
            run=str(w["run"]), run_failed=_f(w["failed"]), run_sent=_f(w["failed"] + np.nan_to_num(w["completed"]))
        )
    # runs where every request failed: nothing was measured (said once, by this claim)
    ev["lost"] = [f"`{x}`" for x in bad.loc[bad["completed"].fillna(0).eq(0), "run"]]  # a label may say `inf`
    # GuideLLM counts two kinds apart: errored (the request failed) and incomplete (still running when
    # the benchmark's window closed, cut off): a page keeps them apart, never calls the cut-off failed
    split = {"errored", "incomplete"} <= set(known) and known[["errored", "incomplete"]].notna().all(axis=None)
    if split and len(known):
        ev.update(errored=_f(known["errored"].sum()), incomplete=_f(known["incomplete"].sum()))
        if len(bad):
            ev.update(run_errored=_f(w["errored"]), run_incomplete=_f(w["incomplete"]))
    # MLPerf LoadGen writes its summary only after every sample it issued has completed, so it counts no
    # failed request; its last line counts the errors it logged (loadgen/logging.cc), said with its line
    # (a copy cut before that line still counts no failed request; its errors are then not known)
    logged = r["errors_logged"].dropna() if "errors_logged" in r else r.iloc[0:0]
    loadgen = len(logged) == len(r) or ("scenario" in r and bool(r["scenario"].notna().all()))
    if len(r) and not len(known) and loadgen:
        lines = r["errors_line"].dropna() if "errors_line" in r else r.iloc[0:0]
        files = r["loadgen_file"].dropna().unique() if "loadgen_file" in r else []
        ev.update(
            loadgen=True,
            loadgen_file=str(files[0]) if len(files) == 1 else None,
            loadgen_errors=_f(logged.sum()) if len(logged) == len(r) else None,
            loadgen_errors_line=_f(lines.iloc[0]) if len(r) == 1 and len(lines) else None,
        )
        if 0 < len(logged) < len(r):  # some summaries copied down to their errors line, the others cut before it
            said = r.loc[logged.index]
            ev.update(
                loadgen_partial=_f(logged.sum()),
                loadgen_partial_runs=[str(x) for x in said["run"]],
                loadgen_partial_lines=[_f(x) for x in said["errors_line"]],
                loadgen_cut_runs=len(r) - len(logged),
            )
    # GuideLLM's 0.5+ console prints no request counts but the token totals of completed, incomplete
    # and errored requests (its Run Summary, console.py): a request adds its prompt tokens to the
    # incomplete total only if it was cut off, so a non-zero total there is at least one such request
    cut = [c for c in ("incomplete_input_tokens", "incomplete_output_tokens") if c in r]
    if len(r) and not len(known) and cut and bool(r[cut].fillna(0).gt(0).any(axis=None)):
        errored = [c for c in ("errored_input_tokens", "errored_output_tokens") if c in r]
        lines = r["line"].dropna() if "line" in r else r.iloc[0:0]
        ev.update(
            cut_runs=int(r[cut].fillna(0).gt(0).any(axis=1).sum()),
            cut_input_tokens=_f(r[cut[0]].sum()) if cut[0] == "incomplete_input_tokens" else None,
            cut_output_tokens=_f(r["incomplete_output_tokens"].sum()) if "incomplete_output_tokens" in r else None,
            errored_tokens=_f(r[errored].sum().sum()) if errored else None,
            cut_line=_f(lines.iloc[0]) if len(r) == 1 and len(lines) else None,
        )
    # a success rate (successes / (successes + failures)) printed without a count of requests: 100.00 % (to
    # 0.01 %) gives fewer than 0.005 % failed, not none; under it, some failed, how many is not printed
    rated = r["success_rate"].dropna() if "success_rate" in r else r.iloc[0:0]
    if len(r) and not len(known) and len(rated):
        low = rated[rated < SUCCESS_ALL]
        ev.update(rated=len(rated), rated_low=len(low))
        if len(low):
            ev.update(rated_min=_f(low.min()), rated_run=str(r.loc[low.idxmin(), "run"]))
    elif len(r) and not len(known) and (sent_said or {}).get("sent_status") == "unread":
        ev.update({k: v for k, v in sent_said.items() if k != "sent_status"}, sent_unread=True)
        ev["sent_flag"] = serving.prompts_flag(r)
    rule = "requests the output counts as failed (GuideLLM: errored and incomplete, told apart), in the runs whose output counts them"
    return make("failed", "anomaly", rule, ev)


def own_slos(own: pd.DataFrame, applies: bool = True) -> Claim:
    """The run judged against the latency limits its own output states (MLPerf LoadGen's Test
    Parameters: TTFT and TPOT, or a sample latency), beside LoadGen's own verdict. LoadGen checks
    them in the Server scenario only, at its Server percentile (`serving.SERVER_PERCENTILE`), so
    another scenario's limits are stated and said not to apply (`checked`). Where no limit is read,
    the page says why by where it looked: the Test Parameters section's line (`parameters_line`)
    when there is one, else that the input holds none. Not applicable (`applies` False,
    `serving.own_limits_possible`) where no run's format can state such limits."""
    ev = dict(count=len(own), n=len(own), threshold=0)
    if len(own):
        w = own.iloc[0]
        ev.update(
            run=str(w["run"]),
            scenario=w.get("scenario"),
            result=w.get("result"),
            checked=bool(w.get("checked", w.get("scenario") == "Server")),
            percentile=serving.SERVER_PERCENTILE,
            parameters_line=_f(w.get("parameters_line")),
            latency_limit=_f(w.get("latency_limit_ms")),
            ttft_limit=_f(w.get("ttft_limit_ms")),
            tpot_limit=_f(w.get("tpot_limit_ms")),
            e2el_p99=_f(w.get("e2el_p99")),
            ttft_p99=_f(w.get("ttft_p99")),
            tpot_p99=_f(w.get("tpot_p99")),
            share_lo=_f(w["share_lo"]),
            share_hi=_f(w["share_hi"]),
            rate=_f(w["request_throughput"]),
            target=_f(w.get("target_qps")),
            samples_per_query=_f(w.get("samples_per_query")) if w.get("scenario") == "MultiStream" else None,
        )
        # a SingleStream or MultiStream run is judged on a percentile of its query latency (its result
        # line, loadgen/test_settings.h), the latency Additional Stats prints at that percentile
        p = _f(w.get("result_percentile"))
        if p is not None:
            ev.update(result_percentile=p, result_latency=_f(w.get(f"e2el_p{p:g}")))
    rule = (
        "the percentiles the output prints against the limits it states for its own scenario (union bound); "
        "LoadGen checks them in the Server scenario only"
    )
    c = make("own_slos", "anomaly", rule, ev)
    if not applies and not len(own):
        return c.not_applicable(
            "no run's output format states latency limits of its own (an MLPerf LoadGen summary does)"
        )
    return c
