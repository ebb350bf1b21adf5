"""Quantization winners by workload regime: numbers only (per-run tables, winner sets, speed-ups
with confidence intervals, phase times, roofline coordinates, the device's peaks).

Input is the tidy table of the `sglang-quant-report` parser (a report or a result.jsonl). Every
statistic here is computed from the individual runs (section "run"), never from the printed means.

Statistics (all per regime, per scheme, over its n runs):

* winner set (`winner_sets`): the best scheme by mean of the regime's metric, plus every scheme
  whose mean a two-sided Welch t-test (scipy.stats.ttest_ind, equal_var=False) cannot tell from the
  best's at level alpha (p >= alpha). With n = 3 runs this is the honest answer to "who wins".
* speed-up over the baseline: ratio of means, oriented so that > 1 is better (baseline/scheme for
  latency, scheme/baseline for throughputs), with a confidence interval on the log ratio
  (delta method: var(log mean) = s^2 / (n mean^2); Welch-Satterthwaite degrees of freedom).
* phases: a run's prefill time is its implied TTFT (latency - bs x out / output throughput), its
  decode time the rest; a prefill pass multiplies bs x input_len tokens by every weight, a decode
  step bs tokens.

Figures, tables for display and sentences live in `benchbook.presentation.quant`, verdicts in
`benchbook.claims.quant`.
"""

from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from benchbook import hardware
from benchbook.analysis import roofline
from benchbook.ingest.sglang_quant import REGIMES
from benchbook.parameters import parse_outlier_rule

__all__ = ["parse_outlier_rule", "winner_sets"]

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


def excludable(flagged: pd.DataFrame) -> pd.DataFrame:
    """The flagged values that may be left out: those of cells with the timestamp signature
    (`timestamp_outliers`), where one run's output throughput alone is off. In a cell whose runs
    differ in latency too, the spread is real and every run is kept."""
    ts = timestamp_outliers(flagged)
    if flagged.empty:
        return flagged
    keep = [bool(ts.get((r, s), False)) for r, s in zip(flagged["regime"], flagged["scheme"], strict=True)]
    return flagged[keep]


def drop_outliers(run_table: pd.DataFrame, flagged: pd.DataFrame) -> pd.DataFrame:
    """The run table with each flagged run's value of the flagged metric set to NaN, and the implied
    TTFT too when it rests on that value (it is computed from latency and output throughput)."""
    out = run_table.copy()
    for _, f in flagged.iterrows():
        hit = (out["source"] == f["source"]) & (out["line"] == f["line"])
        out.loc[hit, f["metric"]] = np.nan
        if f["metric"] in RUN_METRICS:
            out.loc[hit, "implied_ttft"] = np.nan
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
    from scipy import stats  # here, not at the top: a report on another chapter's file need not import it

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
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))  # Welch: se > 0, so not 0 / 0
    from scipy import stats

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


def metric_dependent(run_table: pd.DataFrame, alpha: float = 0.05, metrics=RUN_METRICS) -> pd.Series:
    """Per regime, whether its winner depends on the metric beyond the noise: no scheme is in the
    winning set (the best, and every scheme a Welch test at `alpha` cannot tell from it) under every
    metric. Bests that differ between metrics while one scheme wins, within the noise, under all of
    them are a difference inside the noise."""
    sets: dict = {}
    for m in metrics:
        w = winner_sets(run_table, {r: m for r in run_table["regime"].unique()}, alpha)
        for regime, g in w.groupby("regime", sort=False):
            sets.setdefault(regime, []).append(set(g.loc[g["in_winner_set"], "scheme"]))
    out = {r: not set.intersection(*s) for r, s in sets.items()}
    return pd.Series(out, dtype=bool).reindex(regime_order(list(out)))


def shapes(run_table: pd.DataFrame) -> pd.DataFrame:
    """Batch size, input and output length per regime."""
    s = run_table.groupby("regime")[["batch_size", "input_len", "output_len"]].first()
    return s.loc[regime_order(s.index)]


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
    """Decode and prefill of each (regime, scheme) on a weights-only roofline, from the runs that
    are left (a flagged value set to NaN by `drop_outliers` stays out of every point).

    Decode step: 2 x params x batch FLOP over params x bytes_per_weight bytes, so the intensity is
    2 x batch / bytes_per_weight FLOP/byte; achieved = 2 x params x output_throughput, and the
    weights stream at params x bytes_per_weight x output_throughput / batch bytes/s. Prefill:
    intensity 2 x batch x input_len / bytes_per_weight, achieved = 2 x params x batch x input_len /
    implied TTFT. `*_std` columns are the standard deviation over runs (SGLang's sigma). KV-cache
    bytes and attention FLOPs are left out (they matter at long context).
    """
    rows = []
    p = params_b * 1e9
    for (regime, scheme), g in run_table.groupby(["regime", "scheme"], sort=False):
        prec = precision(scheme)
        bs, inp = int(g["batch_size"].iloc[0]), int(g["input_len"].iloc[0])
        bpw = prec["bytes_per_weight"]
        base = {"regime": regime, "scheme": scheme, "batch_size": bs, "peak": prec["peak"], "precision": prec["label"]}
        dec = g["output_throughput"].dropna().to_numpy(dtype=float)
        if len(dec):
            rows.append(
                {
                    **base,
                    "phase": "decode",
                    "tokens_per_pass": bs,
                    "n": len(dec),
                    "intensity_flop_per_byte": 2 * bs / bpw,
                    "achieved_tflops": 2 * p * dec.mean() / 1e12,
                    "achieved_tflops_std": 2 * p * _std(dec) / 1e12,
                    "weight_gb_s": p * bpw * dec.mean() / bs / 1e9,
                    "weight_gb_s_std": p * bpw * _std(dec) / bs / 1e9,
                }
            )
        ttft = g["implied_ttft"].to_numpy(dtype=float)
        rate = 2 * p * bs * inp / ttft[np.isfinite(ttft) & (ttft > 0)] / 1e12
        if len(rate):
            rows.append(
                {
                    **base,
                    "phase": "prefill",
                    "tokens_per_pass": bs * inp,
                    "n": len(rate),
                    "intensity_flop_per_byte": 2 * bs * inp / bpw,
                    "achieved_tflops": 2 * p * bs * inp / ttft[np.isfinite(ttft) & (ttft > 0)].mean() / 1e12,
                    "achieved_tflops_std": _std(rate),
                    "weight_gb_s": np.nan,
                    "weight_gb_s_std": np.nan,
                }
            )
    out = pd.DataFrame(rows, columns=ROOFLINE_COLUMNS)
    return out.astype({c: float for c in ROOFLINE_COLUMNS[7:]})


ROOFLINE_COLUMNS = [
    "regime",
    "scheme",
    "batch_size",
    "peak",
    "precision",
    "phase",
    "tokens_per_pass",
    "n",
    "intensity_flop_per_byte",
    "achieved_tflops",
    "achieved_tflops_std",
    "weight_gb_s",
    "weight_gb_s_std",
]


def _std(v: np.ndarray) -> float:
    return float(np.std(v, ddof=1)) if len(v) > 1 else np.nan


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


#: The scheme name of an unquantized model in qwen_quantization's driver (the default baseline).
DEFAULT_BASELINE = "original"


def choose_baseline(schemes, given: str = "") -> str:
    """The scheme speed-ups are measured against: `given`, else DEFAULT_BASELINE when the input has
    it, else "" (no baseline: no speed-up can be formed)."""
    if given:
        return given
    return DEFAULT_BASELINE if DEFAULT_BASELINE in set(schemes) else ""


def first_place_differs(pub: pd.DataFrame, winners: pd.DataFrame) -> list[str]:
    """Regimes where the source's first place (its own ranking) is not our best scheme."""
    if not len(pub):
        return []
    first = pub[pub["rank"] == 1].set_index("regime")["scheme"]
    ours = winners[winners["rank"] == 1].set_index("regime")["scheme"]
    return [r for r in first.index if r in ours.index and first[r] != ours[r]]


def membership_changes(winners: pd.DataFrame, winners_clean: pd.DataFrame) -> int:
    """How many (regime, scheme) winning-set memberships differ between two winner tables."""

    def members(w):
        return set(map(tuple, w.loc[w["in_winner_set"], ["regime", "scheme"]].to_numpy()))

    return len(members(winners) ^ members(winners_clean))


# --- phases: where a scheme gains or loses time -------------------------------------------------


def phase_ratios(run_table: pd.DataFrame, scheme: str, baseline: str, alpha: float = 0.05) -> pd.DataFrame:
    """Per regime and phase (prefill, decode, and the whole request as "total"): the baseline's mean
    time / the scheme's (> 1: the scheme is faster) with a (1 - alpha) interval, the tokens one
    forward pass multiplies by every weight (prefill: batch x input length; decode: batch), and
    both schemes' weights-only intensities (FLOP/byte)."""
    rows = []
    t = run_table.assign(
        prefill_s=run_table["implied_ttft"],
        decode_s=run_table["latency"] - run_table["implied_ttft"],
        total_s=run_table["latency"],
    )
    bpw_s, bpw_b = precision(scheme)["bytes_per_weight"], precision(baseline)["bytes_per_weight"]
    for regime in regime_order(t["regime"].unique()):
        a = t[(t["regime"] == regime) & (t["scheme"] == baseline)]
        b = t[(t["regime"] == regime) & (t["scheme"] == scheme)]
        if a.empty or b.empty:
            continue
        bs, inp = int(a["batch_size"].iloc[0]), int(a["input_len"].iloc[0])
        for phase, tokens in (("prefill", bs * inp), ("decode", bs), ("total", np.nan)):
            va = a[f"{phase}_s"].dropna().to_numpy(dtype=float)
            vb = b[f"{phase}_s"].dropna().to_numpy(dtype=float)
            va, vb = va[va > 0], vb[vb > 0]
            r, lo, hi = _log_ratio_ci(va, vb, 1 - alpha) if len(va) and len(vb) else (np.nan, np.nan, np.nan)
            rows.append(
                {
                    "regime": regime,
                    "phase": phase,
                    "batch_size": bs,
                    "tokens_per_pass": tokens,
                    "ratio": r,
                    "ci_low": lo,
                    "ci_high": hi,
                    "intensity": 2 * tokens / bpw_s,
                    "intensity_baseline": 2 * tokens / bpw_b,
                }
            )
    cols = ["regime", "phase", "batch_size", "tokens_per_pass", "ratio", "ci_low", "ci_high"]
    out = pd.DataFrame(rows, columns=[*cols, "intensity", "intensity_baseline"])
    return out.astype({c: float for c in ["ratio", "ci_low", "ci_high", "intensity", "intensity_baseline"]})


def weight_only_schemes(schemes) -> list[str]:
    """Schemes that store 8-bit weights but compute in 16 bits (w8a16), by name."""
    return sorted(s for s in set(schemes) if precision(s)["label"] == "int8 weights, fp16 compute")


def slowest_at_largest_batch(spd: pd.DataFrame, shape: pd.DataFrame, schemes) -> str | None:
    """Of `schemes`, the one with the lowest speed-up in the largest-batch regime (the one the
    question "why does it lose at large batch" is about); None when none has a speed-up there."""
    if shape.empty or not schemes:
        return None
    large = shape.index[shape["batch_size"] == shape["batch_size"].max()][-1]
    s = spd[(spd["regime"] == large) & spd["scheme"].isin(schemes) & np.isfinite(spd["speedup"])]
    return str(s.sort_values("speedup")["scheme"].iloc[0]) if len(s) else None


def decode_trend(ratios: pd.DataFrame) -> pd.DataFrame:
    """The decode-phase ratios per batch size (median over the regimes that share it), with the
    largest intensity of either scheme at that batch and the ratio's noise: the widest relative
    half-width of the regimes' intervals (`half_width`)."""
    d = ratios[(ratios["phase"] == "decode") & np.isfinite(ratios["ratio"])]
    cols = ["batch_size", "ratio", "intensity", "intensity_baseline", "n_regimes", "half_width"]
    if d.empty:
        return pd.DataFrame(columns=cols)
    d = d.assign(half_width=(d["ci_high"] - d["ci_low"]) / 2 / d["ratio"])
    return (
        d.groupby("batch_size")
        .agg(
            ratio=("ratio", "median"),
            intensity=("intensity", "max"),
            intensity_baseline=("intensity_baseline", "max"),
            n_regimes=("regime", "size"),
            half_width=("half_width", "max"),
        )
        .reset_index()[cols]
    )


def outlier_physics(run_table: pd.DataFrame, flagged: pd.DataFrame, params_b: float) -> pd.DataFrame:
    """Per flagged run (before exclusion): the prefill rate its values imply (2 x params x batch x
    input_len / implied TTFT, TFLOP/s) and the compute precision of its scheme."""
    rows = []
    for f in flagged.drop_duplicates(["source", "line"]).itertuples(index=False):
        r = run_table[(run_table["source"] == f.source) & (run_table["line"] == f.line)]
        if r.empty:
            continue
        r = r.iloc[0]
        ttft = float(r["implied_ttft"])
        rate = 2 * params_b * 1e9 * r["batch_size"] * r["input_len"] / ttft / 1e12 if ttft > 0 else np.nan
        rows.append(
            {
                "model": r["model"],
                "run": r["run"],
                "line": int(r["line"]),
                "metric": f.metric,
                "value": f.value,
                "implied_ttft": ttft,
                "implied_prefill_tflops": rate,
                "peak": precision(r["scheme"])["peak"],
            }
        )
    cols = ["model", "run", "line", "metric", "value", "implied_ttft", "implied_prefill_tflops", "peak"]
    return pd.DataFrame(rows, columns=cols)


# --- what the input says about where it ran, and the device's peaks ----------------------------

_ONE_GPU_EACH = re.compile(r"\bone gpu (?:per|for each) (?:model|scheme|variant|configuration)\b", re.I)
_SHARED_GPU = re.compile(r"\b(?:same|one|a single) gpu (?:for all|shared|for every)\b", re.I)


def manifest(path: Path) -> dict:
    """The raw file's manifest (`<name>.manifest.yml` beside it), or {} when it has none."""
    import yaml

    from benchbook import config

    m = Path(path).with_name(Path(path).stem + ".manifest.yml")
    if not m.is_file():
        return {}
    config.log_read(m)
    return yaml.safe_load(m.read_text(encoding="utf-8")) or {}


def placement(meta: dict) -> dict:
    """What the input's manifest says about the hardware: the text, and whether every scheme ran
    on its own GPU (True), all on one (False) or it does not say (None)."""
    hw = str(meta.get("hardware") or "")
    own = True if _ONE_GPU_EACH.search(hw) else (False if _SHARED_GPU.search(hw) else None)
    return {"hardware": hw or None, "own_gpu_each": own}


def count_said(path) -> dict:
    """How many GPUs the file says the run had, by the one absence rule (`context.states` for
    `device_count`, then `visible_devices`): `count_status` "stated" (`count_value`, the first count, and
    `count_line`, `count_text`; `count_values` every count it states), "unread" (a line that speaks of
    GPUs without a count: `count_line`, `count_text`) or "absent", the only status on which a page may say
    the input does not say whether the schemes ran on one GPU or each on its own."""
    from benchbook import ingest
    from benchbook.analysis.serving import _quoted
    from benchbook.ingest import context

    ctx = ingest.context_of(path)
    said = context.states(ctx, "device_count")
    if said.status == "absent":
        said = context.states(ctx, "visible_devices")
    if said.facts:
        f = said.facts[0]
        values = sorted({int(g.value) for g in said.facts})
        return {"count_status": "stated", "count_value": int(f.value), "count_values": values} | {
            "count_line": f.line,
            "count_text": _quoted(f.text),
        }
    if said.status == "unread":
        return {"count_status": "unread", "count_line": said.line, "count_text": _quoted(said.sign.text)}
    return {"count_status": "absent"}


def stated_devices(text: str) -> dict:
    """The device the file names around its tables (`roofline.named`: a heading, a hardware line, a
    sentence; a line comparing devices names none), its line and how many the run spans (1 where not
    stated); one the hardware table lacks is named as written: where no manifest records the hardware,
    it is the run's."""
    found = roofline.named([text])
    fact = found.fact if found.device else found.unlisted
    return {
        "stated": [str(fact.value)] if fact is not None else [],
        "stated_lines": [fact.line] if fact is not None else [],
        "stated_count": int(found.count or 1) if found.device else 1,
    }


def device_texts(where: dict) -> list[str]:
    """What names the run's device for its roofline: the manifest's hardware, else the devices the file
    states where the run spans one of them. A run over several devices is not set against one device's
    roofs (its bytes and FLOPs are split over them), so the file's devices then place nothing."""
    if where.get("hardware"):
        return [where["hardware"]]
    return list(where.get("stated") or []) if where.get("stated_count", 1) <= 1 else []


def peaks(gpu: str = "", texts=(), peak_tflops: float = 0.0, peak_bandwidth_gb_s: float = 0.0) -> roofline.Peaks | None:
    """`gpu` (table name or alias) when given, else the device the texts (the manifest's hardware)
    name (`benchbook.hardware.choose`), else None: a page about someone else's run assumes no
    device. `peak_tflops` / `peak_bandwidth_gb_s` above 0 replace the table's figures (source
    `parameter`; a replaced 16-bit peak leaves the int8 peak unknown); given without a named device,
    they need the bandwidth (`hardware.choose`)."""
    found = [str(t) for t in texts if t]
    choice = hardware.choose(
        gpu or None,
        detected=found or None,
        bandwidth_gb_s=peak_bandwidth_gb_s or None,
        peak_tflops=peak_tflops or None,
    )
    if choice is None:
        return None
    d = choice.device
    tflops = {"bf16": d.peak("bf16")} | ({"int8": d.int8_tops} if d.int8_tops and not peak_tflops else {})
    return roofline.Peaks(d.name, float(d.bandwidth_gb_s), tflops, choice.source)


def model_size(model_id: str = "", texts=()) -> tuple[float | None, str | None, str | None]:
    """(billions of parameters a token passes through, i.e. active ones for an MoE; model name;
    "parameter" or "detected") for `model_id` when given, else the first of `texts` (e.g. the
    manifest's model) whose size is known; (None, None, None) when neither names one."""
    cands = [(model_id, "parameter")] if model_id else [(t, "detected") for t in texts if t]
    for name, source in cands:
        size = hardware.model_size(str(name))
        if size is not None and size.active_b:
            return float(size.active_b), str(name).split(" (")[0], source
    return None, None, None


# --- against the baseline, per regime -------------------------------------------------------------


def int8_compute_schemes(schemes) -> list[str]:
    """Schemes that store 8-bit weights and multiply on the int8 tensor cores (w8a8), by name."""
    return sorted(s for s in set(schemes) if precision(s)["peak"] == "int8")


def best_against_baseline(
    run_table: pd.DataFrame, metric_by_regime: dict, baseline: str, schemes, alpha: float = 0.05
) -> pd.DataFrame:
    """Per regime where the baseline and any of `schemes` ran: the one of `schemes` with the best
    mean by the regime's metric, its speed-up over the baseline (> 1 is better) with a (1 - alpha)
    interval, and the two-sided Welch p-value of its runs against the baseline's."""
    cols = ["regime", "batch_size", "scheme", "metric", "speedup", "ci_low", "ci_high", "p"]
    cs = cell_stats(run_table, metric_by_regime) if len(run_table) else pd.DataFrame()
    rows = []
    for regime in regime_order(cs["regime"].unique()) if len(cs) else []:
        g = cs[(cs["regime"] == regime) & (cs["n"] > 0)]
        base, cand = g[g["scheme"] == baseline], g[g["scheme"].isin(list(schemes))]
        if base.empty or cand.empty:
            continue
        lower = bool(cand["lower_is_better"].iloc[0])
        best = cand.sort_values("mean", ascending=lower).iloc[0]
        b, v = base["values"].iloc[0], best["values"]
        s, lo, hi = _log_ratio_ci(b, v, 1 - alpha) if lower else _log_ratio_ci(v, b, 1 - alpha)
        rows.append(
            {
                "regime": regime,
                "batch_size": int(run_table.loc[run_table["regime"] == regime, "batch_size"].iloc[0]),
                "scheme": best["scheme"],
                "metric": best["metric"],
                "speedup": s,
                "ci_low": lo,
                "ci_high": hi,
                "p": _welch_p(v, b),
            }
        )
    return pd.DataFrame(rows, columns=cols)


def crossover_batch(trend: pd.DataFrame) -> float | None:
    """The batch at which a decode ratio (`decode_trend`) first falls through 1, interpolated
    linearly in log batch between the last batch above 1 and the first below; None when it never
    crosses."""
    pts = trend[["batch_size", "ratio"]].dropna().sort_values("batch_size").to_numpy(dtype=float)
    for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
        if y0 >= 1 > y1:
            return float(math.exp(math.log(x0) + (math.log(x1) - math.log(x0)) * (y0 - 1) / (y0 - y1)))
    return None


# --- the lesson: what 8-bit weights change, on a roofline -----------------------------------------

#: The device the lesson works its numbers on when the input names none (said so on the page).
EXAMPLE_DEVICE = "A100-SXM4-80GB"


def step_seconds(batch, bytes_per_weight: float, tflops: float, bandwidth_gb_s: float):
    """Roofline time of one decode step, per weight: the larger of reading the weight (its bytes
    over the bandwidth) and the 2 x batch FLOPs that multiply it (over the compute peak)."""
    b = np.asarray(batch, dtype=float)
    return np.maximum(bytes_per_weight / (bandwidth_gb_s * 1e9), 2 * b / (tflops * 1e12))


def ideal_speedups(batch, tflops: float, int8_tops: float | None, bandwidth_gb_s: float) -> dict:
    """bf16 step time / scheme step time at each batch, on the roofline alone (no dequantisation
    cost): w8a16 reads 1 byte per weight and multiplies at the 16-bit peak; w8a8 reads 1 byte and
    multiplies at the int8 peak (absent when the device lists none)."""
    bf16 = step_seconds(batch, 2.0, tflops, bandwidth_gb_s)
    out = {"w8a16": bf16 / step_seconds(batch, 1.0, tflops, bandwidth_gb_s)}
    if int8_tops:
        out["w8a8"] = bf16 / step_seconds(batch, 1.0, int8_tops, bandwidth_gb_s)
    return out


@dataclass(frozen=True)
class Lesson:
    """The lesson's numbers on one device: its peaks, the ridge, and the batches at which 8-bit
    weights stop paying: w8a16 gains the full 2x up to batch ridge / 2 (its 1-byte weights reach the
    ridge at intensity 2 x batch), then ridge / batch, and nothing from batch = ridge (bf16 reaches
    it too); w8a8 keeps 2x while the int8 peak is twice the 16-bit one. `example` when the input
    names no device and the lesson uses EXAMPLE_DEVICE."""

    device: str
    tflops: float
    int8_tops: float | None
    bandwidth_gb_s: float
    example: bool

    @property
    def ridge(self) -> float:
        return roofline.ridge(self.tflops, self.bandwidth_gb_s)

    @property
    def full_gain_until(self) -> float:
        return self.ridge / 2

    @property
    def no_gain_from(self) -> float:
        return self.ridge

    @property
    def int8_ratio(self) -> float | None:
        return self.int8_tops / self.tflops if self.int8_tops else None


def lesson(peaks: roofline.Peaks | None) -> Lesson:
    """The lesson on the run's device when one is named (and has a 16-bit peak), else on
    EXAMPLE_DEVICE, marked as an example."""
    if peaks is not None and peaks.dense_tflops:
        return Lesson(peaks.device, peaks.dense_tflops, peaks.int8_tops, peaks.bandwidth_gb_s, False)
    d = hardware.device(EXAMPLE_DEVICE)
    return Lesson(d.name, float(d.peak("bf16")), d.int8_tops, float(d.bandwidth_gb_s), True)
