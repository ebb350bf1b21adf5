"""The serving saturation curve of `vllm bench serve` sweeps: one row per run, the knee, Little's
law, goodput (bounded from percentiles, or exact from per-request data) and the per-user vs
per-GPU Pareto front.

Rules, stated once:

* **Knee.** Sort the runs by the sweep variable x. For each step from x0 to x1 the elasticity is
  (relative throughput gain) / (relative x gain) = ((y1 - y0) / y0) / ((x1 - x0) / x0). The knee
  is x0 of the first step whose elasticity falls below `threshold` (0.25: doubling concurrency
  buys less than 25 % more throughput). No such step: the sweep never saturated (None).
* **Little's law.** Mean requests in flight L = request throughput x mean E2EL. Without an E2EL
  line, mean E2EL is estimated as mean TTFT + mean TPOT x (mean output tokens - 1), which ignores
  the covariance of TPOT and output length across requests (flagged `estimated`).
* **Goodput bound from percentiles.** A request is good when TTFT <= slo_ttft and TPOT <= slo_tpot
  (the tool's own rule). For one metric, the largest reported percentile q (median = 50, p90,
  p95, p99) at or under the SLO says at least q % of requests meet it; the smallest reported
  percentile above the SLO says at most that share does. Both SLOs together: the lower bound is
  max(0, lo_ttft + lo_tpot - 1) (the union bound, with no assumption on how TTFT and TPOT
  correlate), the upper bound min(up_ttft, up_tpot). Goodput = share x request throughput.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from benchbook.analysis import pareto

#: Settings that identify a run.
RUN_KEYS = [
    "source",
    "run",
    "format",
    "model",
    "dataset",
    "num_prompts",
    "request_rate",
    "max_concurrency",
    "burstiness",
    "metadata",
]
PERCENTILE_OF = {"median": 50.0, "p50": 50.0, "p90": 90.0, "p95": 95.0, "p99": 99.0}


def runs(df: pd.DataFrame) -> pd.DataFrame:
    """One row per run: the settings, and one column per metric/statistic (`ttft_mean`,
    `ttft_p99`, `output_throughput`, ...). A run printed both as a text block and as a JSON line
    in the same file (same totals) is kept once, from the JSON (full precision)."""
    df = df[df["tool"] == "vllm-bench-serve"].copy()
    if df.empty:
        return pd.DataFrame(columns=RUN_KEYS)
    df["col"] = np.where(
        df["statistic"].isin(["value", "count", "max"]), df["metric"], df["metric"] + "_" + df["statistic"]
    )
    keys = [k for k in RUN_KEYS if k in df.columns]
    wide = df.pivot_table(index=keys, columns="col", values="value", aggfunc="first", dropna=False, sort=False)
    wide = wide.reset_index()
    wide = wide.dropna(subset=[c for c in ["duration"] if c in wide.columns], how="all")
    wide.columns.name = None
    ident = [c for c in ["source", "completed", "total_input_tokens", "total_generated_tokens"] if c in wide.columns]
    wide["_json"] = wide["format"].eq("json")
    wide = wide.sort_values("_json", ascending=False).drop_duplicates(subset=ident, keep="first")
    return wide.drop(columns="_json").sort_index().reset_index(drop=True)


def sweep_x(r: pd.DataFrame, variable: str) -> pd.Series:
    """The sweep variable of each run as a plottable number. Uncapped concurrency (NaN) counts as
    num_prompts (the most that can be in flight); an infinite request rate as twice the largest
    finite rate (marked on the axis)."""
    if variable == "max_concurrency":
        return r["max_concurrency"].fillna(r["num_prompts"]).astype(float)
    if variable == "request_rate":
        x = r["request_rate"].astype(float)
        finite = x[np.isfinite(x)]
        big = 2 * finite.max() if len(finite) else 1.0
        return x.where(np.isfinite(x), big)
    raise ValueError(f"sweep variable must be 'max_concurrency' or 'request_rate', not {variable!r}")


def _steps(x, y) -> list[tuple[float, float]]:
    """(x0, elasticity) of each step of a curve, in x order; points that are not finite and
    positive are dropped, and steps between equal x skipped."""
    pts = sorted((a, b) for a, b in zip(x, y, strict=True) if np.isfinite(a) and np.isfinite(b) and a > 0 and b > 0)
    return [
        (x0, ((y1 - y0) / y0) / ((x1 - x0) / x0)) for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False) if x1 != x0
    ]


def elasticities(x, y) -> list[float]:
    """The step elasticities of a curve, in x order (see the knee rule)."""
    return [e for _, e in _steps(x, y)]


def knee(x, y, threshold: float = 0.25):
    """x at the knee of a saturation curve (see the module rule), or None if it never saturates.

    >>> knee([1, 2, 4, 8], [10, 20, 30, 33], 0.25)
    4
    """
    return next((x0 for x0, e in _steps(x, y) if e < threshold), None)


def knees(r: pd.DataFrame, variable: str, threshold: float) -> pd.DataFrame:
    """The knee of each series of runs (see `series_key`): series, n, knee, first and last step
    elasticity, the number of steps and of steps where throughput fell (negative elasticity),
    whether the elasticity fell at every step (`diminishing`), output throughput at the knee, and
    the best run's throughput and x."""
    d = r.assign(x=sweep_x(r, variable), series=series_key(r))
    d = d[np.isfinite(d["output_throughput"])]
    rows = []
    for name, g in d.groupby("series", sort=False):
        if g["x"].nunique() < 2:
            continue
        k = knee(g["x"], g["output_throughput"], threshold)
        el = elasticities(g["x"], g["output_throughput"])
        if not el:
            continue
        top = g.loc[g["output_throughput"].idxmax()]
        at = g[g["x"] == k]["output_throughput"].max() if k is not None else np.nan
        rows.append(
            dict(
                series=name,
                n=len(g),
                knee=k,
                el_first=el[0],
                el_last=el[-1],
                n_steps=len(el),
                n_falls=sum(e < 0 for e in el),
                diminishing=all(b < a for a, b in zip(el, el[1:], strict=False)),
                knee_tput=at,
                top_tput=top["output_throughput"],
                top_x=top["x"],
            )
        )
    columns = ["series", "n", "knee", "el_first", "el_last", "n_steps", "n_falls", "diminishing"]
    return pd.DataFrame(rows, columns=columns + ["knee_tput", "top_tput", "top_x"])


def littles_law(r: pd.DataFrame) -> pd.DataFrame:
    """Mean requests in flight per run, L = request_throughput x mean E2EL (s), with the
    nominal cap beside it. Columns: in_flight, estimated (True when E2EL was not printed),
    nominal (max_concurrency, or num_prompts when uncapped), utilisation = in_flight / nominal."""
    out = r.copy()
    lam = out["request_throughput"]
    if "e2el_mean" in out.columns and out["e2el_mean"].notna().any():
        w = out["e2el_mean"] / 1000
        est = w.isna()
    else:
        w = pd.Series(np.nan, index=out.index)
        est = pd.Series(True, index=out.index)
    mean_out = out["total_generated_tokens"] / out["completed"]
    w_est = (out["ttft_mean"] + out["tpot_mean"] * (mean_out - 1)) / 1000
    out["mean_e2el_s"] = w.fillna(w_est)
    out["estimated"] = est
    out["in_flight"] = lam * out["mean_e2el_s"]
    out["nominal"] = out["max_concurrency"].fillna(out["num_prompts"])
    out["utilisation"] = out["in_flight"] / out["nominal"]
    return out


def _share_bounds(row: pd.Series, metric: str, slo: float) -> tuple[float, float]:
    """(lower, upper) share of requests with `metric` <= slo, from the reported percentiles."""
    lo, up = 0.0, 1.0
    for stat, q in PERCENTILE_OF.items():
        v = row.get(f"{metric}_{stat}", np.nan)
        if v is None or not np.isfinite(v):
            continue
        if v <= slo:
            lo = max(lo, q / 100)
        else:
            up = min(up, q / 100)
    return lo, up


def goodput_bounds(r: pd.DataFrame, slo_ttft_ms: float, slo_tpot_ms: float) -> pd.DataFrame:
    """Bounds on goodput (req/s) from summary percentiles (see the module rule). Columns:
    share_lo, share_hi, goodput_lo, goodput_hi (req/s), plus the per-metric bounds."""
    rows = []
    for _, row in r.iterrows():
        a_lo, a_up = _share_bounds(row, "ttft", slo_ttft_ms)
        b_lo, b_up = _share_bounds(row, "tpot", slo_tpot_ms)
        lo = max(0.0, a_lo + b_lo - 1)
        hi = min(a_up, b_up)
        lam = row["request_throughput"]
        rows.append(
            dict(
                ttft_share_lo=a_lo,
                ttft_share_hi=a_up,
                tpot_share_lo=b_lo,
                tpot_share_hi=b_up,
                share_lo=lo,
                share_hi=hi,
                goodput_lo=lo * lam,
                goodput_hi=hi * lam,
            )
        )
    return pd.concat([r.reset_index(drop=True), pd.DataFrame(rows)], axis=1)


def exact_goodput(req: pd.DataFrame, slo_ttft_ms: float, slo_tpot_ms: float) -> pd.DataFrame:
    """Goodput per run from per-request data (`vllm_serve.requests`): the count of successful
    requests with ttft <= slo and tpot <= slo (tpot 0 for one-token outputs, as the tool does)
    divided by the run's duration. Columns: run, completed, good, share, goodput (req/s)."""
    ok = req["success"]
    good = ok & (req["ttft_ms"] <= slo_ttft_ms) & (req["tpot_ms"] <= slo_tpot_ms)
    g = req.assign(ok=ok, good=good).groupby(["source", "run"], sort=False)
    out = g.agg(completed=("ok", "sum"), good=("good", "sum"), duration_s=("duration_s", "first")).reset_index()
    out["share"] = out["good"] / out["completed"].where(out["completed"] > 0)
    out["goodput"] = out["good"] / out["duration_s"]
    return out


def pareto_front(per_user, per_gpu) -> np.ndarray:
    """Mask of the points not dominated on (per-user speed, whole-server throughput), both maximised."""
    return pareto.frontier(per_user, per_gpu)


def series_key(r: pd.DataFrame) -> pd.Series:
    """A label per series of comparable runs (same source model and metadata)."""
    meta = r["metadata"].fillna("") if "metadata" in r.columns else ""
    dep = meta.str.extract(r"deployment=([^;]+)")[0] if isinstance(meta, pd.Series) else None
    label = r["model"].fillna("model?").str.split("/").str[-1]
    if dep is not None and dep.notna().any():
        label = label + " (" + dep.fillna("") + ")"
    return label


def fmt_x(v: float, variable: str, r: pd.DataFrame | None = None) -> str:
    """A tick label for a sweep value: "inf" and "no cap" for the stand-ins `sweep_x` plots."""
    if variable == "request_rate" and r is not None:
        fin = r["request_rate"][np.isfinite(r["request_rate"])]
        if len(fin) and math.isclose(v, 2 * fin.max()):
            return "inf"
    if variable == "max_concurrency" and r is not None:
        uncapped = r.loc[r["max_concurrency"].isna(), "num_prompts"]
        if (uncapped == v).any() and not (r["max_concurrency"] == v).any():
            return "no cap"
    return f"{v:g}"


# ---------------------------------------------------------------------------------------------
# tables and sentences of the chapter

RUN_COLUMNS = [
    "run",
    "max_concurrency",
    "request_rate",
    "num_prompts",
    "completed",
    "duration",
    "request_throughput",
    "output_throughput",
    "ttft_mean",
    "tpot_mean",
    "itl_mean",
]


def runs_table(r: pd.DataFrame) -> pd.DataFrame:
    """The runs as the parser read them, with the columns this input has."""
    return r[[c for c in RUN_COLUMNS if c in r]].round(2)


def first_knee(kn: pd.DataFrame) -> float | None:
    """The knee of the first series (the one the saturation figure marks); None without one."""
    if kn.empty:
        return None
    k = kn.iloc[0]["knee"]
    return k if k is not None and np.isfinite(k) else None


def knee_sentence(kn: pd.DataFrame, variable: str, r: pd.DataFrame) -> str:
    """Per series: the first and last elasticity and where it first falls below the threshold,
    with the throughput there against the series' best run; or why there is no knee."""
    if kn.empty:
        return "This input holds a single load level per series, so there is no curve and no knee to find."
    parts = []
    for _, k in kn.iterrows():
        head = (
            f"{k['series']}: the elasticity is {k['el_first']:.2f} on the first step and "
            f"{k['el_last']:.2f} on the last; it "
        )
        if k["knee"] is None or not np.isfinite(k["knee"]):
            parts.append(head + "never falls below the threshold, so the sweep did not reach saturation.")
        else:
            parts.append(
                head + f"first falls below the threshold after {fmt_x(k['knee'], variable, r)}, where the "
                f"server gives {k['knee_tput']:.0f} output tok/s, {k['knee_tput'] / k['top_tput'] * 100:.0f} % "
                f"of its best run ({k['top_tput']:.0f} tok/s at {fmt_x(k['top_x'], variable, r)})."
            )
    return " ".join(parts)


def knee_text(kn: pd.DataFrame, variable: str, r: pd.DataFrame) -> str:
    """The first series' knee in a few words, for the takeaways."""
    if kn.empty:
        return "no knee: one load level only"
    knee_x = first_knee(kn)
    if knee_x is None:
        return "no knee within this sweep"
    return f"knee at {fmt_x(knee_x, variable, r)} for {kn.iloc[0]['series']}"


def growth_sentence(kn: pd.DataFrame) -> str:
    """Whether throughput ever falls with more load, or grows by less at every step."""
    if kn.empty:
        return ""
    if kn["n_falls"].sum():
        return (
            f"Throughput falls on {int(kn['n_falls'].sum())} of {int(kn['n_steps'].sum())} steps: "
            "there, more load costs throughput as well as latency."
        )
    if kn["diminishing"].all():
        return "Throughput grows at every step, by less each time."
    return "Throughput grows at every step, though not by less each time."


def littles_note(lit: pd.DataFrame) -> str:
    """Where mean E2EL comes from: printed, or estimated (and why the estimate is rough)."""
    if lit["estimated"].any():
        return (
            "The output has no E2EL line, so mean E2EL is estimated as mean TTFT + mean TPOT x (mean "
            "output tokens - 1); this ignores how TPOT and output length co-vary, so read it as an estimate."
        )
    return "Mean E2EL is the value the tool printed."


def least_utilised(lit: pd.DataFrame) -> pd.Series | None:
    """The capped run with the fewest requests in flight for its cap; None when no run is capped."""
    capped = lit[lit["max_concurrency"].notna()]
    return capped.loc[capped["utilisation"].idxmin()] if len(capped) else None


def littles_sentence(worst: pd.Series | None) -> str:
    """The run of `least_utilised` in words."""
    if worst is None:
        return "No run in this input has a concurrency cap, so there is no nominal concurrency to compare with."
    return (
        f"The lowest ratio is run {worst['run']}: {worst['in_flight']:.0f} requests in flight on average "
        f"for a cap of {worst['max_concurrency']:g} ({worst['utilisation'] * 100:.0f} %)."
    )


def uncapped_prose(r: pd.DataFrame) -> tuple[str, str, str]:
    """(how the tool sends an uncapped run, what this input's uncapped run shows, the takeaway),
    comparing the first uncapped run at infinite rate with the best capped run."""
    unc = r[r["max_concurrency"].isna() & np.isinf(r["request_rate"])]
    cap = r[r["max_concurrency"].notna()]
    if not (len(unc) and len(cap)):
        return (
            "This input has no uncapped run at infinite request rate (or no capped run to compare it with).",
            "So the queueing effect cannot be shown with this input.",
            "An uncapped run's TTFT measures queueing, not prefill speed (no such run in this input).",
        )
    u = unc.iloc[0]
    best = cap.loc[cap["output_throughput"].idxmax()]
    cause = (
        ". A likely cause, which this output cannot show: with everything admitted at once the scheduler "
        "interleaves long prefills with decode steps and may run out of KV-cache space and preempt requests."
        if u["output_throughput"] < best["output_throughput"]
        else "."
    )
    sentence = (
        f"Here the uncapped run's mean TTFT is {u['ttft_mean'] / 1000:.1f} s and its output throughput "
        f"{u['output_throughput']:.0f} tok/s, against {best['output_throughput']:.0f} tok/s for run {best['run']}"
        + cause
        + f" Its mean TPOT is {u['tpot_mean']:.0f} ms but its mean ITL {u['itl_mean']:.0f} ms: TPOT is averaged "
        "per request, so a short request that stalled behind prefills counts as much as a long one, while ITL pools "
        "every streamed chunk, where long, steadily decoding requests dominate."
    )
    message = (
        f"With `--request-rate inf` and no `--max-concurrency`, the tool sends all {u['num_prompts']:g} requests "
        "at t=0. The server queues what it cannot batch, and that wait is inside TTFT: the tool starts each "
        "request's clock when it sends it. With a cap, a request waits on the client's semaphore before it is "
        "sent, and that wait is not in TTFT or E2EL."
    )
    take = f"An uncapped run's TTFT ({u['ttft_mean'] / 1000:.1f} s here) is queueing, not prefill speed."
    return message, sentence, take


def goodput_sentence(gb: pd.DataFrame) -> str:
    """The run with the most requests proven to meet both SLOs (the lower goodput bound)."""
    if gb["goodput_lo"].max() > 0:
        b = gb.loc[gb["goodput_lo"].idxmax()]
        return (
            f"The best load under these SLOs is run {b['run']}: at least {b['goodput_lo']:.1f} req/s "
            f"({b['share_lo'] * 100:.0f} % of its {b['request_throughput']:.1f} req/s) meet both."
        )
    return "No run's percentiles prove that any share of its requests meets both SLOs."


# ---------------------------------------------------------------------------------------------
# figures


def plot_saturation(r: pd.DataFrame, variable: str, knee_x=None, ax=None):
    """Output and total token throughput against the sweep variable (log2 x)."""
    import matplotlib.pyplot as plt

    from benchbook.presentation.plotting import color

    if ax is None:
        _, ax = plt.subplots()
    d = r.assign(x=sweep_x(r, variable), series=series_key(r)).sort_values("x")
    for i, (name, g) in enumerate(d.groupby("series", sort=False)):
        ax.plot(g["x"], g["output_throughput"], "o-", color=color(2 * i), label=f"output tok/s, {name}")
        if "total_token_throughput" in g:
            ax.plot(g["x"], g["total_token_throughput"], "s--", color=color(2 * i + 1), label=f"total tok/s, {name}")
    if knee_x is not None:
        ax.axvline(knee_x, color="grey", ls=":", lw=1)
        ax.annotate(f"knee at {knee_x:g}", (knee_x, ax.get_ylim()[1] * 0.95), ha="left", va="top", fontsize=9)
    ax.set_xscale("log", base=2)
    xs = sorted(d["x"].unique())
    ax.set_xticks(xs, [fmt_x(v, variable, r) for v in xs])
    ax.set_xlabel(
        "max concurrency (requests; uncapped = number of prompts)"
        if variable == "max_concurrency"
        else "request rate (req/s; inf = all at t=0)"
    )
    ax.set_ylabel("throughput (tok/s)")
    ax.legend(fontsize=8)
    return ax.figure


def plot_latency_tradeoff(r: pd.DataFrame, variable: str):
    """Throughput (x) against TTFT, TPOT and ITL (y, log), one panel per metric, points labelled
    with the sweep value; mean, median and p99 where printed."""
    import matplotlib.pyplot as plt

    from benchbook.presentation.plotting import color

    d = r.assign(x=sweep_x(r, variable)).sort_values("x")
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.8), sharex=True)
    for ax, m in zip(axes, ["ttft", "tpot", "itl"], strict=True):
        for i, stat in enumerate(["mean", "median", "p99"]):
            c = f"{m}_{stat}"
            if c in d and d[c].notna().any():
                ax.plot(d["output_throughput"], d[c], "o-", color=color(i), label=stat, ms=4)
        for _, row in d.iterrows():
            c = f"{m}_mean"
            if c in d and np.isfinite(row.get(c, np.nan)):
                ax.annotate(
                    fmt_x(row["x"], variable, r),
                    (row["output_throughput"], row[c]),
                    fontsize=7,
                    xytext=(3, 3),
                    textcoords="offset points",
                )
        ax.set_yscale("log")
        ax.set_title(m.upper())
        ax.set_xlabel("output throughput (tok/s)")
        ax.set_ylabel(f"{m.upper()} (ms)")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot_pareto(r: pd.DataFrame, variable: str):
    """Per-user decode speed (1000 / mean TPOT, tok/s) against per-GPU output throughput, the
    Pareto front joined."""
    import matplotlib.pyplot as plt

    from benchbook.presentation.plotting import color

    d = r.assign(x=sweep_x(r, variable), per_user=1000 / r["tpot_mean"])
    front = pareto_front(d["per_user"], d["output_throughput"])
    fig, ax = plt.subplots()
    ax.scatter(d["output_throughput"], d["per_user"], color=color(0), zorder=3, label="run")
    f = d[front].sort_values("output_throughput")
    ax.plot(f["output_throughput"], f["per_user"], "-", color=color(3), label="Pareto front")
    for _, row in d.iterrows():
        ax.annotate(
            fmt_x(row["x"], variable, r),
            (row["output_throughput"], row["per_user"]),
            fontsize=8,
            xytext=(4, 4),
            textcoords="offset points",
        )
    ax.set_xlabel("output throughput, whole server (tok/s)")
    ax.set_ylabel("decode speed per user, 1000 / mean TPOT (tok/s)")
    ax.legend(fontsize=8)
    return fig


def load(paths) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Runs (one row each) and per-request rows (empty without --save-detailed) of every file."""
    from benchbook import ingest
    from benchbook.ingest import vllm_serve

    r = runs(ingest.read_all(paths, tool="vllm-bench-serve")[0])
    req = pd.concat([vllm_serve.requests(p) for p in paths], ignore_index=True)
    return r, req


def choose_sweep(r: pd.DataFrame, wanted: str) -> str:
    """The sweep variable: `wanted` if it varies across the runs, else the other one if that
    varies, else `wanted`."""

    def varies(c):
        return r[c].fillna(-1).nunique() > 1

    other = "request_rate" if wanted == "max_concurrency" else "max_concurrency"
    return wanted if varies(wanted) or not varies(other) else other
