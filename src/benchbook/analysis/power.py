"""Throughput and energy under GPU power limits (llama-bench runs repeated at several limits).

The sources give the power *limit* (`nvidia-smi -pl`), not the power the card drew. A card never
draws more than its limit for long, so the limit bounds the draw from above, and

    J/token  <=  limit (W) / rate (tok/s)        tokens/J  >=  rate / limit

are bounds, not measurements: at a limit the workload does not reach (memory-bound decode often
draws well under 600 W) the true energy per token is lower. A measured mean draw per limit (from
`nvidia-smi --query-gpu=power.draw` logged during the run) turns the bounds into estimates; pass it
as a CSV with columns `power_limit_w`, `power_w` and optionally `test`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook import config
from benchbook.analysis import pareto
from benchbook.chapter import fmt

RATE_METRICS = ("pp_rate", "tg_rate", "pg_rate")


def pick_model(df: pd.DataFrame) -> str | None:
    """The model with the most distinct power limits in a llama-bench table (None if none has a limit)."""
    d = df[df["metric"].isin(RATE_METRICS) & df["power_limit_w"].notna()]
    if d.empty:
        return None
    counts = d.groupby("model", dropna=True)["power_limit_w"].nunique().sort_values(ascending=False, kind="stable")
    return str(counts.index[0]) if len(counts) else None


def rate_table(df: pd.DataFrame, model: str | None = None) -> pd.DataFrame:
    """One row per (test, power limit): mean and std rate (tok/s) as printed, CV = std / mean,
    and the number of repetitions when per-repetition samples are present.

    Rows without a power limit are dropped. Columns: model, test, metric, power_limit_w, mean, std,
    cv, n_reps, line.
    """
    d = df[df["metric"].isin(RATE_METRICS) & df["power_limit_w"].notna()]
    if model is not None:
        d = d[d["model"] == model]
    keys = ["model", "test", "metric", "power_limit_w"]
    stats = d[d["statistic"].isin(["mean", "std"])]
    if stats.empty:
        return pd.DataFrame(columns=keys + ["mean", "std", "cv", "n_reps", "line"])
    wide = stats.pivot_table(index=keys, columns="statistic", values="value", aggfunc="first", dropna=False)
    wide = wide.reindex(columns=["mean", "std"]).reset_index()
    lines = stats[stats["statistic"] == "mean"].groupby(keys)["line"].first().rename("line")
    wide = wide.merge(lines.reset_index(), on=keys, how="left")
    reps = d[d["statistic"] == "value"].groupby(keys)["value"].count().rename("n_reps").reset_index()
    wide = wide.merge(reps, on=keys, how="left")
    wide["cv"] = wide["std"] / wide["mean"]
    wide = wide.dropna(subset=["mean"])
    return wide.sort_values(["test", "power_limit_w"], ascending=[True, False]).reset_index(drop=True)[
        keys + ["mean", "std", "cv", "n_reps", "line"]
    ]


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


def energy(table: pd.DataFrame, measured: pd.DataFrame | None = None) -> pd.DataFrame:
    """Add energy figures to a rate table.

    `j_per_tok_bound` = limit / rate (an upper bound on J/token), `tok_per_j_bound` = rate / limit
    (a lower bound on tokens/J). With `measured` (power_limit_w, power_w[, test]) also
    `power_w`, `j_per_tok` and `tok_per_j` from the measured draw.
    """
    t = table.copy()
    t["j_per_tok_bound"] = t["power_limit_w"] / t["mean"]
    t["tok_per_j_bound"] = t["mean"] / t["power_limit_w"]
    if measured is not None and len(measured):
        on = ["power_limit_w", "test"] if "test" in measured.columns else ["power_limit_w"]
        m = measured[on + ["power_w"]].copy()
        m["power_limit_w"] = m["power_limit_w"].astype(float)
        t = t.merge(m, on=on, how="left")
        t["j_per_tok"] = t["power_w"] / t["mean"]
        t["tok_per_j"] = t["mean"] / t["power_w"]
    return t


def sweet_spot(table: pd.DataFrame, fraction: float = 0.95) -> pd.DataFrame:
    """Per test: the lowest power limit whose mean rate is still >= `fraction` x the test's peak
    (the fraction-of-peak rule, `pareto.fraction_of_peak`).

    Columns: test, peak, peak_limit_w, sweet_limit_w, sweet_mean, retained (sweet_mean / peak),
    saving_w (highest limit - sweet limit), n_limits.
    """
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction must be in (0, 1], got {fraction}")
    rows = []
    for test, g in table.groupby("test", sort=True):
        g = g.dropna(subset=["mean"])
        if g.empty:
            continue
        top = g.loc[g["mean"].idxmax()]
        best = g.iloc[pareto.fraction_of_peak(g["power_limit_w"], g["mean"], fraction)]
        rows.append(
            {
                "test": test,
                "peak": float(top["mean"]),
                "peak_limit_w": float(top["power_limit_w"]),
                "sweet_limit_w": float(best["power_limit_w"]),
                "sweet_mean": float(best["mean"]),
                "retained": float(best["mean"] / top["mean"]),
                "saving_w": float(g["power_limit_w"].max() - best["power_limit_w"]),
                "n_limits": int(g["power_limit_w"].nunique()),
            }
        )
    return pd.DataFrame(
        rows,
        columns=["test", "peak", "peak_limit_w", "sweet_limit_w", "sweet_mean", "retained", "saving_w", "n_limits"],
    )


def pareto_frontier(x, y) -> np.ndarray:
    """Mask of the points not dominated when maximising `x` (throughput) and minimising `y`
    (energy per token)."""
    return pareto.frontier(x, y, maximise=(True, False))


def pareto_by_test(table: pd.DataFrame, y: str = "j_per_tok_bound") -> np.ndarray:
    """Pareto mask (max rate, min `y`) computed within each test, aligned with `table`'s rows."""
    mask = np.zeros(len(table), dtype=bool)
    pos = {idx: i for i, idx in enumerate(table.index)}
    for _, g in table.groupby("test", sort=False):
        m = pareto_frontier(g["mean"], g[y])
        for idx, keep in zip(g.index, m, strict=True):
            mask[pos[idx]] = keep
    return mask


def knee(x, y) -> float | None:
    """The knee of a curve y(x) (Kneedle: after scaling both axes to [0, 1], the point farthest from
    the straight line joining the first and last points). None with fewer than three points or a
    flat curve."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if len(x) < 3:
        return None
    order = np.argsort(x)
    x, y = x[order], y[order]
    xr, yr = np.ptp(x), np.ptp(y)
    if xr == 0 or yr == 0:
        return None
    xn, yn = (x - x[0]) / xr, (y - y.min()) / yr
    x0, y0, x1, y1 = xn[0], yn[0], xn[-1], yn[-1]
    dist = np.abs((y1 - y0) * xn - (x1 - x0) * yn + x1 * y0 - y1 * x0) / np.hypot(x1 - x0, y1 - y0)
    i = int(np.argmax(dist))
    if dist[i] <= 1e-12:
        return None
    return float(x[i])


def knees(table: pd.DataFrame) -> dict[str, float | None]:
    """The knee of mean rate vs power limit, per test."""
    return {t: knee(g["power_limit_w"], g["mean"]) for t, g in table.groupby("test", sort=True)}


def retained_at(table: pd.DataFrame, test: str, limit_w: float) -> float | None:
    """Mean rate at `limit_w` as a fraction of the test's peak (None if that limit was not run)."""
    g = table[table["test"] == test]
    hit = g[g["power_limit_w"] == limit_w]
    if g.empty or hit.empty:
        return None
    return float(hit["mean"].iloc[0] / g["mean"].max())


# ---------------------------------------------------------------------------------------------
# Prose and tables of the chapter. Every prose value is text, "n/a" where the input cannot give it,
# so that the page renders on any input.


def has_power(table: pd.DataFrame) -> bool:
    """Whether the table has the two or more power limits every comparison here needs."""
    return table["power_limit_w"].nunique() >= 2


def no_power_message(n_limits: int) -> str:
    """What the chapter says at the top when it cannot compare power limits."""
    return (
        f"**This input has {n_limits} power limit(s) for a model** (limits come from headings such as "
        "`### 600W` above each table), so this chapter cannot show how throughput and energy change "
        "with the limit. The sections below say what each one would need."
    )


def prose_tests(table: pd.DataFrame) -> dict[str, str | None]:
    """The tests the prose quotes: "pp" the first plain prompt-processing test (not pp+tg), "tg" the
    first generation test; None where the input lacks one."""
    tests = sorted(table["test"].unique())
    return {
        "pp": next((t for t in tests if t.startswith("pp") and "+" not in t), None),
        "tg": next((t for t in tests if t.startswith("tg")), None),
    }


def _quoted(table: pd.DataFrame, names: tuple[str, ...], values) -> dict[str, str]:
    """{NAME_pp, NAME_tg: text}: `values(test)[NAME]` for each quoted test the input has at two or
    more limits, "n/a" otherwise."""
    out = {}
    for k, t in prose_tests(table).items():
        got = values(t) if t and has_power(table) else {}
        out.update({f"{name}_{k}": got.get(name, "n/a") for name in names})
    return out


def retained_prose(table: pd.DataFrame, quote_limit: float | None) -> dict[str, str]:
    """ret_min_pp/_tg and ret_q_pp/_tg: the share of peak the quoted pp and tg tests keep at the
    lowest limit and at `quote_limit`; "n/a" where the input has no such test at two or more limits."""
    lo = table["power_limit_w"].min() if has_power(table) else None

    def values(test):
        return {
            "ret_min": fmt(retained_at(table, test, lo), ".0%"),
            "ret_q": fmt(retained_at(table, test, quote_limit), ".0%"),
        }

    return _quoted(table, ("ret_min", "ret_q"), values)


def energy_prose(table: pd.DataFrame) -> dict[str, str]:
    """jpt_top, jpt_best, jpt_best_limit, tpj_best (_pp, _tg): the J/token bound at the highest limit
    and at the limit where it is lowest, and tokens/J there."""

    def values(test):
        g = table[table["test"] == test]
        best, top = g.loc[g["j_per_tok_bound"].idxmin()], g.loc[g["power_limit_w"].idxmax()]
        return {
            "jpt_top": fmt(top["j_per_tok_bound"], ".3f", " J/token"),
            "jpt_best": fmt(best["j_per_tok_bound"], ".3f", " J/token"),
            "jpt_best_limit": fmt(best["power_limit_w"], ".0f", " W"),
            "tpj_best": fmt(best["tok_per_j_bound"], ".1f", " tokens/J"),
        }

    return _quoted(table, ("jpt_top", "jpt_best", "jpt_best_limit", "tpj_best"), values)


def energy_table(table: pd.DataFrame) -> pd.DataFrame:
    """Rate and energy per (test, limit) for display, the bounds named as bounds; the measured
    estimates only when a measured-power table was given."""
    show = table[
        ["test", "power_limit_w", "mean", "j_per_tok_bound", "tok_per_j_bound"]
        + (["power_w", "j_per_tok", "tok_per_j"] if "power_w" in table else [])
    ]
    return show.rename(
        columns={
            "power_limit_w": "limit (W)",
            "mean": "tok/s",
            "j_per_tok_bound": "J/token (upper bound)",
            "tok_per_j_bound": "tokens/J (lower bound)",
        }
    ).round(3)


def measured_note(measured: bool) -> str:
    """Whether the energy columns include estimates from a measured draw, or only bounds."""
    if measured:
        return (
            "A measured-power table was given: the columns power_w, j_per_tok and tok_per_j are "
            "estimates from the measured draw."
        )
    return "No measured power was given (parameter measured_power), so only the bounds are shown."


def sweet_table(table: pd.DataFrame, fraction: float) -> pd.DataFrame:
    """The sweet spot per test, with its throughput knee and the Pareto-optimal limits (W, high first)."""
    sweet = sweet_spot(table, fraction)
    front = pareto_by_test(table)
    sweet["knee_w"] = sweet["test"].map(knees(table))
    sweet["pareto_limits_w"] = sweet["test"].map(
        lambda t: ", ".join(
            f"{w:.0f}" for w in sorted(table[front & (table["test"] == t)]["power_limit_w"], reverse=True)
        )
    )
    return sweet


def sweet_prose(table: pd.DataFrame, sweet: pd.DataFrame | None) -> dict[str, str]:
    """sweet, sweet_ret, saving, knee (_pp, _tg) from `sweet_table` (None without power limits)."""
    s = sweet.set_index("test") if sweet is not None else None
    return _quoted(
        table,
        ("sweet", "sweet_ret", "saving", "knee"),
        lambda t: {
            "sweet": fmt(s.loc[t, "sweet_limit_w"], ".0f", " W"),
            "sweet_ret": fmt(s.loc[t, "retained"], ".1%"),
            "saving": fmt(s.loc[t, "saving_w"], ".0f", " W"),
            "knee": fmt(s.loc[t, "knee_w"], ".0f", " W"),
        },
    )


def stability_prose(table: pd.DataFrame) -> dict[str, str]:
    """cv_hi, cv_lo, pm_hi, pm_lo (_pp, _tg): CV and printed std at the highest and lowest limit."""
    by = table.set_index(["test", "power_limit_w"])
    hi, lo = table["power_limit_w"].max(), table["power_limit_w"].min()
    return _quoted(
        table,
        ("cv_hi", "cv_lo", "pm_hi", "pm_lo"),
        lambda t: {
            "cv_hi": fmt(by["cv"].get((t, hi)), ".1%"),
            "cv_lo": fmt(by["cv"].get((t, lo)), ".1%"),
            "pm_hi": fmt(by["std"].get((t, hi)), ".0f"),
            "pm_lo": fmt(by["std"].get((t, lo)), ".0f"),
        },
    )


# ---------------------------------------------------------------------------------------------
# Figures


def plot_throughput(axes, table: pd.DataFrame) -> None:
    """One panel per test: mean rate (tok/s) vs power limit, error bars = ± (sample std)."""
    from benchbook.presentation.plotting import color

    tests = sorted(table["test"].unique())
    for i, (ax, test) in enumerate(zip(np.atleast_1d(axes), tests, strict=False)):
        g = table[table["test"] == test].sort_values("power_limit_w")
        ax.errorbar(g["power_limit_w"], g["mean"], yerr=g["std"].fillna(0), marker="o", capsize=4, color=color(i))
        ax.set_title(test)
        ax.set_xlabel("power limit (W)")
        ax.set_ylabel("throughput (tok/s)")
        ax.set_ylim(bottom=0)


def plot_energy(ax, table: pd.DataFrame, frontier: np.ndarray | None = None) -> None:
    """Upper bound on J/token vs throughput relative to the test's peak, points labelled by limit;
    Pareto-optimal points ringed."""
    from benchbook.presentation.plotting import color

    t = table.copy()
    t["rel"] = t["mean"] / t.groupby("test")["mean"].transform("max")
    for i, (test, g) in enumerate(t.groupby("test", sort=True)):
        ax.plot(g["rel"], g["j_per_tok_bound"], marker="o", color=color(i), label=test)
        for _, r in g.iterrows():
            ax.annotate(
                f"{r['power_limit_w']:.0f} W",
                (r["rel"], r["j_per_tok_bound"]),
                textcoords="offset points",
                xytext=(4, 4),
                fontsize=7,
                color=color(i),
            )
    if frontier is not None:
        f = t[frontier]
        ax.scatter(
            f["rel"],
            f["j_per_tok_bound"],
            s=120,
            facecolors="none",
            edgecolors="black",
            label="Pareto-optimal (per test)",
        )
    ax.set_yscale("log")
    ax.set_xlabel("throughput (fraction of the test's peak)")
    ax.set_ylabel("energy per token, upper bound (J/token)")
    ax.legend(fontsize=8)


def plot_cv(ax, table: pd.DataFrame) -> None:
    """Coefficient of variation (%) of each test vs power limit."""
    from benchbook.presentation.plotting import color

    for i, (test, g) in enumerate(table.groupby("test", sort=True)):
        g = g.sort_values("power_limit_w")
        ax.plot(g["power_limit_w"], 100 * g["cv"], marker="o", color=color(i), label=test)
    ax.set_yscale("log")
    ax.set_xlabel("power limit (W)")
    ax.set_ylabel("coefficient of variation (%)")
    ax.legend(fontsize=8)


def throughput_figure(table: pd.DataFrame, model: str):
    """`plot_throughput` as a Figure, one panel per test."""
    import matplotlib.pyplot as plt

    n = table["test"].nunique()
    fig, axes = plt.subplots(1, n, figsize=(4 * n, 3.8), squeeze=False)
    plot_throughput(axes[0], table)
    fig.suptitle(f"{model}: throughput vs power limit (± = sample std of the repetitions)")
    fig.tight_layout()
    return fig


def energy_figure(table: pd.DataFrame):
    """`plot_energy` as a Figure, with the per-test Pareto front ringed."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    plot_energy(ax, table, pareto_by_test(table))
    ax.set_title("Energy per token (upper bound) vs throughput, per test")
    fig.tight_layout()
    return fig


def cv_figure(table: pd.DataFrame):
    """`plot_cv` as a Figure."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4))
    plot_cv(ax, table)
    ax.set_title("Repetition-to-repetition spread vs power limit")
    fig.tight_layout()
    return fig
