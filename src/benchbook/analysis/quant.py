"""Quantization winners by workload regime: per-run tables, winner sets, speed-ups with
confidence intervals, the regime x scheme heatmap, a roofline placement and a decision table.

Input is the tidy table of the `sglang-quant-report` parser (a report or a result.jsonl). Every
statistic here is computed from the individual runs (section "run"), never from the printed means.

Statistics (all per regime, per scheme, over its n runs):

* winner set: the best scheme by mean of the regime's metric, plus every scheme whose mean a
  two-sided Welch t-test (scipy.stats.ttest_ind, equal_var=False) cannot tell from the best's at
  level alpha. With n = 3 runs this is the honest answer to "who wins".
* speed-up over the baseline: ratio of means, oriented so that > 1 is better (baseline/scheme for
  latency, scheme/baseline for throughputs), with a confidence interval on the log ratio
  (delta method: var(log mean) = s^2 / (n mean^2); Welch-Satterthwaite degrees of freedom).
"""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pandas as pd
from scipy import stats

from benchbook.ingest.sglang_quant import REGIMES

LOWER_IS_BETTER = {"latency", "last_ttft", "ttft", "implied_ttft"}
RUN_METRICS = ["latency", "output_throughput", "overall_throughput"]


def regime_order(names) -> list[str]:
    """Regimes in the driver's order first (by batch size, then input length), others after."""
    known = [r for r in sorted(REGIMES, key=lambda r: (REGIMES[r][0], REGIMES[r][1], REGIMES[r][2])) if r in set(names)]
    return known + sorted(set(names) - set(known))


def runs(df: pd.DataFrame) -> pd.DataFrame:
    """One row per run: settings, line of the run block, and the run's metrics as columns, plus
    `implied_ttft` = latency - bs x out / output_throughput (s). `latency` is recovered as
    bs x (in + out) / overall_throughput where that is available (the report prints latency to
    0.01 s, overall throughput to 5 or more digits); the printed value stays in `latency_printed`."""
    d = df[(df["section"] == "run") & (df["statistic"] == "value")].copy()
    d.attrs = {}
    if d.empty:
        raise ValueError(
            "no per-run values in this table (a report without 'Individual runs' or an empty result.jsonl)"
        )
    keys = ["source", "model", "scheme", "regime", "run", "batch_size", "input_len", "output_len"]
    # one run's metrics are consecutive rows with the same settings; a repeated metric (a duplicated
    # run label, or two identical result.jsonl rows) starts the next run
    changed = d[keys].ne(d[keys].shift()).any(axis=1).to_numpy()
    ids, seen, current = [], set(), -1
    for new_block, m in zip(changed, d["metric"], strict=True):
        if new_block or m in seen:
            current += 1
            seen = set()
        seen.add(m)
        ids.append(current)
    d = d.assign(_run_id=ids)
    wide = d.groupby(["_run_id", *keys, "metric"], sort=False)["value"].first().unstack("metric").reset_index()
    first_line = d.groupby("_run_id")["line"].min()
    wide["line"] = wide["_run_id"].map(first_line).astype(int)
    wide = wide.drop(columns="_run_id")
    wide.columns.name = None
    for m in RUN_METRICS:
        if m not in wide:
            wide[m] = np.nan
    tokens_all = wide["batch_size"] * (wide["input_len"] + wide["output_len"])
    lat = (tokens_all / wide["overall_throughput"]).where(wide["overall_throughput"] > 0, wide["latency"])
    wide["latency_from_overall"] = lat
    # the report prints latency to 0.01 s; overall throughput carries ~5 digits of the same number
    wide["latency_printed"] = wide["latency"]
    wide["latency"] = lat.where(np.isfinite(lat), wide["latency"])
    wide["implied_ttft"] = lat - wide["batch_size"] * wide["output_len"] / wide["output_throughput"]
    return wide.sort_values(["source", "line"]).reset_index(drop=True)


def parse_outlier_rule(rule: str) -> tuple[str, float]:
    """ "cv>0.10" (coefficient of variation of the cell above 0.10) or "mad>3.5" (modified z-score
    of a run above 3.5): returns (kind, threshold)."""
    m = re.fullmatch(r"\s*(cv|mad)\s*>\s*([0-9.]+)\s*", str(rule))
    if not m:
        raise ValueError(f"outlier_rule {rule!r}: expected 'cv>X' or 'mad>X', e.g. 'cv>0.10'")
    return m.group(1), float(m.group(2))


def outliers(run_table: pd.DataFrame, rule: str = "cv>0.10", metrics=RUN_METRICS) -> pd.DataFrame:
    """High-variance cells and their outlying run: per (source, regime, scheme, metric) with at
    least 3 runs, flag the cell by `rule` and name the run farthest from the median of the others.

    Columns: source, regime, scheme, model, metric, n, mean, std, cv, run, line, value,
    others_median, mean_without.
    """
    kind, thr = parse_outlier_rule(rule)
    rows = []
    for (src, regime, scheme, model), g in run_table.groupby(["source", "regime", "scheme", "model"], sort=False):
        for m in metrics:
            v = g[m].to_numpy(dtype=float)
            ok = ~np.isnan(v)
            if ok.sum() < 3:
                continue
            gv = g[ok]
            v = v[ok]
            mean, std = float(np.mean(v)), float(np.std(v, ddof=1))
            cv = std / abs(mean) if mean else np.nan
            dev = [abs(x - np.median(np.delete(v, i))) for i, x in enumerate(v)]
            i = int(np.argmax(dev))
            med = float(np.median(v))
            mad = float(np.median(np.abs(v - med)))
            z = 0.6745 * abs(v[i] - med) / mad if mad > 0 else (np.inf if v[i] != med else 0.0)
            flagged = cv > thr if kind == "cv" else z > thr
            if flagged:
                rows.append(
                    {
                        "source": src,
                        "regime": regime,
                        "scheme": scheme,
                        "model": model,
                        "metric": m,
                        "n": len(v),
                        "mean": mean,
                        "std": std,
                        "cv": cv,
                        "run": gv["run"].iloc[i],
                        "line": int(gv["line"].iloc[i]),
                        "value": float(v[i]),
                        "others_median": float(np.median(np.delete(v, i))),
                        "mean_without": float(np.mean(np.delete(v, i))),
                    }
                )
    cols = [
        "source",
        "regime",
        "scheme",
        "model",
        "metric",
        "n",
        "mean",
        "std",
        "cv",
        "run",
        "line",
        "value",
        "others_median",
        "mean_without",
    ]
    return pd.DataFrame(rows, columns=cols)


def timestamp_outliers(flagged: pd.DataFrame) -> pd.Series:
    """Per flagged (regime, scheme) cell: True when output throughput is its only flagged metric and
    the outlying run sits below the others, the signature of one run's late TTFT timestamp (output
    throughput is the only metric that depends on it)."""
    if flagged.empty:
        return pd.Series(dtype=bool)
    low = flagged["value"] < flagged["others_median"]
    return flagged.assign(ok=(flagged["metric"] == "output_throughput") & low).groupby(["regime", "scheme"])["ok"].all()


def drop_outliers(run_table: pd.DataFrame, flagged: pd.DataFrame) -> pd.DataFrame:
    """The run table with each flagged run's value of the flagged metric set to NaN."""
    out = run_table.copy()
    for _, f in flagged.iterrows():
        hit = (out["source"] == f["source"]) & (out["line"] == f["line"])
        out.loc[hit, f["metric"]] = np.nan
    return out


def metric_for(regime: str, metric_by_regime: dict, batch_size: int | None = None) -> str:
    """The metric of a regime: the mapping's, else latency at batch 1 and overall throughput above."""
    if regime in metric_by_regime:
        return metric_by_regime[regime]
    return "latency" if (batch_size or 1) <= 1 else "overall_throughput"


def _welch_p(a: np.ndarray, b: np.ndarray) -> float:
    if len(a) < 2 or len(b) < 2:
        return np.nan
    if np.std(a) == 0 and np.std(b) == 0:
        return 1.0 if np.mean(a) == np.mean(b) else 0.0
    with warnings.catch_warnings():
        # near-identical runs (std ~ 1e-3 of the mean) trigger scipy's precision note; the p-value stands
        warnings.filterwarnings("ignore", message="Precision loss occurred", category=RuntimeWarning)
        return float(stats.ttest_ind(a, b, equal_var=False).pvalue)


def cell_stats(run_table: pd.DataFrame, metric_by_regime: dict) -> pd.DataFrame:
    """Per (regime, scheme): the regime's metric, n, mean, std, and whether lower is better."""
    rows = []
    for (regime, scheme), g in run_table.groupby(["regime", "scheme"], sort=False):
        m = metric_for(regime, metric_by_regime, int(g["batch_size"].iloc[0]))
        if m not in g:
            raise ValueError(f"regime {regime!r}: metric {m!r} is not in the data (have {', '.join(RUN_METRICS)})")
        v = g[m].dropna().to_numpy(dtype=float)
        rows.append(
            {
                "regime": regime,
                "scheme": scheme,
                "metric": m,
                "n": len(v),
                "mean": float(np.mean(v)) if len(v) else np.nan,
                "std": float(np.std(v, ddof=1)) if len(v) > 1 else np.nan,
                "lower_is_better": m in LOWER_IS_BETTER,
                "values": v,
            }
        )
    return pd.DataFrame(rows)


def winner_sets(run_table: pd.DataFrame, metric_by_regime: dict, alpha: float = 0.05) -> pd.DataFrame:
    """Per (regime, scheme): mean, rank, the Welch p-value against the regime's best, ratio to the
    best (oriented, <= 1), and `in_winner_set` (the best, or p >= alpha). With fewer than 2 runs a
    scheme cannot be tested: only the best is in the set, and `testable` says so."""
    cs = cell_stats(run_table, metric_by_regime)
    out = []
    for regime, g in cs.groupby("regime", sort=False):
        g = g[g["n"] > 0]
        if g.empty:
            continue
        lower = bool(g["lower_is_better"].iloc[0])
        g = g.sort_values("mean", ascending=lower).reset_index(drop=True)
        best = g.iloc[0]
        for rank, r in enumerate(g.itertuples(index=False), start=1):
            p = 1.0 if rank == 1 else _welch_p(r.values, best["values"])
            ratio = best["mean"] / r.mean if lower else r.mean / best["mean"]
            out.append(
                {
                    "regime": regime,
                    "scheme": r.scheme,
                    "metric": r.metric,
                    "n": r.n,
                    "mean": r.mean,
                    "std": r.std,
                    "rank": rank,
                    "best": best["scheme"],
                    "p_vs_best": p,
                    "ratio_to_best": ratio,
                    "testable": not (isinstance(p, float) and math.isnan(p)),
                    "in_winner_set": rank == 1 or (not math.isnan(p) and p >= alpha),
                }
            )
    return pd.DataFrame(out)


def _log_ratio_ci(a: np.ndarray, b: np.ndarray, level: float) -> tuple[float, float, float]:
    """Ratio mean(a)/mean(b) with a CI on log scale (delta method, Welch df)."""
    ma, mb = np.mean(a), np.mean(b)
    ratio = ma / mb
    if len(a) < 2 or len(b) < 2:
        return ratio, np.nan, np.nan
    va = np.var(a, ddof=1) / (len(a) * ma**2)
    vb = np.var(b, ddof=1) / (len(b) * mb**2)
    se = math.sqrt(va + vb)
    if se == 0:
        return ratio, ratio, ratio
    df = (va + vb) ** 2 / ((va**2 / (len(a) - 1) if va else 0) + (vb**2 / (len(b) - 1) if vb else 0))
    t = stats.t.ppf(0.5 + level / 2, df)
    return ratio, float(ratio * math.exp(-t * se)), float(ratio * math.exp(t * se))


def speedups(
    run_table: pd.DataFrame, metric_by_regime: dict, baseline: str = "original", alpha: float = 0.05
) -> pd.DataFrame:
    """Per (regime, scheme): speed-up over `baseline` by the regime's metric (> 1 is better), with a
    (1 - alpha) confidence interval; NaN where the regime has no baseline runs."""
    cs = cell_stats(run_table, metric_by_regime)
    out = []
    for regime, g in cs.groupby("regime", sort=False):
        base = g[g["scheme"] == baseline]
        for r in g.itertuples(index=False):
            if base.empty or base["n"].iloc[0] == 0 or r.n == 0:
                s, lo, hi = np.nan, np.nan, np.nan
            else:
                b = base["values"].iloc[0]
                s, lo, hi = (
                    _log_ratio_ci(b, r.values, 1 - alpha)
                    if r.lower_is_better
                    else _log_ratio_ci(r.values, b, 1 - alpha)
                )
            out.append(
                {"regime": regime, "scheme": r.scheme, "metric": r.metric, "speedup": s, "ci_low": lo, "ci_high": hi}
            )
    return pd.DataFrame(out)


def metric_sensitivity(run_table: pd.DataFrame, metrics=RUN_METRICS) -> pd.DataFrame:
    """Best scheme per regime under each metric (rows: regimes; columns: metrics)."""
    rows = {}
    for m in metrics:
        w = winner_sets(run_table, {r: m for r in run_table["regime"].unique()})
        for _, r in w[w["rank"] == 1].iterrows():
            rows.setdefault(r["regime"], {})[m] = r["scheme"]
    out = pd.DataFrame.from_dict(rows, orient="index").reindex(columns=list(metrics))
    out = out.loc[regime_order(out.index)]
    out.index.name = "regime"
    return out


def shapes(run_table: pd.DataFrame) -> pd.DataFrame:
    """Batch size, input and output length per regime."""
    s = run_table.groupby("regime")[["batch_size", "input_len", "output_len"]].first()
    return s.loc[regime_order(s.index)]


def heatmap(ax, spd: pd.DataFrame, winners: pd.DataFrame, baseline: str) -> None:
    """Regime x scheme speed-up over the baseline (log colour scale centred on 1), winning set boxed."""
    import matplotlib.colors as mcolors
    from matplotlib.patches import Rectangle

    regimes = regime_order(spd["regime"].unique())
    schemes = (
        [baseline] + sorted(set(spd["scheme"]) - {baseline})
        if baseline in set(spd["scheme"])
        else sorted(set(spd["scheme"]))
    )
    mat = spd.pivot(index="regime", columns="scheme", values="speedup").reindex(index=regimes, columns=schemes)
    vals = mat.to_numpy(dtype=float)
    finite = vals[np.isfinite(vals)]
    span = max(abs(np.log2(finite)).max(), 0.05) if finite.size else 1.0
    norm = mcolors.LogNorm(vmin=2**-span, vmax=2**span)
    im = ax.imshow(np.where(np.isfinite(vals), vals, np.nan), cmap="RdBu", norm=norm, aspect="auto")
    lo = spd.pivot(index="regime", columns="scheme", values="ci_low").reindex(index=regimes, columns=schemes)
    hi = spd.pivot(index="regime", columns="scheme", values="ci_high").reindex(index=regimes, columns=schemes)
    win = winners.set_index(["regime", "scheme"])["in_winner_set"]
    for i, reg in enumerate(regimes):
        for j, sch in enumerate(schemes):
            v = vals[i, j]
            if np.isfinite(v):
                ci = "" if not np.isfinite(lo.iat[i, j]) else f"\n[{lo.iat[i, j]:.2f}, {hi.iat[i, j]:.2f}]"
                ax.text(
                    j,
                    i,
                    f"{v:.2f}{ci}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if abs(math.log2(v)) > 0.6 * span else "black",
                )
            if win.get((reg, sch), False):
                ax.add_patch(Rectangle((j - 0.48, i - 0.48), 0.96, 0.96, fill=False, lw=2.2, ec="black"))
    ax.set_xticks(range(len(schemes)), schemes, rotation=30, ha="right", fontsize=8)
    metric = spd.drop_duplicates("regime").set_index("regime")["metric"]
    ax.set_yticks(range(len(regimes)), [f"{r}\n({metric[r].replace('_', ' ')})" for r in regimes], fontsize=8)
    ax.set_xlabel("quantization scheme")
    ax.set_ylabel("regime (metric)")
    ax.grid(False)
    cb = ax.figure.colorbar(im, ax=ax, fraction=0.04, pad=0.02)
    cb.set_label(f"speed-up over {baseline} (x, >1 is better)")


def no_baseline_message(baseline: str) -> str:
    """Why the heatmap cannot be drawn (said both in the page and inside the placeholder figure)."""
    return f"The input has no runs of the baseline {baseline!r}, so no speed-up can be shown."


def plot_heatmap(spd: pd.DataFrame, winners: pd.DataFrame, baseline: str, alpha: float):
    """The heatmap as a Figure sized to the grid; without baseline runs, a figure that says why
    (the chapter's caption needs a figure either way)."""
    import matplotlib.pyplot as plt

    if baseline not in set(spd["scheme"]):
        fig, ax = plt.subplots(figsize=(6, 1))
        ax.axis("off")
        ax.text(0.5, 0.5, no_baseline_message(baseline), ha="center", va="center", fontsize=9)
        return fig
    n_schemes, n_regimes = spd["scheme"].nunique(), spd["regime"].nunique()
    fig, ax = plt.subplots(figsize=(1.3 * n_schemes + 3, 0.75 * n_regimes + 2))
    heatmap(ax, spd, winners, baseline)
    ax.set_title(f"Speed-up over {baseline} by regime (boxed: winning set, alpha={alpha})")
    fig.tight_layout()
    return fig


def precision(scheme: str) -> dict:
    """Bytes per weight and which tensor-core peak a scheme computes on (from its name)."""
    s = scheme.lower()
    if "w8a8" in s or "int8" in s:
        return {"bytes_per_weight": 1.0, "peak": "int8", "label": "int8 weights, int8 compute"}
    if "w8a16" in s or "fp8" in s:
        return {"bytes_per_weight": 1.0, "peak": "fp16", "label": "int8 weights, fp16 compute"}
    if "w4a16" in s or "awq4" in s or "int4" in s:
        return {"bytes_per_weight": 0.5, "peak": "fp16", "label": "int4 weights, fp16 compute"}
    return {"bytes_per_weight": 2.0, "peak": "fp16", "label": "16-bit weights and compute"}


def roofline_points(run_table: pd.DataFrame, params_b: float) -> pd.DataFrame:
    """Decode and prefill of each (regime, scheme) on a weights-only roofline.

    Decode step: 2 x params x batch FLOP over params x bytes_per_weight bytes, so the intensity is
    2 x batch / bytes_per_weight FLOP/byte; achieved = 2 x params x output_throughput. Prefill:
    intensity 2 x batch x input_len / bytes_per_weight, achieved = 2 x params x batch x input_len /
    implied TTFT. KV-cache bytes and attention FLOPs are left out (they matter at long context).
    """
    rows = []
    p = params_b * 1e9
    for (regime, scheme), g in run_table.groupby(["regime", "scheme"], sort=False):
        prec = precision(scheme)
        bs, inp = int(g["batch_size"].iloc[0]), int(g["input_len"].iloc[0])
        bpw = prec["bytes_per_weight"]
        dec = float(np.nanmean(g["output_throughput"]))
        ttft = float(np.nanmean(g["implied_ttft"]))
        rows.append(
            {
                "regime": regime,
                "scheme": scheme,
                "phase": "decode",
                "peak": prec["peak"],
                "precision": prec["label"],
                "intensity_flop_per_byte": 2 * bs / bpw,
                "achieved_tflops": 2 * p * dec / 1e12,
            }
        )
        if ttft > 0:
            rows.append(
                {
                    "regime": regime,
                    "scheme": scheme,
                    "phase": "prefill",
                    "peak": prec["peak"],
                    "precision": prec["label"],
                    "intensity_flop_per_byte": 2 * bs * inp / bpw,
                    "achieved_tflops": 2 * p * bs * inp / ttft / 1e12,
                }
            )
    return pd.DataFrame(rows)


def decision_table(winners: pd.DataFrame, spd: pd.DataFrame, baseline: str) -> pd.DataFrame:
    """Per regime: the metric, the recommended scheme (best mean), what it buys over the baseline
    (speed-up and CI), and the schemes statistically tied with it."""
    rows = []
    for regime in regime_order(winners["regime"].unique()):
        w = winners[winners["regime"] == regime].sort_values("rank")
        best = w.iloc[0]
        s = spd[(spd["regime"] == regime) & (spd["scheme"] == best["scheme"])]
        sp = s.iloc[0] if len(s) else None
        tied = [x for x in w.loc[w["in_winner_set"], "scheme"] if x != best["scheme"]]
        buys = "n/a (no baseline runs)"
        if sp is not None and np.isfinite(sp["speedup"]):
            buys = f"{sp['speedup']:.2f}x"
            if np.isfinite(sp["ci_low"]):
                buys += f" [{sp['ci_low']:.2f}, {sp['ci_high']:.2f}]"
        rows.append(
            {
                "regime": regime,
                "metric": best["metric"].replace("_", " "),
                "recommended": best["scheme"],
                f"vs {baseline}": buys,
                "statistically tied": ", ".join(tied) if tied else "none",
                "runs": int(best["n"]),
            }
        )
    return pd.DataFrame(rows)


def published_ranking(df: pd.DataFrame) -> pd.DataFrame:
    """The source's own ranking (by mean output throughput): regime, rank, scheme, value."""
    r = df[df["section"] == "ranking"].sort_values("line").copy()
    if r.empty:
        return pd.DataFrame(columns=["regime", "rank", "scheme", "value"])
    r["rank"] = r.groupby("regime").cumcount() + 1
    return r[["regime", "rank", "scheme", "value", "line"]].reset_index(drop=True)


def regime_table(shape: pd.DataFrame, ttft: pd.Series, metric_by_regime: dict) -> pd.DataFrame:
    """The shape of each regime with the metric that decides it and its median implied TTFT (ms)."""
    return shape.assign(
        metric=[metric_for(r, metric_by_regime, int(shape.loc[r, "batch_size"])) for r in shape.index],
        median_implied_ttft_ms=(1000 * ttft).round(1),
    )


def high_variance_sentence(ts: pd.Series) -> str:
    """What the flagged cells point at, from `timestamp_outliers`: one run's late TTFT timestamp
    when only output throughput is off, the runs themselves otherwise."""
    if ts.empty:
        return "No cell varies that much here."
    if ts.all():
        return (
            "In each flagged cell, one run's output throughput sits below the others while its latency and "
            "overall throughput are not flagged, which points at the TTFT timestamp of that run rather than "
            "at the GPU: output throughput is the one metric that depends on that timestamp."
        )
    return (
        f"In {int((~ts).sum())} of the {len(ts)} flagged cells latency or overall throughput vary too, "
        "so there the runs themselves differ, not only the TTFT timestamp that output throughput "
        "depends on."
    )


def published_comparison(sens: pd.DataFrame, pub: pd.DataFrame, winners: pd.DataFrame) -> tuple[pd.DataFrame, int, str]:
    """The sensitivity table with the source's first place beside it, how many regimes the source's
    first place differs from ours in, and those regimes as text (saying so when the input has no
    published ranking)."""
    if not len(pub):
        return sens, 0, "none (the input has no published ranking)"
    first = pub[pub["rank"] == 1].set_index("regime")["scheme"]
    ours = winners[winners["rank"] == 1].set_index("regime")["scheme"]
    differ = [r for r in first.index if r in ours.index and first[r] != ours[r]]
    return sens.assign(source_ranking=first.reindex(sens.index)), len(differ), ", ".join(differ) or "none"


def outlier_effect(winners: pd.DataFrame, winners_clean: pd.DataFrame) -> str:
    """Whether dropping the flagged runs changes any winning set, as the end of a sentence."""

    def members(w):
        return set(map(tuple, w.loc[w["in_winner_set"], ["regime", "scheme"]].to_numpy()))

    a, b = members(winners), members(winners_clean)
    if a == b:
        return "does not change any winning set"
    return f"changes the winning sets ({len(a ^ b)} regime/scheme memberships differ)"


def plot_quant_roofline(pts: pd.DataFrame, g, model_id: str):
    """Decode points of every regime on the GPU's 16-bit and int8 rooflines, prefill points ringed,
    each regime named at its fastest scheme."""
    import matplotlib.pyplot as plt

    from benchbook.analysis import roofline

    fig, ax = plt.subplots(figsize=(8, 5))
    dec = pts[pts["phase"] == "decode"]
    roofline.plot_roofline(ax, g, dec, hue_col="precision", xlim=(0.5, 100_000))
    x = np.logspace(np.log10(0.5), 5, 200)
    ax.plot(x, roofline.attainable_tflops(x, g, g.int8_tops), color="grey", lw=1.5, ls="--", label="int8 roofline")
    pre = pts[pts["phase"] == "prefill"]
    ax.scatter(
        pre["intensity_flop_per_byte"],
        pre["achieved_tflops"],
        facecolors="none",
        edgecolors="black",
        label="prefill (from implied TTFT)",
        zorder=3,
    )
    for r, grp in dec.groupby("regime"):
        top = grp.sort_values("achieved_tflops").iloc[-1]
        ax.annotate(
            r,
            (top["intensity_flop_per_byte"], top["achieved_tflops"]),
            textcoords="offset points",
            xytext=(4, 4),
            fontsize=7,
        )
    ax.set_ylabel("performance (TFLOP/s; int8 TOP/s)")
    ax.set_title(f"Decode steps of each regime on the {g.name} roofline ({model_id}, weights only)")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def prefill_sentence(pts: pd.DataFrame, ridge: float) -> str:
    """How many prefill points sit right of the ridge (compute-bound), for the roofline caption."""
    pre = pts[pts["phase"] == "prefill"]
    n_right = int((pre["intensity_flop_per_byte"] > ridge).sum())
    if n_right == len(pre):
        return "Prefill points sit right of the ridge."
    return f"{n_right} of {len(pre)} prefill points sit right of the ridge."


def w8a16_story(spd: pd.DataFrame, shape: pd.DataFrame, baseline: str) -> str:
    """The slowest w8a16 scheme's speed-up at the largest batch against the smallest: the
    cross-over the roofline explains, or what the input lacks to show it."""

    def slowest_w8a16(regime):
        s = spd[(spd["regime"] == regime) & spd["scheme"].str.contains("w8a16")]
        return s.sort_values("speedup").iloc[0] if len(s) and np.isfinite(s["speedup"]).any() else None

    small = shape.index[shape["batch_size"] == shape["batch_size"].min()][0]
    large = shape.index[shape["batch_size"] == shape["batch_size"].max()][-1]
    lo, hi = slowest_w8a16(small), slowest_w8a16(large)
    if baseline not in set(spd["scheme"]) or lo is None or hi is None or small == large:
        return "This input lacks the w8a16 schemes, the baseline or two batch sizes needed to show the cross-over."
    return (
        f"In this input the slowest w8a16 scheme, {hi['scheme']}, runs at {hi['speedup']:.2f}x "
        f"[{hi['ci_low']:.2f}, {hi['ci_high']:.2f}] of {baseline} in {large} "
        f"(batch {int(shape.loc[large, 'batch_size'])}), against {lo['speedup']:.2f}x for "
        f"{lo['scheme']} in {small} (batch {int(shape.loc[small, 'batch_size'])})."
    )
