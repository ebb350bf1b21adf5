"""The perf-per-watt chapter's figures, display tables and descriptions of the input.

Every sentence that states a verdict comes from a claim (`benchbook.claims.power`), worded in
`notebooks/perf_per_watt.claims.yml`; the rest describes the input and names only what the input
(or a parameter) says.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from benchbook.analysis import power
from benchbook.claims import Ledger
from benchbook.presentation import wording
from benchbook.presentation.plotting import color, panel_grid, tight


def _say(name: str, **values) -> str:
    """One of the chapter's descriptive sentences (notebooks/perf_per_watt.claims.yml, `sentences:`)."""
    return wording.sentence("perf_per_watt", name, **values)


def figure_block(name: str, **drawn) -> str:
    """A data figure's `{glue:figure}` directive with its caption (the wording file's
    `caption_<name>`), glued as Markdown only where the input has the data to draw it: a figure
    without data is not drawn, and its caption not shown. `drawn`: which of its marks the figure
    holds, so that the caption names only those."""
    label = "fig-ppw-" + name.removeprefix("fig_")
    return f"```{{glue:figure}} {name}\n:name: {label}\n\n{_say('caption_' + name, **drawn)}\n```"


def energy_marks(table: pd.DataFrame, floor_j: float | None) -> dict[str, bool]:
    """What `plot_energy` draws for `table`: bars for upper bounds, points on a measured draw, and
    the DRAM floor (generation tests only)."""
    return {
        "bounds": bool(table["bound"].any()),
        "measured": bool((~table["bound"]).any()),
        "floor": bool(floor_j) and bool((table["metric"] == "tg_rate").any()),
    }


def stability_paragraph(led: Ledger) -> str:
    """What a spread that grows under the cap means, only when the data shows it for some test."""
    if not (led.get("spread_grows_pp").shown or led.get("spread_grows_tg").shown):
        return ""
    return _say("spread_cause")


def device_words(rows: pd.DataFrame, gpu: str) -> tuple[str | None, float | None]:
    """(the device the runs used, its rated board power): the `gpu` parameter, else the device line
    the output printed; the rating only for a device in the hardware table."""
    from benchbook import hardware

    printed = rows["gpu"].dropna() if "gpu" in rows else pd.Series(dtype=str)
    printed = str(printed.iloc[0]) if len(printed) else None
    dev = hardware.device(gpu) if gpu else hardware.detect(printed) if printed else None
    if dev is not None:
        return dev.name, dev.power_w
    return printed, None


#: The claims each part of the page states, paragraph by paragraph (a claim the bottom line holds, or
#: one withheld, is left out: the box says the first, the folded list of withheld verdicts the second).
SECTIONS = {
    "speed": [
        ["caps_differ", "speed_falls_pp", "flat_top_pp", "speed_falls_tg", "flat_top_tg"],
        ["retained_quote_tg", "retained_quote_pp", "retained_lowest_tg", "retained_lowest_pp"],
    ],
    "energy": [
        ["energy_top_tg", "energy_best_tg", "energy_saving_tg", "energy_runner_up_tg", "dram_floor"],
        ["energy_top_pp", "energy_best_pp", "energy_saving_pp", "energy_runner_up_pp"],
    ],
    "sweet": [["sweet_spot_tg", "sweet_spot_pp", "knee_tg", "knee_pp"]],
    "spread": [["spread_grows_pp", "spread_grows_tg"]],
}


#: Claims whose numbers another claim already states: where that one is shown, these are not said again.
COVERED = {"caps_differ": ("retained_quote_pp", "retained_quote_tg")}


def section(led: Ledger, name: str, boxed: set[str] = frozenset(), extra: str = "") -> str:
    """A section's shown verdicts that the bottom line does not hold (nor a shown claim that states
    their numbers, `COVERED`), one paragraph per group, plus `extra`; empty when it has none."""
    said = set(boxed) | {i for c, ids in COVERED.items() if led.get(c).shown for i in ids}
    paras = []
    for group in SECTIONS[name]:
        texts = [led.get(i).text for i in group if led.get(i).shown and i not in said]
        if texts:
            paras.append(" ".join(dict.fromkeys(texts)))
    if name == "speed" and paras:
        paras[-1] += " " + _say("noise_rule")
    if name == "energy" and paras and (bound := _slowest_rate_bound(led, said)):
        paras[-1] += " " + _say("slowest_rate_rule", **bound)
    return "\n\n".join(paras + ([extra] if extra else []))


def _slowest_rate_bound(led: Ledger, said: set[str]) -> dict:
    """The evidence of a shown energy bound in the section that divides by a slowest rate read from a
    mean ± standard deviation (its sentence names the rate; the section says how it is read, once)."""
    for group in SECTIONS["energy"]:
        for i in group:
            c = led.get(i)
            ev = c.evidence
            if c.shown and i not in said and ev.get("upper_bound") and ev.get("rate_basis") != "samples":
                return {"n_reps": ev.get("n_reps"), "reps_assumed": ev.get("reps_assumed")}
    return {}


def input_line(
    files: str,
    model: str | None,
    limits: list,
    device: str | None,
    rated_w: float | None,
    measured: str = "",
    said: dict | None = None,
) -> str:
    """The chapter's first line: what was read, from the data only (`measured`: a sentence on the
    measured energy it holds, if any; `said`: what the files say of a device where the runs name none,
    `analysis.energy.stated_device`)."""
    return _say(
        "input_line",
        files=files,
        model=model,
        limits=list(limits),
        device=device,
        rated_w=rated_w,
        measured=measured,
        said=said or {"status": "absent"},
    )


def no_power_message(n_limits: int, measured: bool = False, said=(), limit: dict | None = None) -> str:
    """What the chapter says at the top when it cannot compare power limits; `said`, the power and
    energy readings the files state elsewhere (`analysis.energy.stated_power`), so that "no measured
    energy" is said only where no sign of one is in the file; `limit`, what they say of a power limit
    outside the tables' headings (`analysis.energy.limit_said`), so that "states no power limit" is said
    only where no sign of one is."""
    limit = limit or {"limit_status": "absent"}
    return _say("no_power", n_limits=n_limits, measured=measured, said=list(said), **limit)


def sweep_note(swept: dict) -> str:
    """One sentence on the settings the chapter held fixed (empty when nothing was swept)."""
    if not swept:
        return ""
    return _say("sweep_note", swept=swept, hold_rule=power.HOLD_RULE)


def sweep_table(configs: pd.DataFrame) -> pd.DataFrame:
    """The settings combinations of the chosen model, with the one kept marked."""
    return configs.rename(columns={"n_limits": "power limits", "score": "rate vs best (mean)"})


def energy_table(table: pd.DataFrame) -> pd.DataFrame:
    """Rate, spread and energy per token per (test, limit): "at most" where the power is the limit,
    "about" (with its ±) where it was measured; the Pareto marks only where some row is measured
    (upper bounds cannot be ranked)."""
    t = table.assign(
        kind=np.where(table["bound"], "at most", "about"),
        unc=np.where(table["bound"], np.nan, 100 * table["rel_uncertainty"]),
    )
    cols = ["test", "power_limit_w", "mean", "std", "power_w", "power_source", "kind", "j_per_tok", "unc"]
    measured = ~table["bound"]
    if measured.any():  # ranked among the measured rows only: an upper bound is not ranked
        m = table[measured]
        t["pareto"] = pd.Series(power.pareto_by_test(m), index=m.index).reindex(t.index)
        t["clearly_dominated"] = pd.Series(power.clearly_dominated(m), index=m.index).reindex(t.index)
        cols += ["pareto", "clearly_dominated"]
    else:
        cols.remove("unc")
    return t[cols].rename(
        columns={
            "power_limit_w": "limit (W)",
            "mean": "tok/s",
            "std": "± (tok/s)",
            "power_w": "power (W)",
            "power_source": "power from",
            "kind": "J/token is",
            "j_per_tok": "J/token",
            "unc": "J/token ± (%)",
            "pareto": "Pareto (means)",
            "clearly_dominated": "clearly dominated",
        }
    )


def sweet_display(table: pd.DataFrame, fraction: float, knees_shown=None) -> pd.DataFrame:
    """The sweet spot and knee, one column per test and one row per quantity (eleven quantities side
    by side would not fit a page). Its cells keep their own types, so that a count reads 8 beside a
    CV of 3.30 (a column of floats printed every number to the same digits: "limits 8.00")."""
    s = power.sweet_spot(table, fraction)
    k = power.knees(table)
    # a knee the rules withhold (too straight, or a bend inside the noise) is no knee: its cell is empty
    s["knee_w"] = s["test"].map(lambda t: k[t][0] if knees_shown is None or t in knees_shown else None)
    s["knee_strength"] = s["test"].map(lambda t: k[t][1])
    s["knee_noise"] = s["test"].map(lambda t: k[t][2])
    for col in ("sweet_cv", "retained", "drop"):
        s[col] = 100 * s[col]
    return (
        s.rename(
            columns={
                "peak": "peak (tok/s)",
                "peak_limit_w": "limit at peak (W)",
                "sweet_limit_w": "sweet spot (W)",
                "sweet_mean": "rate there (tok/s)",
                "sweet_cv": "CV there (%)",
                "retained": "share of peak kept (%)",
                "saving_w": "power saved (W)",
                "drop": "drop over the range (%)",
                "n_limits": "limits",
                "knee_w": "knee (W)",
                "knee_strength": "knee strength",
                "knee_noise": "knee noise",
            }
        )
        .set_index("test")
        .T.astype(object)
    )


# ---------------------------------------------------------------------------------------------
# Figures


def test_colour(test: str) -> str:
    """A llama-bench test's colour in every figure of the chapter, as in the lesson's figure: prompt
    processing (pp512, compute-bound) blue, generation (tg128, memory-bound) orange, a test that
    does both (pp512+tg128) green."""
    t = str(test).lower()
    if "+" in t or t.startswith("pg"):
        return color(2)
    return color(1) if t.startswith("tg") else color(0)


def plot_throughput(axes, table: pd.DataFrame) -> None:
    """One panel per test: mean rate (tok/s) vs power limit, error bars = ± (sample std)."""
    tests = sorted(table["test"].unique())
    for ax, test in zip(np.atleast_1d(axes), tests, strict=False):
        g = table[table["test"] == test].sort_values("power_limit_w")
        ax.errorbar(
            g["power_limit_w"], g["mean"], yerr=g["std"].fillna(0), marker="o", capsize=4, color=test_colour(test)
        )
        ax.set_title(test)
        ax.set_xlabel("power limit (W)")
        ax.set_ylabel("throughput (tok/s)")
        ax.set_ylim(bottom=0)


def plot_energy(axes, table: pd.DataFrame, floor_j: float | None = None) -> None:
    """One panel per test: energy per token against the limit (an upper bound where the power is the
    limit, drawn as a bar down to the axis: the true value is anywhere under it), and for generation
    tests the DRAM floor of reading the weights once (`floor_j`) as a dashed line."""
    for ax, (test, g) in zip(np.atleast_1d(axes), table.groupby("test", sort=True), strict=False):
        g = g.sort_values("power_limit_w")
        bound = g[g["bound"]]
        ax.bar(
            bound["power_limit_w"], bound["j_per_tok"], width=30, color=test_colour(test), alpha=0.35, label="at most"
        )
        est = g[~g["bound"]]
        if len(est):
            ax.errorbar(
                est["power_limit_w"],
                est["j_per_tok"],
                yerr=est["j_per_tok"] * est["rel_uncertainty"],
                fmt="o",
                color=test_colour(test),
                label="measured draw",
            )
        if floor_j and g["metric"].iloc[0] == "tg_rate":
            ax.axhline(floor_j, color="black", ls="--", lw=1, label="DRAM floor")
        ax.set_title(test)
        ax.set_xlabel("power limit (W)")
        ax.set_ylabel("energy per token (J)")


def plot_cv(ax, table: pd.DataFrame) -> None:
    """Coefficient of variation (%) of each test vs power limit."""
    from matplotlib.ticker import FuncFormatter, NullFormatter

    for test, g in table.groupby("test", sort=True):
        g = g.sort_values("power_limit_w")
        ax.plot(g["power_limit_w"], 100 * g["cv"], marker="o", color=test_colour(test), label=test)
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))  # plain: 0.1, 1, 10, not powers of ten
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("power limit (W)")
    ax.set_ylabel("coefficient of variation (%)")
    ax.legend(fontsize=8)


def throughput_figure(table: pd.DataFrame, model: str):
    """`plot_throughput` as a Figure, one panel per test."""

    if table.empty:
        return None
    fig, axes = panel_grid(table["test"].nunique())
    plot_throughput(axes, table)
    fig.suptitle(f"{model}: throughput vs power limit (± = sample std of the repetitions)")
    tight(fig)
    return fig


def energy_figure(table: pd.DataFrame, floor_j: float | None = None):
    """`plot_energy` as a Figure, one panel per test (None without a table)."""
    if table.empty:
        return None
    fig, axes = panel_grid(table["test"].nunique(), height=4.0)
    plot_energy(axes, table, floor_j)
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    # the legend names the kinds of mark, drawn in grey: each panel draws them in its test's colour, so
    # one test's colour in the legend would misname the other panel's bars
    neutral = {
        "at most": Patch(color="grey", alpha=0.35),
        "measured draw": Line2D([], [], marker="o", ls="", color="grey"),
    }
    seen = {}
    for ax in np.atleast_1d(axes):
        for h, label in zip(*ax.get_legend_handles_labels(), strict=True):
            seen.setdefault(label, neutral.get(label, h))
    fig.legend(seen.values(), seen.keys(), loc="lower center", ncol=len(seen), bbox_to_anchor=(0.5, 0.0))
    tight(fig, rect=(0, 0.08 / math.ceil(len(np.atleast_1d(axes)) / 2), 1, 1))
    return fig


def lesson_figure(full_w: float = 600.0, static_w: float = 100.0, needed: float = 0.6):
    """The lesson: rate kept against the cap for a compute-bound step (follows the clock) and a
    memory-bound one (keeps its rate until the clock falls below what keeps memory busy), from
    `power.capped_clock` and `power.capped_rate` on an illustrative card."""
    import matplotlib.pyplot as plt

    caps = np.linspace(static_w + 1, full_w, 200)
    clock = power.capped_clock(caps, full_w, static_w)
    fig, ax = plt.subplots(figsize=(7.5, 4))
    ax.plot(caps, 100 * power.capped_rate(clock, 1.0), color=test_colour("pp"), label="compute-bound (prefill)")
    ax.plot(caps, 100 * power.capped_rate(clock, needed), color=test_colour("tg"), label="memory-bound (decode)")
    ax.set_xlabel("power cap (W)")
    ax.set_ylabel("rate kept (% of uncapped)")
    ax.set_ylim(0, 105)
    ax.legend(loc="lower right")
    tight(fig)
    return fig


def cv_figure(table: pd.DataFrame):
    """`plot_cv` as a Figure."""
    import matplotlib.pyplot as plt

    if table.empty or table["cv"].notna().sum() == 0:
        return None
    fig, ax = plt.subplots(figsize=(7.5, 4))
    plot_cv(ax, table)
    ax.set_title("Repetition-to-repetition spread vs power limit")
    tight(fig)
    return fig
