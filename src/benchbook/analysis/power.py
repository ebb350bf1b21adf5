"""Throughput and energy under GPU power limits (llama-bench runs repeated at several limits).

Numbers only: the claims built from them live in `benchbook.claims.power`, the figures and
sentences in `benchbook.presentation.power`.

Energy per token. The sources give the power *limit* (`nvidia-smi -pl`), not the power the card
drew: the card draws at most its limit, so `limit / tokens per second` is an upper bound on the
energy per token, never an estimate, and two such bounds cannot be compared (a ratio of upper
bounds says nothing about which limit costs less). llama-bench's rate is the mean of the
repetitions' rates, which exceeds tokens / total time whenever they vary (AM >= HM), so the bound
divides by the lowest tokens / total time the printed mean, spread and repetitions allow
(`slowest_rate`); with per-repetition samples (`-o json`) it divides by tokens / total time itself.
A measured mean draw per limit (a CSV with `power_limit_w`, `power_w`, optional `test`) turns the
row into an estimate: draw / rate, uncertain by the rate's standard error.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook import config
from benchbook.analysis import envelope, pareto
from benchbook.analysis.bandwidth import pooled_std

RATE_METRICS = ("pp_rate", "tg_rate", "pg_rate")

#: llama-bench's default repetitions (`-r 5`), assumed where the output holds no per-repetition samples.
DEFAULT_REPS = 5
#: Standard errors a difference must exceed to count (about a 95 % two-sided band).
NOISE_Z = 2.0

#: llama-bench settings this chapter does not model. When a model was run with several values of
#: them, one combination is kept by `hold_fixed`'s rule (never by row order).
SWEPT = (
    "model_file",
    "backend",
    "gpu",
    "ngl",
    "threads",
    "n_cpu_moe",
    "fa",
    "type_k",
    "type_v",
    "n_batch",
    "n_ubatch",
    "extra_settings",
    "build",
)

#: The rule `hold_fixed` applies, for the page.
HOLD_RULE = (
    "the combination of settings run at the most power limits; among equals, the fastest "
    "(highest mean rate relative to each test's best, averaged over its rows)"
)


def _rates(df: pd.DataFrame) -> pd.DataFrame:
    return df[df["metric"].isin(RATE_METRICS) & df["power_limit_w"].notna()]


def pick_model(df: pd.DataFrame) -> str | None:
    """The model run at the most distinct power limits (None if no row has a limit); ties go to the
    model with more rows at those limits, then to the name (never to row order)."""
    d = _rates(df)
    if d.empty:
        return None
    g = d.groupby("model", dropna=True)
    score = pd.DataFrame({"limits": g["power_limit_w"].nunique(), "rows": g.size()})
    score = score.reset_index().sort_values(["limits", "rows", "model"], ascending=[False, False, True])
    return str(score["model"].iloc[0]) if len(score) else None


def _config_key(d: pd.DataFrame) -> pd.Series:
    cols = [c for c in SWEPT if c in d.columns]
    return d[cols].astype("string").fillna("-").agg(" | ".join, axis=1)


def swept_settings(df: pd.DataFrame, model: str | None) -> dict[str, list]:
    """{setting: sorted distinct values} for each setting in SWEPT that takes more than one value
    among `model`'s rate rows with a power limit (empty when nothing is swept)."""
    d = _rates(df)
    d = d[d["model"] == model] if model is not None else d
    out = {}
    for c in SWEPT:
        if c in d.columns:
            vals = d[c].dropna().unique().tolist()
            if len(vals) > 1:
                out[c] = sorted(vals, key=lambda v: (isinstance(v, str), v))
    return out


def hold_fixed(df: pd.DataFrame, model: str | None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(rows of the kept settings combination, a table of every combination) for `model`'s rate rows
    with a power limit, by HOLD_RULE. The table has one row per combination: the swept settings,
    n_limits, score, kept."""
    d = _rates(df)
    if model is not None:
        d = d[d["model"] == model]
    swept = list(swept_settings(df, model))
    if d.empty:
        return d, pd.DataFrame(columns=swept + ["n_limits", "score", "kept"])
    d = d.assign(_cfg=_config_key(d))
    means = d[d["statistic"] == "mean"]
    best = means.groupby("test")["value"].transform("max")
    rel = (means["value"] / best).groupby(means["_cfg"]).mean()
    n_lim = d.groupby("_cfg")["power_limit_w"].nunique()
    table = pd.DataFrame({"n_limits": n_lim, "score": rel.reindex(n_lim.index)}).reset_index()
    first = d.drop_duplicates("_cfg").set_index("_cfg")
    for c in swept:
        table[c] = table["_cfg"].map(first[c])
    table = table.sort_values(["n_limits", "score", "_cfg"], ascending=[False, False, True]).reset_index(drop=True)
    keep = table["_cfg"].iloc[0]
    table["kept"] = table["_cfg"] == keep
    kept = d[d["_cfg"] == keep].drop(columns="_cfg")
    return kept, table[swept + ["n_limits", "score", "kept"]]


def rate_table(df: pd.DataFrame, model: str | None = None) -> pd.DataFrame:
    """One row per (test, power limit): the mean and std rate (tok/s) as printed, CV = std / mean,
    the number of repetitions (the samples' count, else the command line's -r, else DEFAULT_REPS with
    `reps_assumed`), the
    relative standard error of the mean `se` = CV / sqrt(n_reps) and, when there are samples,
    tokens / total time (their harmonic mean, `time_rate`). A setting the sweep names twice
    (`sweep_repeat`) is one row: the mean of its printed means, the pooled standard deviation of all
    their repetitions (`analysis.bandwidth.pooled_std`). Rows without a power limit are dropped;
    pass rows already reduced by `hold_fixed` when the model was swept over other settings.

    Columns: model, test, metric, power_limit_w, n_depth, mean, std, cv, n_reps, reps_assumed, se,
    time_rate, line.
    """
    keys = ["model", "test", "metric", "power_limit_w"]
    cols = keys + ["n_depth", "mean", "std", "cv", "n_reps", "reps_assumed", "se", "time_rate", "line"]
    d = _rates(df)
    if model is not None:
        d = d[d["model"] == model]
    stats = d[d["statistic"].isin(["mean", "std"])]
    if stats.empty:
        return pd.DataFrame(columns=cols)
    # a sweep that names a setting twice (`sweep_repeat` 1, 2, ...) prints it twice: repeats, averaged
    # with the spread of all their repetitions, never the first one picked
    stats = stats.assign(_repeat=stats["sweep_repeat"].fillna(0) if "sweep_repeat" in stats else 0)
    each = stats.pivot_table(
        index=keys + ["_repeat"], columns="statistic", values="value", aggfunc="first", dropna=False
    )
    each = each.reindex(columns=["mean", "std"]).dropna(subset=["mean"]).reset_index()
    if each.empty:  # spreads without the mean they are of: no rate
        return pd.DataFrame(columns=cols)
    wide = (
        each.groupby(keys, sort=False, dropna=False)
        .apply(
            lambda g: pd.Series(
                {
                    "mean": g["mean"].mean(),
                    "std": pooled_std(g["mean"].to_numpy(float), g["std"].to_numpy(float)),
                    "repeats": len(g),
                }
            ),
            include_groups=False,
        )
        .reset_index()
    )
    first = stats[stats["statistic"] == "mean"].groupby(keys)[["line", "n_depth"]].first().reset_index()
    wide = wide.merge(first, on=keys, how="left")
    samples = d[(d["statistic"] == "value") & (d["value"] > 0)].groupby(keys)["value"]
    reps = pd.DataFrame({"n_reps": samples.count(), "time_rate": samples.apply(lambda v: len(v) / (1 / v).sum())})
    wide = wide.merge(reps.reset_index(), on=keys, how="left")
    if "n_reps" in d:  # the command line's -r: how many repetitions each printed mean is of
        means = d[d["statistic"] == "mean"]
        asked = pd.to_numeric(means.groupby(keys)["n_reps"].first(), errors="coerce").astype("float64")
        wide = wide.merge(asked.rename("_asked").reset_index(), on=keys, how="left")
        wide["n_reps"] = wide["n_reps"].astype("float64").fillna(wide["_asked"].astype("float64") * wide["repeats"])
    wide["reps_assumed"] = wide["n_reps"].isna()
    wide["n_reps"] = wide["n_reps"].fillna(DEFAULT_REPS * wide["repeats"]).astype(int)
    wide["cv"] = wide["std"] / wide["mean"]
    wide["se"] = wide["cv"] / np.sqrt(wide["n_reps"])
    wide["n_depth"] = pd.to_numeric(wide["n_depth"], errors="coerce").fillna(0)
    wide = wide.dropna(subset=["mean"])
    return wide.sort_values(["test", "power_limit_w"], ascending=[True, False]).reset_index(drop=True)[cols]


def load_measured(path) -> pd.DataFrame:
    """A measured-power table: CSV with `power_limit_w`, `power_w` (mean draw, W), optional `test`."""
    p = config.resolve(path)
    config.log_read(p)
    m = pd.read_csv(p)
    missing = {"power_limit_w", "power_w"} - set(m.columns)
    if missing:
        raise ValueError(
            f"{p.name}: measured-power table needs columns power_limit_w and power_w (missing {sorted(missing)})"
        )
    return m


def slowest_rate(mean, std, n) -> float:
    """The lowest tokens / total time (the harmonic mean of the repetitions' rates) that n
    repetitions with this printed mean and sample standard deviation allow: one repetition as slow
    as the spread permits, mean - std (n - 1) / sqrt(n), the others equal at mean + std / sqrt(n).
    NaN when that slowest repetition would not be positive (the spread allows a stall: no bound)."""
    mean, std, n = float(mean), float(std) if std is not None and np.isfinite(std) else 0.0, int(n)
    if n < 2 or std == 0:
        return mean
    low, high = mean - std * (n - 1) / np.sqrt(n), mean + std / np.sqrt(n)
    if low <= 0:
        return float("nan")
    return float(n / (1 / low + (n - 1) / high))


def energy(table: pd.DataFrame, measured: pd.DataFrame | None = None) -> pd.DataFrame:
    """Add energy per token to a rate table.

    power_w: the measured mean draw where `measured` gives one for the row, else the limit;
    power_source: "measured" or "limit"; `bound`: True where power_w is the limit, so j_per_tok is an
    upper bound (power / the slowest tokens per second the row allows: tokens / total time from the
    samples, else `slowest_rate`); for a measured draw j_per_tok = power / rate is an estimate.
    rate: tokens / total time when samples exist, else the printed mean; rate_basis: "samples" or
    "mean of repetitions"; tok_per_j the inverse of j_per_tok; rel_uncertainty: the relative
    standard error of the rate (`se`); averaging_bias: CV squared, how far the printed mean of rates
    can exceed tokens / total time (0 when samples were used).
    """
    t = table.copy()
    t["power_w"] = t["power_limit_w"].astype(float)
    t["power_source"] = "limit"
    if measured is not None and len(measured):
        on = ["power_limit_w", "test"] if "test" in measured.columns else ["power_limit_w"]
        m = measured[on + ["power_w"]].rename(columns={"power_w": "_measured"}).copy()
        m["power_limit_w"] = m["power_limit_w"].astype(float)
        t = t.merge(m, on=on, how="left")
        hit = t["_measured"].notna()
        t.loc[hit, "power_w"] = t.loc[hit, "_measured"]
        t.loc[hit, "power_source"] = "measured"
        t = t.drop(columns="_measured")
    has_samples = t["time_rate"].notna() if "time_rate" in t else pd.Series(False, index=t.index)
    t["rate"] = np.where(has_samples, t.get("time_rate"), t["mean"]).astype(float)
    t["rate_basis"] = np.where(has_samples, "samples", "mean of repetitions")
    slowest = [
        r["rate"] if s else slowest_rate(r["mean"], r["std"], r["n_reps"])
        for (_, r), s in zip(t.iterrows(), has_samples, strict=True)
    ]
    t["bound"] = t["power_source"] == "limit"
    t["j_per_tok"] = np.where(t["bound"], t["power_w"] / np.asarray(slowest, dtype=float), t["power_w"] / t["rate"])
    t["tok_per_j"] = 1 / t["j_per_tok"]
    t["rel_uncertainty"] = t["se"].astype(float)
    t["averaging_bias"] = np.where(has_samples, 0.0, t["cv"].astype(float) ** 2)
    return t


def combined_noise(*ses) -> float | None:
    """The band a ratio of independent means must leave to count as a difference: NOISE_Z times the
    root sum of squares of their relative standard errors; None when any is unknown."""
    vals = [float(c) for c in ses if c is not None and not pd.isna(c)]
    if len(vals) < len(ses) or not all(np.isfinite(vals)):
        return None
    return float(NOISE_Z * np.sqrt(sum(v * v for v in vals)))


def quoted_tests(table: pd.DataFrame) -> dict[str, str | None]:
    """The tests the chapter quotes: "pp" the plain prompt-processing test (no +tg), "tg" the
    generation test; each the one at the most power limits, then at the smallest depth, then by
    name. None where the input lacks one."""
    out = {}
    for kind in ("pp", "tg"):
        g = table[table["metric"] == f"{kind}_rate"] if len(table) else table
        if g.empty:
            out[kind] = None
            continue
        s = g.groupby("test").agg(n=("power_limit_w", "nunique"), depth=("n_depth", "min")).reset_index()
        s = s.sort_values(["n", "depth", "test"], ascending=[False, True, True])
        out[kind] = str(s["test"].iloc[0])
    return out


def has_power(table: pd.DataFrame) -> bool:
    """Whether the table has the two or more power limits every comparison here needs."""
    return len(table) > 0 and table["power_limit_w"].nunique() >= 2


def sweet_spot(table: pd.DataFrame, fraction: float = 0.95) -> pd.DataFrame:
    """Per test: the lowest power limit whose mean rate is still >= `fraction` x the test's peak
    (the fraction-of-peak rule, `pareto.fraction_of_peak`), and how much the curve drops over the
    whole range (`drop` = 1 - lowest-limit rate / peak: a curve that drops less than 1 - fraction
    has no sweet spot inside the measured range).

    Columns: test, peak, peak_limit_w, sweet_limit_w, sweet_mean, sweet_cv, retained, saving_w,
    drop, n_limits.
    """
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction must be in (0, 1], got {fraction}")
    cols = ["test", "peak", "peak_limit_w", "sweet_limit_w", "sweet_mean", "sweet_cv", "retained", "saving_w"]
    cols += ["drop", "n_limits"]
    rows = []
    for test, g in table.groupby("test", sort=True):
        g = g.dropna(subset=["mean"])
        if g.empty:
            continue
        top = g.loc[g["mean"].idxmax()]
        best = g.iloc[pareto.fraction_of_peak(g["power_limit_w"], g["mean"], fraction)]
        low = g.loc[g["power_limit_w"].idxmin()]
        rows.append(
            {
                "test": test,
                "peak": float(top["mean"]),
                "peak_limit_w": float(top["power_limit_w"]),
                "sweet_limit_w": float(best["power_limit_w"]),
                "sweet_mean": float(best["mean"]),
                "sweet_cv": float(best["cv"]) if pd.notna(best.get("cv")) else np.nan,
                "retained": float(best["mean"] / top["mean"]),
                "saving_w": float(g["power_limit_w"].max() - best["power_limit_w"]),
                "drop": float(1 - low["mean"] / top["mean"]),
                "n_limits": int(g["power_limit_w"].nunique()),
            }
        )
    return pd.DataFrame(rows, columns=cols)


def pareto_frontier(x, y) -> np.ndarray:
    """Mask of the points not dominated when maximising `x` (throughput) and minimising `y`
    (energy per token)."""
    return pareto.frontier(x, y, maximise=(True, False))


def pareto_by_test(table: pd.DataFrame, y: str = "j_per_tok") -> np.ndarray:
    """Pareto mask (max mean rate, min `y`) computed within each test, aligned with `table`'s rows."""
    mask = np.zeros(len(table), dtype=bool)
    pos = {idx: i for i, idx in enumerate(table.index)}
    for _, g in table.groupby("test", sort=False):
        m = pareto_frontier(g["mean"], g[y])
        for idx, keep in zip(g.index, m, strict=True):
            mask[pos[idx]] = keep
    return mask


def clearly_dominated(table: pd.DataFrame, y: str = "j_per_tok") -> np.ndarray:
    """Mask of the rows that another limit of the same test clearly dominates: not slower and not
    costlier beyond the two rows' noise (`combined_noise` of their standard errors), and better
    beyond it on at least one axis. A point off the Pareto set on the means but not clearly
    dominated cannot be ranked by this data."""
    out = np.zeros(len(table), dtype=bool)
    pos = {idx: i for i, idx in enumerate(table.index)}
    for _, g in table.groupby("test", sort=False):
        for i, a in g.iterrows():
            for j, b in g.iterrows():
                noise = None if i == j else combined_noise(a["se"], b["se"])
                if noise is None:
                    continue
                faster, slower = b["mean"] > a["mean"] * (1 + noise), b["mean"] < a["mean"] * (1 - noise)
                cheaper, costlier = b[y] < a[y] * (1 - noise), b[y] > a[y] * (1 + noise)
                if not slower and not costlier and (faster or cheaper):
                    out[pos[i]] = True
                    break
    return out


def knee(x, y) -> tuple[float | None, float]:
    """The knee of a curve y(x) by Kneedle (after scaling both axes to [0, 1], the point farthest
    from the straight line joining the first and last points) and that distance, the rule's
    strength (0 for a straight line; about 0.7 for a right angle). (None, 0.0) with fewer than
    three points or a flat curve."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if len(x) < 3:
        return None, 0.0
    order = np.argsort(x)
    x, y = x[order], y[order]
    xr, yr = np.ptp(x), np.ptp(y)
    if xr == 0 or yr == 0:
        return None, 0.0
    xn, yn = (x - x[0]) / xr, (y - y.min()) / yr
    x0, y0, x1, y1 = xn[0], yn[0], xn[-1], yn[-1]
    dist = np.abs((y1 - y0) * xn - (x1 - x0) * yn + x1 * y0 - y1 * x0) / np.hypot(x1 - x0, y1 - y0)
    i = int(np.argmax(dist))
    if dist[i] <= 1e-12:
        return None, 0.0
    return float(x[i]), float(dist[i])


def knee_noise(x, y, se, at) -> float | None:
    """How far from the chord noise alone could put the point at `at`, in Kneedle's units (both axes
    scaled to 0-1, distance perpendicular to the chord): NOISE_Z combined standard errors of the
    point's rate and of the chord's value there (interpolated between the end points' rates),
    scaled like the strength. `se` holds each rate's absolute standard error. None without them."""
    x, y, se = (np.asarray(v, dtype=float) for v in (x, y, se))
    order = np.argsort(x)
    x, y, se = x[order], y[order], se[order]
    if at is None or len(x) < 3 or not np.isfinite(se).all() or np.ptp(x) == 0 or np.ptp(y) == 0:
        return None
    i = int(np.flatnonzero(x == at)[0])
    w = (x[i] - x[0]) / (x[-1] - x[0])
    chord_se = np.hypot((1 - w) * se[0], w * se[-1])
    vertical = NOISE_Z * float(np.hypot(se[i], chord_se)) / np.ptp(y)
    rise = (y[-1] - y[0]) / np.ptp(y)
    return float(vertical / np.hypot(1.0, rise))


def knees(table: pd.DataFrame) -> dict[str, tuple[float | None, float, float | None]]:
    """The knee of mean rate vs power limit, its strength and the part of it noise could make
    (`knee_noise`), per test."""
    out = {}
    for t, g in table.groupby("test", sort=True):
        x, strength = knee(g["power_limit_w"], g["mean"])
        out[t] = (x, strength, knee_noise(g["power_limit_w"], g["mean"], g["se"] * g["mean"], x))
    return out


def row_at(table: pd.DataFrame, test: str | None, limit_w: float | None) -> pd.Series | None:
    """The rate-table row of `test` at `limit_w` (None if that test or limit was not run)."""
    if test is None or limit_w is None or table.empty:
        return None
    hit = table[(table["test"] == test) & (table["power_limit_w"] == limit_w)]
    return hit.iloc[0] if len(hit) else None


def peak_row(table: pd.DataFrame, test: str | None) -> pd.Series | None:
    """The row of `test` with the highest mean rate (None without the test)."""
    g = table[table["test"] == test] if test is not None and len(table) else table.iloc[0:0]
    return g.loc[g["mean"].idxmax()] if len(g) else None


def retained_at(table: pd.DataFrame, test: str, limit_w: float) -> float | None:
    """Mean rate at `limit_w` as a fraction of the test's peak (None if that limit was not run)."""
    r, top = row_at(table, test, limit_w), peak_row(table, test)
    return None if r is None or top is None else float(r["mean"] / top["mean"])


def flat_top(table: pd.DataFrame, test: str | None, tolerance: float) -> pd.DataFrame:
    """The rows of `test` from the highest limit down, for as long as each step down changes the
    mean rate by at most `tolerance` (relative): the range where the cap does not bind."""
    if test is None or table.empty:
        return table.iloc[0:0]
    g = table[table["test"] == test].sort_values("power_limit_w", ascending=False)
    n = 1
    for a, b in zip(g["mean"], g["mean"].iloc[1:], strict=False):
        if abs(b - a) / abs(a) > tolerance:
            break
        n += 1
    return g.head(n) if len(g) else g


def energy_order(table: pd.DataFrame, test: str | None) -> pd.DataFrame:
    """`test`'s rows sorted by energy per token, cheapest first: only its rows with a measured draw
    where it has any (an estimate and an upper bound are not ranked together), else its upper bounds."""
    if test is None or table.empty:
        return table.iloc[0:0]
    g = table[table["test"] == test]
    if "bound" in g and (~g["bound"]).any():
        g = g[~g["bound"]]
    return g.sort_values(["j_per_tok", "power_limit_w"]).reset_index(drop=True)


# --- the lesson: clocks under a cap, and the energy floor of a token -----------------------------

#: What moving one bit between DRAM and the processor costs, in picojoules: about 3.9 pJ/bit for
#: HBM2 (O'Connor et al., "Fine-Grained DRAM", MICRO 2017); GDDR memories cost more per bit. A
#: floor: the arithmetic, caches and the rest of the board come on top.
DRAM_PJ_PER_BIT = 3.9


def dram_floor_j(weights_gb: float, pj_per_bit: float = DRAM_PJ_PER_BIT) -> float:
    """Joules to move `weights_gb` gigabytes out of DRAM once (`envelope.dram_floor`). At batch 1
    every generated token reads every weight once, so no token costs less."""
    return envelope.dram_floor(weights_gb, pj_per_bit)


def capped_clock(cap_w, full_w: float, static_w: float) -> np.ndarray:
    """The clock, as a fraction of its top, that keeps a card under `cap_w`: dynamic power grows
    about as the cube of the clock (P = C V^2 f, and the voltage rises with f), so with `static_w`
    drawn whatever the clock and `full_w` at the top clock, f = ((cap - static) / (full - static))^(1/3),
    at most 1 (the cap does not bind) and 0 at or below the static draw."""
    cap = np.asarray(cap_w, dtype=float)
    dyn = np.clip((cap - static_w) / (full_w - static_w), 0.0, 1.0)
    return np.cbrt(dyn)


def capped_rate(clock, needed: float) -> np.ndarray:
    """The rate, as a fraction of the uncapped one, of a step that needs `needed` of the top clock to
    keep its bottleneck busy: compute-bound work (needed 1) follows the clock; memory-bound work
    keeps its rate until the clock falls below `needed`, then follows it."""
    return np.minimum(1.0, np.asarray(clock, dtype=float) / needed)
