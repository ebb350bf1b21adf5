"""N runs of one tool, number by number: which settings identify a measurement, each run's ratio to
a baseline, and the noise of that ratio from the tool's own spread.

A number in one run is matched with the number in another that has the same key settings, metric,
statistic and unit. Key settings are decided from the data, not per tool: a setting that varies
inside some run (batch size, TP) is a key; one that is constant inside every run (model, GPU,
build) describes the run; a text setting fully determined by the other keys (a section title
"TP 2" beside tp = 2) is dropped, so files that label sections differently still match.
Repetition indices (`rep`, `run`) are never keys: their rows are samples of one measurement.

The noise of a value is a standard deviation of single measurements, from (first that applies):
its samples (repetitions inside the run), the spread statistic the tool prints beside a mean
(llama-bench's ±, SGLang's sigma over runs; never below half the last printed digit), a
TGI-style min/max as range / 4, or the spread of
the same number over the given runs that declare identical settings (repeated runs). The noise of
a ratio is two combined relative deviations, 2 x sqrt((s_a/a)^2 + (s_b/b)^2); a ratio that differs
from 1 by no more is inside the noise. A value with none of these has no noise estimate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

#: Tidy columns that are never settings.
NOT_SETTINGS = {"tool", "source", "line", "metric", "statistic", "value", "unit", "note"}
#: Settings that number repetitions: rows that differ only in them are samples of one measurement.
REPEAT_COLUMNS = ("rep", "run")
#: Statistics that describe spread or a count: used as noise, never compared.
SPREAD_STATS = {"std", "count", "min", "max"}
#: Statistics that the tool's printed spread (std, min/max) belongs to.
CENTRAL_STATS = ("mean", "value")
_BASE = ["metric", "statistic", "unit"]


def settings_columns(df: pd.DataFrame) -> list[str]:
    """The setting columns of a tidy table that hold a value."""
    return [c for c in df.columns if c not in NOT_SETTINGS and df[c].notna().any()]


def as_key(s: pd.Series) -> pd.Series:
    """A column as comparable text (missing values become '', floats that are integers lose '.0')."""

    def one(v):
        if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
            return ""
        if isinstance(v, (float, np.floating)) and float(v).is_integer():
            return str(int(v))
        return str(v)

    return s.astype(object).map(one)


def choose_keys(*tables: pd.DataFrame) -> tuple[list[str], list[str]]:
    """(key settings, per-run settings) for tidy tables of one tool (see the module doc)."""
    cols = list(dict.fromkeys(c for t in tables for c in settings_columns(t) if c not in REPEAT_COLUMNS))
    keys, per_run = [], []
    for c in cols:
        varies = any(c in t and as_key(t[c]).nunique() > 1 for t in tables)
        (keys if varies else per_run).append(c)
    for c in list(keys):
        if any(c in t and pd.api.types.is_numeric_dtype(t[c]) for t in tables):
            continue
        rest = [k for k in keys if k != c]
        redundant = True
        for df in tables:
            if c not in df:
                continue
            t = pd.DataFrame({k: as_key(df[k]) for k in rest + _BASE if k in df})
            t["_c"] = as_key(df[c])
            if t.groupby([k for k in t.columns if k != "_c"], dropna=False)["_c"].nunique().max() > 1:
                redundant = False
                break
        if redundant and rest:
            keys.remove(c)
    return keys, per_run


def _one_run(df: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """One run's numbers by key: value (mean of its samples), n samples, spread s and its origin."""
    t = pd.DataFrame({k: as_key(df[k]) if k in df else "" for k in keys}, index=df.index)
    for c in _BASE:
        t[c] = df[c].astype(str).values
    t["value"] = pd.to_numeric(df["value"], errors="coerce").values
    t = t[t["value"].notna()]
    group = keys + _BASE
    g = t.groupby(group, dropna=False, sort=False)["value"].agg(value="mean", n="count", s="std").reset_index()
    g["s_from"] = np.where(g["n"] > 1, "samples", None)
    spread = g[g["statistic"].isin(SPREAD_STATS)]
    g = g[~g["statistic"].isin(SPREAD_STATS)].reset_index(drop=True)
    on = keys + ["metric", "unit"]
    wide = spread.pivot_table(index=on, columns="statistic", values="value", aggfunc="mean") if len(spread) else None
    if wide is not None and len(g):
        printed = g[on].merge(wide.reset_index(), on=on, how="left")
        central = g["statistic"].isin(CENTRAL_STATS).to_numpy() & g["s"].isna().to_numpy()
        if "std" in printed:
            use = central & printed["std"].notna().to_numpy()
            g.loc[use, "s"] = printed.loc[use, "std"].to_numpy()
            g.loc[use, "s_from"] = "std"
        if "min" in printed and "max" in printed:
            use = (
                central
                & g["s"].isna().to_numpy()
                & printed["min"].notna().to_numpy()
                & printed["max"].notna().to_numpy()
            )
            g.loc[use, "s"] = (printed.loc[use, "max"] - printed.loc[use, "min"]).to_numpy() / 4
            g.loc[use, "s_from"] = "min-max"
        printed_spread = g["s_from"].isin(["std", "min-max"])
        floor = [
            half_digit(v, sd) for v, sd in zip(g.loc[printed_spread, "value"], g.loc[printed_spread, "s"], strict=True)
        ]
        g.loc[printed_spread, "s"] = np.maximum(g.loc[printed_spread, "s"].to_numpy(), floor)
    return g


def half_digit(*printed: float) -> float:
    """Half a unit of the last digit the numbers are printed with: a spread printed as 0.00 beside
    15.49 is below 0.005, not zero, so it is taken as 0.005. The digits are the shortest that give
    the value back, written without an exponent (0.00005, which `repr` writes as 5e-05)."""
    decimals = 0
    for v in printed:
        text = np.format_float_positional(float(v), trim="-")
        if "." in text:
            decimals = max(decimals, len(text.split(".")[1].rstrip("0")))
    return 0.5 * 10.0 ** -min(decimals, 6)


@dataclass
class Aligned:
    """N runs of one tool, aligned: `values` has one row per run and matched number."""

    labels: list[str]
    keys: list[str]
    match: list[str]  # the keys every run fills: the ones numbers are matched on
    run_settings: pd.DataFrame  # setting, one column per label, differs
    values: pd.DataFrame  # keys..., metric, statistic, unit, run (index), value, n, s, s_from
    unmatched: pd.DataFrame  # keys..., metric, statistic, unit, run: numbers no other run has


def align(tables: list[pd.DataFrame], labels: list[str]) -> Aligned:
    """Match the numbers of `tables` (tidy tables of one tool, one per run) across runs."""
    keys, per_run = choose_keys(*tables)
    runs = [_one_run(t, keys) for t in tables]
    # a key some run never fills (a section title only one file has) cannot match: it only labels
    match = [k for k in keys if all((r[k] != "").any() for r in runs)]
    on = match + _BASE
    frames, odd = [], []
    for i, r in enumerate(runs):
        amb = r.duplicated(on, keep=False)  # a label-only key made these rows ambiguous: left unmatched
        frames.append(r[~amb].assign(run=i))
        odd.append(r[amb].assign(run=i))
    allv = pd.concat(frames, ignore_index=True)
    count = allv.groupby(on, dropna=False, sort=False)["run"].transform("nunique")
    values = allv[count > 1].reset_index(drop=True)
    unmatched = pd.concat([allv[count <= 1]] + odd, ignore_index=True)[keys + _BASE + ["run"]]
    setting_rows = []
    for c in per_run:
        vals = [", ".join(sorted(set(as_key(t[c])))) if c in t else "" for t in tables]
        setting_rows.append({"setting": c, **dict(zip(labels, vals, strict=True)), "differs": len(set(vals)) > 1})
    run_settings = pd.DataFrame(setting_rows, columns=["setting", *labels, "differs"])
    values = _repeat_noise(values, run_settings, labels, on)
    return Aligned(list(labels), keys, match, run_settings, values, unmatched)


def repeat_groups(run_settings: pd.DataFrame, labels: list[str]) -> list[int]:
    """For each run, the index of the first run that declares the same settings (its repeat group)."""
    sig = [tuple(run_settings[lab]) for lab in labels]
    return [sig.index(s) for s in sig]


def _repeat_noise(values: pd.DataFrame, run_settings, labels, on) -> pd.DataFrame:
    """Fill a missing spread from runs that declare identical settings (repeated runs)."""
    if values.empty:
        return values.assign(s_from=values["s_from"].astype(object))
    group = repeat_groups(run_settings, labels)
    v = values.assign(_g=[group[i] for i in values["run"]])
    spread = v.groupby(on + ["_g"], dropna=False)["value"].agg(_rs="std", _rn="count").reset_index()
    v = v.merge(spread, on=on + ["_g"], how="left")
    use = v["s"].isna() & (v["_rn"] > 1) & v["_rs"].notna()
    v.loc[use, "s"] = v.loc[use, "_rs"]
    v["s_from"] = v["s_from"].astype(object)
    v.loc[use, "s_from"] = "repeats"
    return v.drop(columns=["_g", "_rs", "_rn"])


def ratio_noise(a: float, sa: float | None, b: float, sb: float | None) -> float | None:
    """Two combined relative deviations of a / b; None when a side has no spread or is zero."""
    if sa is None or sb is None or not (np.isfinite(sa) and np.isfinite(sb)) or a == 0 or b == 0:
        return None
    return float(2 * math.hypot(sa / a, sb / b))


def against(al: Aligned, baseline: int) -> pd.DataFrame:
    """Each run's numbers against the baseline run's: value, baseline, ratio and noise per matched
    number (the baseline's own rows left out)."""
    v = al.values
    on = al.match + _BASE
    base = v[v["run"] == baseline][on + ["value", "s"]].rename(columns={"value": "baseline", "s": "s_baseline"})
    other = v[v["run"] != baseline]
    m = other.merge(base, on=on, how="inner")
    with np.errstate(divide="ignore", invalid="ignore"):
        m["ratio"] = np.where(m["baseline"] != 0, m["value"] / m["baseline"], np.nan)
    m["noise"] = [
        ratio_noise(a, None if pd.isna(sa) else sa, b, None if pd.isna(sb) else sb)
        for a, sa, b, sb in zip(m["value"], m["s"], m["baseline"], m["s_baseline"], strict=True)
    ]
    m["label"] = [al.labels[i] for i in m["run"]]
    cols = al.keys + _BASE + ["run", "label", "value", "s", "baseline", "s_baseline", "ratio", "noise", "n", "s_from"]
    return m[cols].sort_values(["run"], kind="stable").reset_index(drop=True)
