"""serving_saturation: figures, display tables, data descriptions and the sentences of its claims."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from benchbook.analysis import serving
from benchbook.claims import Claim, Ledger
from benchbook.presentation import wording
from benchbook.presentation.plotting import color, message_figure

SOURCE_WORDS = {
    "detected": "named in the input",
    "parameter": "given as a parameter",
    "assumed": "assumed: the input names no device the hardware table knows",
}
APART_WORDS = {"max_concurrency": "no concurrency cap", "request_rate": "infinite request rate"}

#: The runs' columns a page shows, in a reader's words with their units.
RUN_COLUMNS = {
    "run": "run",
    "max_concurrency": "max concurrency (requests)",
    "request_rate": "request rate (req/s)",
    "num_prompts": "prompts",
    "completed": "completed",
    "duration": "duration (s)",
    "request_throughput": "throughput (req/s)",
    "output_throughput": "output throughput (tok/s)",
    "ttft_mean": "mean TTFT (ms)",
    "tpot_mean": "mean TPOT (ms)",
    "itl_mean": "mean ITL (ms)",
}
#: Why a cell of a runs table is empty: a run with no concurrency cap prints none.
RUN_MISSING = {"max concurrency (requests)": "no cap", "request rate (req/s)": "not printed"}


def _short(text, n: int = 24) -> str:
    """A run label short enough for a legend."""
    text = str(text)
    return text if len(text) <= n else text[: n - 3] + "..."


def fmt_x(v, variable: str) -> str:
    return f"{v:g}" if v is not None and np.isfinite(v) else ("no cap" if variable == "max_concurrency" else "inf")


def with_repeat(t: pd.DataFrame, frame: pd.DataFrame) -> pd.DataFrame:
    """`t` (a table built row for row from `frame`) with a `repeat` column after `run` when some load
    ran more than once, so the repeats listed under one label can be told apart."""
    if frame.empty or serving.repeats(frame).max() < 2:
        return t
    n = frame.groupby(serving.load_key(frame), sort=False).cumcount() + 1
    t = t.reset_index(drop=True)
    t.insert(1, "repeat", n.to_numpy())
    return t


def runs_table(r: pd.DataFrame) -> pd.DataFrame:
    """The runs as the parser read them, with the columns this input has (an infinite request
    rate is the tool's: every request sent at once)."""
    return with_repeat(r[[c for c in RUN_COLUMNS if c in r]].rename(columns=RUN_COLUMNS), r)


def littles_table(lit: pd.DataFrame) -> pd.DataFrame:
    """Little's law per run (`serving.littles_law`): requests in flight against the cap, with a
    column marking estimated latencies when any is estimated."""
    t = lit.assign(utilisation=100 * lit["utilisation"])
    cols = {
        "run": "run",
        "nominal": "cap (requests; prompts when uncapped)",
        "request_throughput": "throughput (req/s)",
        "mean_e2el_s": "mean end-to-end latency (s)",
        "in_flight": "in flight (requests)",
        "utilisation": "in flight / cap (%)",
    }
    if t["estimated"].any():
        cols["estimated"] = "latency estimated from TTFT and TPOT"
    return with_repeat(t[list(cols)].rename(columns=cols), lit)


def goodput_bounds_table(gb: pd.DataFrame) -> pd.DataFrame:
    """Per run, the share of requests within both SLOs and the goodput it allows, lower and upper
    bound from the printed percentiles."""
    t = gb.assign(share_lo=100 * gb["share_lo"], share_hi=100 * gb["share_hi"])
    t = t[["run", "request_throughput", "share_lo", "share_hi", "goodput_lo", "goodput_hi"]].rename(
        columns={
            "request_throughput": "throughput (req/s)",
            "share_lo": "within both SLOs, at least (%)",
            "share_hi": "within both SLOs, at most (%)",
            "goodput_lo": "goodput, at least (req/s)",
            "goodput_hi": "goodput, at most (req/s)",
        }
    )
    return with_repeat(t, gb)


def exact_goodput_table(ex: pd.DataFrame) -> pd.DataFrame:
    """Per run, goodput counted from the per-request data (`serving.exact_goodput`)."""
    t = ex.assign(share=100 * ex["share"])
    return t[["run", "completed", "good", "share", "duration_s", "goodput"]].rename(
        columns={
            "completed": "completed requests",
            "good": "within both SLOs",
            "share": "within both SLOs (%)",
            "duration_s": "duration (s)",
            "goodput": "goodput (req/s)",
        }
    )


# --- claims' sentences ---------------------------------------------------------------------------

_BOUND = {
    "overhead": "at run {run} ({in_flight:.1f} requests in flight on average) the server reaches "
    "{bandwidth_fraction:.1%} of the {device}'s peak bandwidth and {compute_fraction:.2%} of its peak compute, both "
    "under the {threshold:.0%} threshold: neither roof limits it.",
    "memory-bandwidth": "at run {run} ({in_flight:.1f} requests in flight on average) reading the weights once per "
    "step takes {bandwidth_fraction:.0%} of the {device}'s peak bandwidth, left of the ridge ({intensity:.0f} vs "
    "{ridge:.0f} FLOP/byte): this load is bound by memory bandwidth.",
    "compute": "at run {run} ({in_flight:.1f} requests in flight on average) the server does {compute_fraction:.1%} "
    "of the {device}'s dense {precision} peak at {intensity:.0f} FLOP/byte, right of the ridge ({ridge:.0f}): this "
    "load is bound by compute ({prefill_share:.0%} of the tokens it processes are prompt tokens).",
}


def say_all(ledger: Ledger) -> None:
    for i, c in enumerate(ledger.claims):
        ledger.claims[i] = say(c)


def say(c: Claim) -> Claim:
    """The sentence of one serving_saturation claim."""
    ev = c.evidence
    if c.id == "knee":
        never = ev.get("x") is None and (ev.get("n_points") or 0) >= (ev.get("min_points") or 4)
        if ev.get("repeats"):
            return wording.say(
                c,
                "for {series}, on the means of up to {repeats} repeats per load, the elasticity is {el_first:.2f} on "
                "the first step and {el_last:.2f} on the last; it first falls below {threshold:g} by more than the "
                "repeats' spread after {variable} {x:g}, where the server gives {knee_tput:,.0f} output tok/s, "
                "{share:.0%} of its best load ({top_tput:,.0f} tok/s at {top_x:g}). Past that point, more load mostly "
                "buys latency.",
                topic="The knee",
                withheld=(
                    "for {series}, the elasticity falls below {threshold:g} after {variable} {in_noise:g} only within "
                    "the spread of the repeats, and never by more: no knee is stated."
                    if ev.get("in_noise") is not None
                    else "for {series}, the elasticity of the loads' means never falls below {threshold:g} (it is "
                    "{el_last:.2f} on the last step): the sweep did not reach saturation, so there is no knee to state."
                )
                if never
                else None,
            )
        return wording.say(
            c,
            "for {series}, the elasticity is {el_first:.2f} on the first step and {el_last:.2f} on the last; it first "
            "falls below {threshold:g} after {variable} {x:g}, where the server gives {knee_tput:,.0f} output tok/s, "
            "{share:.0%} of its best run ({top_tput:,.0f} tok/s at {top_x:g}). Past that point, more load mostly buys "
            "latency.",
            topic="The knee",
            withheld="for {series}, the elasticity never falls below {threshold:g} (it is {el_last:.2f} on the last "
            "step): the sweep did not reach saturation, so there is no knee to state."
            if never
            else None,
        )
    if c.id == "growth":
        mean = (
            "mean output throughput (over the repeats) rises at every step by more than their spread"
            if ev.get("repeats")
            else "output throughput rises at every step"
        )
        return wording.say(
            c,
            "for {series}, " + mean + ", from {first_y:,.0f} tok/s at {variable} {first_x:g} to {last_y:,.0f} at "
            "{last_x:g}.",
            topic="Throughput growth",
            withheld="Output throughput does not rise at every step of this sweep ({reason}).",
        )
    if c.id == "underfilled":
        est = " (E2EL estimated)" if ev.get("estimated") else ""
        return wording.say(
            c,
            "{count} of {n} capped runs averaged under {threshold:.0%} of their cap in flight; the lowest is run "
            "{run}: {in_flight:.0f} requests in flight on average for a cap of {cap:g} ({utilisation:.0%})"
            + est
            + ". A nominal concurrency is not the concurrency the server saw.",
            topic="Measured concurrency",
            withheld="No run in this input has a concurrency cap, so there is no nominal concurrency to compare with."
            if not ev.get("n")
            else "Every capped run averaged at least {threshold:.0%} of its cap in flight.",
        )
    if c.id == "uncapped":
        first = ""
        if ev.get("ran_first") and (ev.get("ratio") or 1) < 1:
            first = " It ran first in this input, possibly on a cold server; a rerun after the sweep would tell."
        if not ev.get("run"):
            withheld = "No run is kept apart from the curve, so there is nothing to compare."
        elif not ev.get("all_at_once"):
            withheld = (
                "The run kept apart (`{run}`) is off the sweep's axis but is not an all-at-once run (it has a "
                "concurrency cap or a finite request rate), so it is not compared with the curve."
            )
        elif ev.get("b") is None:
            withheld = "The run kept apart (`{run}`) is not compared with the curve: no run of its series is on it."
        else:
            withheld = "The run kept apart (`{run}`) is not compared with the curve: {reason}."
        return wording.say(
            c,
            "the all-at-once run (`{run}`: no cap, infinite rate) gives {a:,.0f} output tok/s, {ratio:.2f}x the best "
            + (
                "load of its series on the curve (a mean of {repeats} repeats: "
                if ev.get("repeats")
                else "run of its series on the curve ("
            )
            + "{b:,.0f} tok/s, run {best_run}). Its mean TTFT of {ttft_s:.1f} s is "
            "mostly queueing, not prefill speed." + first,
            topic="The run kept apart",
            withheld=withheld,
        )
    if c.id == "tpot_itl":
        return wording.say(
            c,
            "run {run} has a mean TPOT of {tpot:.0f} ms but a mean ITL of {itl:.0f} ms: TPOT is averaged per request, "
            "so a short request that stalled behind prefills counts as much as a long one, while ITL pools every "
            "streamed chunk.",
            topic="TPOT against ITL",
            withheld="No run's mean TPOT is far above its mean ITL.",
        )
    if c.id == "failed":
        some = "" if ev.get("n") == ev.get("runs") else " (of the {n} runs whose failures are known)"
        return wording.say(
            c,
            ("1 request" if ev.get("failed") == 1 else "{failed:,.0f} requests")
            + " failed beside the {completed:,.0f} that completed"
            + some
            + (
                " (the output prints no failure count, but it sent more prompts than it completed)"
                if ev.get("implied")
                else ""
            )
            + (
                ""
                if ev.get("runs") == 1
                else "; the worst is run {run}, where {run_failed:,.0f} of {run_sent:,.0f} failed"
            )
            + ". Latency percentiles describe the completed "
            "requests only, so the shares within the SLOs below are counted against every request sent.",
            topic="Failed requests",
            withheld=(
                ("{completed_all:,.0f} requests completed; " if ev.get("completed_all") is not None else "")
                + "this output prints no count of failed requests, so the page cannot tell whether any failed."
                if not ev.get("n")
                else "{completed:,.0f} requests completed and none failed" + some + "."
            ),
        )
    if c.id == "own_slos":
        if ev.get("run") and ev.get("ttft_limit") is None:
            return wording.say(
                c,
                "LoadGen calls this {scenario} run {result}; the input holds no Test Parameters section, so the "
                "scenario's own latency limits are not known here. It completed {rate:.2f} requests (samples) per "
                "second.",
                topic="The run's own verdict",
            )
        return wording.say(
            c,
            "the output states its own limits: {scenario} scenario, TTFT at most {ttft_limit:,.0f} ms and TPOT at "
            "most {tpot_limit:,.0f} ms at the 99th percentile, and LoadGen calls the run {result}. Its p99 TTFT is "
            "{ttft_p99:,.0f} ms and p99 TPOT {tpot_p99:,.1f} ms, so at least {share_lo:.0%} of its requests meet both "
            "limits; it completed {rate:.2f} requests (samples) per second against a target of {target:g}.",
            topic="The run's own limits",
            withheld="No run in this input states latency limits of its own.",
        )
    if c.id == "goodput":
        if ev.get("repeats"):
            return wording.say(
                c,
                "the best load under these SLOs is run {choice}: on the mean of its {repeats} repeats, at least "
                "{value:.1f} req/s (± {value_sd:.1f}; {share:.0%} of its {rate:.1f} req/s) meet both, against "
                "{runner_up_value:.1f} req/s for run {runner_up}, more than the repeats' spread ({noise:.1%}) apart.",
                topic="The best load under the SLOs",
            )
        return wording.say(
            c,
            "the best load under these SLOs is run {choice}: at least {value:.1f} req/s ({share:.0%} of its "
            "{rate:.1f} req/s) meet both, against {runner_up_value:.1f} req/s for run {runner_up}.",
            topic="The best load under the SLOs",
        )
    mean = "averaging this load's {repeats} repeats: " if ev.get("repeats") else ""
    if c.kind == "bound":
        which = "the lightest load" if ev.get("which") == "low" else "the best run"
        return wording.say(c, mean + _BOUND.get(ev.get("verdict"), "{verdict}"), topic=f"What limits {which}")
    if c.id == "bandwidth_low":
        return wording.say(
            c,
            mean
            + "at the lightest load (run {run}, {in_flight:.1f} requests in flight on average) reading {active_params_b:.1f} B "
            "active weights once per step"
            + (
                " (a step gives each request {tokens_per_step:.2f} tokens: speculative decoding)"
                if (ev.get("tokens_per_step") or 1) > 1
                else ""
            )
            + " moves {achieved:,.0f} GB/s: {fraction:.1%} of the {peak:,.0f} GB/s of the "
            "{device} (a lower bound: the KV cache is not counted).",
            topic="The bandwidth of the lightest load",
        )
    if c.id == "compute_best":
        return wording.say(
            c,
            mean
            + ("the best load" if ev.get("repeats") else "the best run")
            + " ({run}) does {achieved:,.0f} TFLOP/s (2 x active parameters per prompt or output token): "
            "{fraction:.1%} of the {device}'s dense {precision} peak of {peak:,.0f} TFLOP/s.",
            topic="The compute of the best run",
        )
    return wording.say(c, "{rule}", topic=c.id)


#: The percentile statistics a goodput bound reads.
PERCENTILE_STATS = tuple(serving.PERCENTILE_OF)


# --- descriptions of the data --------------------------------------------------------------------


def inputs_sentence(files: str, r: pd.DataFrame, variable: str, n_apart: int) -> str:
    models = ", ".join(sorted(r["model"].dropna().unique())) or "a model the output does not name"
    kept = ""
    if n_apart:
        kept = f"; {'one run' if n_apart == 1 else f'{n_apart} runs'} with {APART_WORDS[variable]} kept apart"
    runs = "one run" if len(r) == 1 else f"{len(r)} runs"
    levels = r.loc[~serving.apart(r, variable), variable].nunique()
    how = f"swept over {variable.replace('_', ' ')}" if levels > 1 else "at a single load level"
    return f"This page reads {files}: {runs} of {models}, {how}{kept}.{series_sentence(r, variable)}"


def series_sentence(r: pd.DataFrame, variable: str) -> str:
    """When the curve's runs form several series (models, deployments or datasets): which they are,
    and that the knee and growth sentences speak of the first; nothing for one series."""
    curve = r[~serving.apart(r, variable)]
    if curve.empty or "model" not in curve:
        return ""
    counts = serving.series_key(curve).value_counts(sort=False)
    if len(counts) < 2:
        return ""
    listed = wording.join([f"{name} ({n} run{'' if n == 1 else 's'})" for name, n in counts.items()])
    return (
        f" They form {len(counts)} series, each its own curve: {listed}; the knee and growth sentences below "
        f"are about the first."
    )


def repeats_sentence(r: pd.DataFrame) -> str:
    """How many repeats each load has, and how the page uses them; nothing when every load ran once."""
    n = serving.repeats(r)
    if n.empty or n.max() < 2:
        return ""
    how = f"{n.iat[0]} repeats per load" if n.nunique() == 1 else f"{n.min()} to {n.max()} repeats per load"
    return (
        f"{how}; error bars are ± one standard deviation. The curve joins the loads' means, the repeats are the "
        "faint points, and a step (for the knee and the growth) or a difference between loads (for the best load "
        "under the SLOs) within that spread is treated as noise."
    )


def curve_note(curve: pd.DataFrame, variable: str) -> str:
    """One sentence at the top of the curve's section: the repeats, or that there is no curve to speak of."""
    levels = curve[variable].nunique() if len(curve) else 0
    if levels >= 2:
        return repeats_sentence(curve)
    what = "no run on the curve" if levels == 0 else "a single load level on the curve"
    return f"**This input has {what}, so there is no saturation curve and no knee to find.**"


def assumed_rate_note(r: pd.DataFrame) -> str:
    assumed = r["rate_assumed"].astype(bool) if "rate_assumed" in r else pd.Series(False, index=r.index)
    mlperf = assumed & r["scenario"].notna() if "scenario" in r else assumed & False
    note = ""
    if mlperf.any():  # LoadGen schedules Server queries at target_qps, printed only under Test Parameters
        note = (
            "The MLPerf run's offered rate (`target_qps`) is in its Test Parameters section, which this input "
            "lacks; it is drawn apart from the curve, not read as an all-at-once run. "
        )
    n = int((assumed & ~mlperf).sum())
    if not n:
        return note.strip()
    who = "One run prints no request rate; it is" if n == 1 else f"{n} runs print no request rate; they are"
    return (
        f"{who} taken as unlimited, the default of vLLM's and SGLang's serving benchmarks (`--request-rate inf`) "
        "and what AIPerf's concurrency mode does: every request sent at once, or as fast as the concurrency cap allows."
    ).join([note, ""])


def device_sentence(
    peaks, model: str | None, total_b, active_b, size_source: str, bpw: float, assumed: bool, stated: str | None = None
) -> str:
    if peaks is None:
        return "No device is known, so no roofline is drawn."
    head = f"The roofline uses the {peaks.device} ({SOURCE_WORDS.get(peaks.source, peaks.source)})"
    if peaks.count > 1:
        head += f", {peaks.count} of them as the input says"
    head += f": {peaks.total_bandwidth_gb_s:,.0f} GB/s."
    if active_b is None:
        return head + f" The size of {model or 'the model'} is unknown, so the roofline claims are withheld."
    moe = f" ({active_b:.1f} B active of {total_b:.1f} B)" if total_b and active_b and total_b > active_b else ""
    weights = f"{bpw:g} byte(s) per weight" + (" (assumed bf16: the output does not say)" if assumed else "")
    weights += f" ({stated}, as the output states)" if stated and not assumed else ""
    where = "given as a parameter" if size_source == "parameter" else f"model table: {size_source}"
    return head + f" Model: {model}, {total_b:.1f} B parameters{moe} ({where}); {weights}."


def littles_note(lit: pd.DataFrame) -> str:
    """Where each run's mean E2EL comes from, naming the runs whose output prints none (those the
    parser looked for an E2EL statistic in and found none), never the whole input at once."""
    src = lit["e2el_from"] if "e2el_from" in lit else pd.Series(np.where(lit["estimated"], "estimated", "printed"))
    parts = []
    n_req = int((src == "requests").sum())
    if n_req:
        parts.append(
            f"For {'the one run' if n_req == len(lit) == 1 else f'{n_req} run(s)'} with per-request data "
            "(`--save-detailed`), mean E2EL is the mean of the successful requests' latencies."
        )
    est = lit[src == "estimated"]
    if len(est):
        who = "this output prints" if len(est) == len(lit) else f"{len(est)} of the {len(lit)} runs print"
        parts.append(
            f"{who[0].upper() + who[1:]} no E2EL statistic and no per-request latencies, so mean E2EL is estimated "
            "as mean TTFT + mean TPOT x (mean output tokens - 1); this ignores how TPOT and output length co-vary, "
            "so read it as an estimate."
        )
    if (src == "printed").any():
        parts.append("Mean E2EL is the value the tool printed" + (" where it printed one." if parts else "."))
    return " ".join(parts)


def apart_message(apart: pd.DataFrame, variable: str) -> str:
    """How the tool sends the runs kept apart (from their settings)."""
    if apart.empty:
        return f"This input has no run with {APART_WORDS[variable]}: every run is a point of the curve."
    if variable == "max_concurrency":
        return (
            "With no `--max-concurrency` the tool sends requests at the configured rate whatever is in flight (at "
            "`--request-rate inf`, all at t=0). The server queues what it cannot batch, and that wait is inside "
            "TTFT: the tool starts each request's clock when it sends it. With a cap, a request waits on the "
            "client's semaphore before it is sent, and that wait is in neither TTFT nor E2EL. These runs have no "
            "place on the concurrency axis, so they are listed here and drawn as horizontal lines."
        )
    return (
        "At `--request-rate inf` the tool sends every request at once (up to any concurrency cap). These runs have "
        "no place on the rate axis, so they are listed here and drawn as horizontal lines."
    )


def pareto_sentence(r: pd.DataFrame) -> str:
    pu = (1000 / r["tpot_mean"]).replace([np.inf, -np.inf], np.nan).dropna() if "tpot_mean" in r else pd.Series()
    if pu.empty:
        return "No run prints a mean TPOT, so per-user speed cannot be shown."
    if len(pu) == 1:
        return f"The one run with a mean TPOT gives each user {pu.iat[0]:.0f} tok/s."
    return f"Across the runs, per-user speed ranges from {pu.max():.0f} tok/s down to {pu.min():.0f} tok/s."


# --- figures -------------------------------------------------------------------------------------


def _label_points(ax, xs, ys, labels, **kw) -> None:
    """Annotate points, once per label within a tenth of a decade of the same label (runs of several
    series, or repeats, at one load)."""
    seen: dict[str, list[tuple[float, float]]] = {}
    for x, y, text in zip(xs, ys, labels, strict=True):
        if not (np.isfinite(x) and np.isfinite(y)) or x <= 0 or y <= 0:
            continue
        at = (np.log10(x), np.log10(y))
        if any(abs(at[0] - a) < 0.1 and abs(at[1] - b) < 0.1 for a, b in seen.get(text, [])):
            continue
        seen.setdefault(text, []).append(at)
        ax.annotate(text, (x, y), textcoords="offset points", **kw)


def plot_saturation(curve: pd.DataFrame, apart: pd.DataFrame, variable: str, knee_x=None):
    """Output (and total) token throughput against the sweep variable (log2 x), one line per
    series; the runs kept apart as horizontal lines, never as points of the curve."""
    if curve.empty and apart.empty:
        return message_figure("no run with a throughput")
    fig, ax = plt.subplots(figsize=(9, 4.5))
    d = curve.assign(series=serving.series_key(curve)).sort_values(variable)
    lv = serving.per_load(d).sort_values(variable) if len(d) else d.assign(n=1)
    repeated = len(lv) and lv["n"].max() > 1
    for i, (name, g) in enumerate(lv.groupby("series", sort=False)):
        for m, style, j, what in (
            ("output_throughput", "o-", 2 * i, "output"),
            ("total_token_throughput", "s--", 2 * i + 1, "total"),
        ):
            if m not in g or g[m].isna().all():
                continue
            if not repeated:
                ax.plot(g[variable], g[m], style, color=color(j), label=f"{what} tok/s, {name}")
                continue
            ax.errorbar(
                g[variable],
                g[m],
                yerr=g[f"{m}_sd"].fillna(0),
                fmt=style,
                color=color(j),
                capsize=3,
                label=f"{what} tok/s, {name} (mean ± 1 sd)",
            )
            each = d[d["series"] == name]
            ax.plot(
                each[variable], each[m], style[0], color=color(j), alpha=0.3, ms=4, label=f"{what} tok/s, each repeat"
            )
    for j, (_, u) in enumerate(apart.iterrows()):
        ax.axhline(
            u["output_throughput"],
            color="grey",
            ls=[":", "-.", "--"][j % 3],
            lw=1.2,
            label=f"kept apart: run {_short(u['run'])} ({APART_WORDS[variable]}), output tok/s",
        )
    if knee_x is not None:
        ax.axvline(knee_x, color="black", ls=":", lw=1, label=f"knee at {knee_x:g}")
    if len(d):
        ax.set_xscale("log", base=2)
        xs = sorted(d[variable].unique())
        ax.set_xticks(xs, [fmt_x(v, variable) for v in xs])
    ax.set_ylim(bottom=0)
    ax.set_xlabel("max concurrency (requests)" if variable == "max_concurrency" else "request rate (req/s)")
    ax.set_ylabel("throughput (tok/s)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig


def plot_latency_tradeoff(r: pd.DataFrame, variable: str):
    """Throughput (x) against TTFT, TPOT and ITL (y, log), one panel per metric, points labelled with
    the sweep value ("no cap"/"inf" for the runs kept apart); mean, median and p99 where printed."""
    d = r.sort_values("order")
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.8), sharex=True, layout="constrained")
    for ax, m in zip(axes, ["ttft", "tpot", "itl"], strict=True):
        for i, stat in enumerate(["mean", "median", "p99"]):
            c = f"{m}_{stat}"
            if c in d and d[c].notna().any():
                ax.plot(d["output_throughput"], d[c], "o", color=color(i), label=stat, ms=4)
        labels = [fmt_x(v, variable) for v in d["x"]]
        _label_points(ax, d["output_throughput"], d[f"{m}_mean"], labels, fontsize=7, xytext=(3, 3))
        shown = d[[f"{m}_{s}" for s in ("mean", "median", "p99") if f"{m}_{s}" in d]]
        if (shown > 0).any().any():  # a log axis needs a positive value (SGLang prints a median ITL of 0)
            ax.set_yscale("log")
        ax.xaxis.set_major_locator(MaxNLocator(nbins=3))
        ax.set_xlim(left=0)
        ax.tick_params(axis="x", labelrotation=30)
        ax.set_title(m.upper())
        ax.set_xlabel("output tok/s")
        ax.set_ylabel(f"{m.upper()} (ms)")
    if axes[0].get_legend_handles_labels()[1]:  # no TTFT printed (trtllm-bench's plain overview): no legend
        axes[0].legend(fontsize=8)
    return fig


def plot_pareto(r: pd.DataFrame, variable: str):
    """Per-user decode speed (1000 / mean TPOT, tok/s) against whole-server output throughput, the
    Pareto front joined."""
    d = r.assign(per_user=1000 / r["tpot_mean"]).dropna(subset=["per_user", "output_throughput"])
    if d.empty:
        return message_figure("no run prints a mean TPOT")
    front = serving.pareto_front(d["per_user"], d["output_throughput"])
    fig, ax = plt.subplots()
    ax.scatter(d["output_throughput"], d["per_user"], color=color(0), zorder=3, label="run")
    f = d[front].sort_values("output_throughput")
    ax.plot(f["output_throughput"], f["per_user"], "-", color=color(3), label="Pareto front")
    labels = [fmt_x(v, variable) for v in d["x"]]
    _label_points(ax, d["output_throughput"], d["per_user"], labels, fontsize=8, xytext=(4, 4))
    ax.set_xlabel("output throughput, whole server (tok/s)")
    ax.set_ylabel("per-user speed, 1000 / TPOT (tok/s)")
    ax.legend(fontsize=8)
    return fig


def plot_roofline(rl: pd.DataFrame, peaks, variable: str):
    """Each run as a step at its measured concurrency on the device's roofline."""
    d = rl.dropna(subset=["intensity", "achieved_tflops"]) if "intensity" in rl else rl.iloc[0:0]
    d = d[(d["intensity"] > 0) & (d["achieved_tflops"] > 0)]
    if peaks is None or d.empty:
        return message_figure("no roofline:\nmodel size, device or\nconcurrency unknown")
    peak = float(d["peak_tflops"].iloc[0])
    bw = peaks.total_bandwidth_gb_s
    lo, hi = min(1.0, d["intensity"].min() / 2), max(d["intensity"].max() * 4, 2 * peak * 1e12 / (bw * 1e9))
    x = np.logspace(np.log10(lo), np.log10(hi), 200)
    fig, ax = plt.subplots(figsize=(9, 4.5))
    ax.plot(
        x,
        np.minimum(peak, bw * 1e9 * x / 1e12),
        color="black",
        lw=1.5,
        label=f"roof: {d['precision'].iloc[0]} {peak:,.0f} TFLOP/s, {bw:,.0f} GB/s",
    )
    on = d[np.isfinite(d["x"])]
    off = d[~np.isfinite(d["x"])]
    ax.plot(on["intensity"], on["achieved_tflops"], "o", color=color(0), label="runs on the curve")
    if len(off):
        ax.plot(off["intensity"], off["achieved_tflops"], "*", ms=10, color=color(3), label="runs kept apart")
    labels = [fmt_x(v, variable) for v in d["x"]]
    _label_points(ax, d["intensity"], d["achieved_tflops"], labels, fontsize=7, xytext=(4, -10))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("intensity at the measured concurrency, weights only (FLOP/byte)")
    ax.set_ylabel("achieved compute (TFLOP/s)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0), title=f"{peaks.device} ({peaks.source})")
    fig.tight_layout()
    return fig


def figures_sentence(lit: pd.DataFrame, gb: pd.DataFrame, most: int = 3) -> str:
    """The basic figures of each run, for an input of at most `most` runs (a sweep's are in its
    tables): rates, Little's-law concurrency and the goodput bounds, each only where the output
    gives what it needs."""
    if not 0 < len(lit) <= most:
        return ""
    out = []
    method, per_step = serving.tokens_per_step(lit)
    for (i, row), (_, g) in zip(lit.iterrows(), gb.iterrows(), strict=True):
        parts = []
        if pd.notna(row.get("completed")):
            parts.append(f"{row['completed']:,.0f} requests completed")
        if pd.notna(row.get("request_throughput")):
            parts.append(f"{row['request_throughput']:,.2f} req/s")
        if pd.notna(row.get("output_throughput")):
            parts.append(f"{row['output_throughput']:,.1f} tok/s of output")
        if pd.notna(row.get("in_flight")):
            est = ", E2EL estimated from TTFT and TPOT" if row.get("estimated") else ""
            parts.append(f"{row['in_flight']:,.1f} requests in flight on average (Little's law{est})")
        has_pct = any(pd.notna(row.get(f"{m}_{s}")) for m in ("ttft", "tpot") for s in PERCENTILE_STATS)
        if has_pct and pd.notna(g.get("share_lo")):
            lo, hi = 100 * g["share_lo"], 100 * g["share_hi"]
            parts.append(
                f"between {lo:.0f}% and {hi:.0f}% of its requests within both SLOs"
                if hi > lo
                else f"{lo:.0f}% of its requests within both SLOs"
            )
        if isinstance(method[i], str):
            acc = per_step[i]
            named = "" if method[i] == "speculative decoding" else f" ({method[i]})"
            parts.append(
                f"speculative decoding{named}: "
                + (
                    f"{acc:.2f} tokens per step per request (the acceptance length)"
                    if acc == acc
                    else "no acceptance length printed"
                )
            )
        if parts:
            out.append(f"Run `{row['run']}`: " + "; ".join(parts) + ".")
    return " ".join(out)
