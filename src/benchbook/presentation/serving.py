"""serving_saturation: figures, display tables and descriptions of the data (its claims' sentences
are in notebooks/serving_saturation.claims.yml)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from benchbook.analysis import serving
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


def run_missing(r: pd.DataFrame) -> pd.DataFrame:
    """Why each empty cell of `runs_table(r)` is empty (for `tables.show`): a run with no concurrency
    cap prints none; a run whose output format does not record the cap or the rate (its parser
    says so, `serving.recorded`) has one the page does not know."""
    t = runs_table(r)
    why = pd.DataFrame(np.nan, index=t.index, columns=t.columns, dtype=object)
    for col, name, absent in (
        (RUN_COLUMNS["max_concurrency"], "max_concurrency", "no cap"),
        (RUN_COLUMNS["request_rate"], "request_rate", "not printed"),
    ):
        if col in why:
            known = r[f"{name}_recorded"].to_numpy() if f"{name}_recorded" in r else np.ones(len(r), dtype=bool)
            why[col] = np.where(known, absent, "not recorded")
    return why


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
    cols = ["run", "completed", "failed", "good", "share", "duration_s", "goodput"]
    return t[[c for c in cols if c in t]].rename(
        columns={
            "completed": "completed requests",
            "failed": "failed requests",
            "good": "within both SLOs",
            "share": "within both SLOs (%)",
            "duration_s": "duration (s)",
            "goodput": "goodput (req/s)",
        }
    )


# --- descriptions of the data --------------------------------------------------------------------


def inputs_sentence(files: str, r: pd.DataFrame, variable: str, n_apart: int) -> str:
    models = ", ".join(sorted(r["model"].dropna().unique())) or "a model the output does not name"
    kept = ""
    unknown = int((~r[f"{variable}_recorded"] & r[variable].isna()).sum()) if f"{variable}_recorded" in r else 0
    if n_apart - unknown > 0:
        n = n_apart - unknown
        kept = f"; {'one run' if n == 1 else f'{n} runs'} with {APART_WORDS[variable]} kept apart"
    if unknown:
        what = "concurrency cap" if variable == "max_concurrency" else "request rate"
        kept += (
            f"; {'one run' if unknown == 1 else f'{unknown} runs'} kept apart because the output does not record "
            f"{'its' if unknown == 1 else 'their'} {what}"
        )
    runs = "one run" if len(r) == 1 else f"{len(r)} runs"
    levels = r.loc[~serving.apart(r, variable), variable].nunique()
    how = f"swept over {variable.replace('_', ' ')}" if levels > 1 else "at a single load level"
    return f"This page reads {files}: {runs} of {models}, {how}{kept}.{series_sentence(r, variable)}" + (
        failures_sentence(r)
    )


def failures_sentence(r: pd.DataFrame) -> str:
    """The runs whose output reports failed requests: how many of how many, and what the page counts
    them as; nothing where no run reports a failure."""
    if "failed" not in r:
        return ""
    bad = r[r["failed"].fillna(0) > 0]
    if bad.empty:
        return ""
    parts = []
    for _, w in bad.iterrows():
        done = w["completed"] if np.isfinite(w["completed"]) else 0.0
        total = done + w["failed"]
        parts.append(f"{w['run']}: {w['failed']:,.0f} of {total:,.0f} requests failed ({w['failed'] / total:.0%})")
    lost = bad[bad["completed"].fillna(0) == 0]
    none = (
        f" Every request of {wording.join([str(x) for x in lost['run']])} failed: no throughput or latency was measured."
        if len(lost)
        else ""
    )
    return (
        f" Failed requests: {wording.join(parts)}. Throughput and latency count the completed requests only; "
        "a failed request meets no SLO, so the goodput shares below are of every request sent." + none
    )


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
    n = int(r["rate_assumed"].sum()) if "rate_assumed" in r else 0
    unknown = r[r["request_rate"].isna()] if "request_rate" in r else r.iloc[0:0]
    said = ""
    if n:
        who = "One run prints no request rate; it is" if n == 1 else f"{n} runs print no request rate; they are"
        said = (
            f"{who} taken as unlimited, the default of vLLM's and SGLang's serving benchmarks (`--request-rate inf`) "
            "and what AIPerf's concurrency mode does: every request sent at once, or as fast as the concurrency cap "
            "allows."
        )
    if len(unknown):
        tools = unknown["tool"] if "tool" in unknown else pd.Series("", index=unknown.index)
        formats = wording.join(sorted({f"{t} {f}".strip() for t, f in zip(tools, unknown["format"], strict=True)}))
        who = "One run comes" if len(unknown) == 1 else f"{len(unknown)} runs come"
        said += (" " if said else "") + (
            f"{who} from an output that does not record its request rate ({formats}); the page leaves the rate "
            "unknown rather than assume one."
        )
    return said


def device_sentence(peaks, model: str | None, total_b, active_b, size_source: str, bpw: float, assumed: bool) -> str:
    if peaks is None:
        return "No device is known, so no roofline is drawn."
    head = f"The roofline uses the {peaks.device} ({SOURCE_WORDS.get(peaks.source, peaks.source)})"
    if peaks.count > 1:
        head += f", {peaks.count} of them as the input's label says"
    head += f": {peaks.total_bandwidth_gb_s:,.0f} GB/s."
    if active_b is None:
        return head + f" The size of {model or 'the model'} is unknown, so the roofline claims are withheld."
    moe = f" ({active_b:.1f} B active of {total_b:.1f} B)" if total_b and active_b and total_b > active_b else ""
    weights = f"{bpw:g} byte(s) per weight" + (" (assumed bf16: the output does not say)" if assumed else "")
    where = "given as a parameter" if size_source == "parameter" else f"model table: {size_source}"
    return head + f" Model: {model}, {total_b:.1f} B parameters{moe} ({where}); {weights}."


#: Runs whose Little's-law numbers a page spells out (the table lists them all).
_IN_FLIGHT_SHOWN = 4


def in_flight_sentence(lit: pd.DataFrame) -> str:
    """Each run's rate, mean latency and requests in flight, in words (the first few runs): what a
    reader quotes from Little's law; nothing where no run has a number."""
    have = lit[lit["in_flight"].notna()] if "in_flight" in lit else lit.iloc[0:0]
    if have.empty:
        return ""
    parts = []
    for _, w in have.head(_IN_FLIGHT_SHOWN).iterrows():
        n = w.get("completed", np.nan)
        done = f"{n:,.0f} request{'' if n == 1 else 's'} completed, " if np.isfinite(n) else ""
        if w.get("in_flight_measured", False):
            how = f", {w['in_flight']:.3g} requests in flight on average (the tool's measurement)"
        else:
            est = "estimated " if w.get("estimated", False) else ""
            how = f"x {w['mean_e2el_s']:.3g} s {est}mean latency = {w['in_flight']:.3g} requests in flight on average"
        parts.append(f"run `{w['run']}`: {done}{w['request_throughput']:.3g} req/s {how}")
    more = f"; {len(have) - _IN_FLIGHT_SHOWN} more in the table" if len(have) > _IN_FLIGHT_SHOWN else ""
    return " " + "; ".join(parts)[0].upper() + "; ".join(parts)[1:] + more + "."


def littles_note(lit: pd.DataFrame) -> str:
    return _littles_note(lit) + in_flight_sentence(lit)


def _littles_note(lit: pd.DataFrame) -> str:
    if "in_flight_measured" in lit and lit["in_flight_measured"].any():
        return (
            "The output prints no mean E2EL (only percentiles), so Little's law cannot be applied; the in-flight "
            "count is the tool's own measured mean concurrency."
        )
    est = lit[lit["estimated"]]
    none = lit["mean_e2el_s"].isna() & lit["completed"].fillna(0).eq(0)
    if none.all():
        return "No request completed, so there is no latency to put into Little's law."
    if len(est) and "e2el_recorded" in est and not est["e2el_recorded"].all():
        return (
            "This output format does not record E2EL, so mean E2EL is estimated as mean TTFT + mean TPOT x (mean "
            "output tokens - 1); this ignores how TPOT and output length co-vary, so read it as an estimate."
        )
    if lit["estimated"].any():
        est = lit[lit["estimated"]]
        pct = [c for c in ("e2el_median", "e2el_p50", "e2el_p90", "e2el_p95", "e2el_p99") if c in est]
        what = (
            "The output prints E2EL percentiles but no mean"
            if pct and est[pct].notna().any(axis=None)
            else "The output has no E2EL line"
        )
        return (
            f"{what}, so mean E2EL is estimated as mean TTFT + mean TPOT x (mean output tokens "
            "- 1); this ignores how TPOT and output length co-vary, so read it as an estimate."
        )
    if "format" in lit and lit["format"].eq("jsonl").all():  # AIPerf's per-request export: no summary line
        return "Mean E2EL is the mean of the per-request latencies the file records."
    return "Mean E2EL is the value the tool printed."


def apart_message(apart: pd.DataFrame, variable: str) -> str:
    """How the tool sends the runs kept apart (from their settings)."""
    if apart.empty:
        return f"This input has no run with {APART_WORDS[variable]}: every run is a point of the curve."
    unknown = apart[~apart[f"{variable}_recorded"]] if f"{variable}_recorded" in apart else apart.iloc[0:0]
    if len(unknown) == len(apart):
        what = "concurrency cap" if variable == "max_concurrency" else "request rate"
        return (
            f"The output does not record the {what} of these runs, so they have no place on the sweep's axis: they "
            "are listed here and drawn as horizontal lines. Their load is unknown to this page, not absent."
        )
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
    if ax.get_legend_handles_labels()[0]:  # a run where every request failed draws nothing to label
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
        ax.set_yscale("log")
        ax.xaxis.set_major_locator(MaxNLocator(nbins=3))
        ax.set_xlim(left=0)
        ax.tick_params(axis="x", labelrotation=30)
        ax.set_title(m.upper())
        ax.set_xlabel("output tok/s")
        ax.set_ylabel(f"{m.upper()} (ms)")
    if axes[0].get_legend_handles_labels()[0]:
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
