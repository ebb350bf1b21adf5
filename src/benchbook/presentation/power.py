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
from benchbook.presentation import labels, wording
from benchbook.presentation.plotting import color, message_figure, panel_grid


def _say(name: str, **values) -> str:
    """One of the chapter's descriptive sentences (notebooks/perf_per_watt.claims.yml, `sentences:`)."""
    return wording.sentence("perf_per_watt", name, **values)


def why_paragraph(led: Ledger) -> str:
    """The usual mechanism and what it means for a serving box, offered only when the data shows
    both halves of it (prompt processing slows beyond the noise under the cap, at every step down or
    at the quoted limit; generation holds at the top); empty otherwise."""
    pp_slows = led.get("speed_falls_pp").shown or led.get("retained_quote_pp").shown
    if not (pp_slows and led.get("flat_top_tg").shown):
        return ""
    return _say("why_caps_differ")


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


#: The claims each section of the page states, paragraph by paragraph.
SECTIONS = {
    "speed": [
        ["speed_falls_pp", "flat_top_pp", "speed_falls_tg", "flat_top_tg"],
        ["retained_quote_tg", "retained_quote_pp", "retained_lowest_tg", "retained_lowest_pp"],
    ],
    "energy": [
        ["energy_top_tg", "energy_best_tg", "energy_saving_tg", "energy_runner_up_tg"],
        ["energy_top_pp", "energy_best_pp", "energy_saving_pp", "energy_runner_up_pp"],
    ],
    "sweet": [["sweet_spot_tg", "sweet_spot_pp", "knee_tg", "knee_pp"]],
    "spread": [["spread_grows_pp", "spread_grows_tg"]],
}
TAKEAWAYS = ["retained_quote_tg", "retained_quote_pp", "energy_saving_tg", "sweet_spot_tg", "sweet_spot_pp"]
TAKEAWAYS += ["spread_grows_pp"]


def section(led: Ledger, name: str, has_power: bool, extra: str = "") -> str:
    """A section's verdicts, one paragraph per group (plus `extra`, e.g. the mechanism), or the `no_sweep` sentence:
    a page without a power sweep says once per section what is missing, not a dozen withheld
    sentences."""
    if not has_power:
        return _say("no_sweep")
    paras = [" ".join(led.get(i).text for i in group) for group in SECTIONS[name]]
    if name == "speed":
        paras[-1] += " " + _say("noise_rule")
    return "\n\n".join(paras + ([extra] if extra else []))


def takeaways(led: Ledger, measured: list[str] | tuple = ()) -> str:
    """The key takeaways: the `measured`-energy ones, then the shown verdicts among TAKEAWAYS, as a
    list (a sentence when none is)."""
    shown = [*measured, *(led.get(i).text for i in TAKEAWAYS if led.get(i).shown)]
    if not shown:
        return _say("no_takeaway")
    return "\n".join(f"- {t}" for t in shown)


def input_line(
    files: str, model: str | None, limits: list, device: str | None, rated_w: float | None, measured: str = ""
) -> str:
    """The chapter's first line: what was read, from the data only (`measured`: a sentence on the
    measured energy it holds, if any)."""
    return _say(
        "input_line", files=files, model=model, limits=list(limits), device=device, rated_w=rated_w, measured=measured
    )


def no_power_message(n_limits: int, measured: bool = False) -> str:
    """What the chapter says at the top when it cannot compare power limits."""
    return _say("no_power", n_limits=n_limits, measured=measured)


def sweep_note(swept: dict) -> str:
    """One sentence on the settings the chapter held fixed (empty when nothing was swept)."""
    if not swept:
        return ""
    return _say("sweep_note", swept=swept, hold_rule=power.HOLD_RULE)


def sweep_table(configs: pd.DataFrame) -> pd.DataFrame:
    """The settings combinations of the chosen model, with the one kept marked."""
    return configs.rename(columns={"n_limits": "power limits", "score": "rate vs best (mean)"})


def energy_table(table: pd.DataFrame) -> pd.DataFrame:
    """Rate, spread and energy estimate per (test, limit), with the Pareto marks."""
    t = table.assign(
        pareto=power.pareto_by_test(table),
        clearly_dominated=power.clearly_dominated(table),
        unc=100 * table["rel_uncertainty"],
    )
    show = t[
        ["test", "power_limit_w", "mean", "std", "power_w", "power_source", "j_per_tok", "unc", "pareto"]
        + ["clearly_dominated"]
    ]
    return show.rename(
        columns={
            "power_limit_w": "limit (W)",
            "mean": "tok/s",
            "std": "± (tok/s)",
            "power_w": "power (W)",
            "power_source": "power from",
            "j_per_tok": "J/token (estimate)",
            "unc": "J/token ± (%)",
            "pareto": "Pareto (means)",
            "clearly_dominated": "clearly dominated",
        }
    )


def sweet_display(table: pd.DataFrame, fraction: float) -> pd.DataFrame:
    """The sweet spot and knee, one column per test and one row per quantity (eleven quantities side
    by side would not fit a page)."""
    s = power.sweet_spot(table, fraction)
    k = power.knees(table)
    s["knee_w"] = s["test"].map(lambda t: k[t][0])
    s["knee_strength"] = s["test"].map(lambda t: k[t][1])
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
            }
        )
        .set_index("test")
        .T.astype(float)
    )


# ---------------------------------------------------------------------------------------------
# Figures


def plot_throughput(axes, table: pd.DataFrame) -> None:
    """One panel per test: mean rate (tok/s) vs power limit, error bars = ± (sample std)."""
    tests = sorted(table["test"].unique())
    for i, (ax, test) in enumerate(zip(np.atleast_1d(axes), tests, strict=False)):
        g = table[table["test"] == test].sort_values("power_limit_w")
        ax.errorbar(g["power_limit_w"], g["mean"], yerr=g["std"].fillna(0), marker="o", capsize=4, color=color(i))
        ax.set_title(test)
        ax.set_xlabel("power limit (W)")
        ax.set_ylabel("throughput (tok/s)")
        ax.set_ylim(bottom=0)


def _relative(table: pd.DataFrame) -> pd.DataFrame:
    t = table.copy()
    t["rel"] = t["mean"] / t.groupby("test")["mean"].transform("max")
    t["front"] = power.pareto_by_test(table)
    return t


def plot_energy(axes, table: pd.DataFrame) -> None:
    """One panel per test: energy per token (estimate) vs throughput relative to the test's peak,
    error bars of one standard error on both axes, the Pareto set of the means ringed."""
    t = _relative(table)
    for i, (ax, (test, g)) in enumerate(zip(np.atleast_1d(axes), t.groupby("test", sort=True), strict=False)):
        g = g.sort_values("power_limit_w")
        ax.errorbar(
            g["rel"],
            g["j_per_tok"],
            xerr=(g["rel"] * g["se"]).fillna(0),
            yerr=(g["j_per_tok"] * g["rel_uncertainty"]).fillna(0),
            marker="o",
            capsize=3,
            color=color(i),
        )
        f = g[g["front"]]
        ax.scatter(f["rel"], f["j_per_tok"], s=120, facecolors="none", edgecolors="black", zorder=3)
        ax.set_title(test)
        ax.set_xlabel("throughput (fraction of the test's peak)")
        ax.set_ylabel("energy per token, estimate (J/token)")
        ax.margins(x=0.12, y=0.12)


def plot_cv(ax, table: pd.DataFrame) -> None:
    """Coefficient of variation (%) of each test vs power limit."""
    for i, (test, g) in enumerate(table.groupby("test", sort=True)):
        g = g.sort_values("power_limit_w")
        ax.plot(g["power_limit_w"], 100 * g["cv"], marker="o", color=color(i), label=test)
    ax.set_yscale("log")
    ax.set_xlabel("power limit (W)")
    ax.set_ylabel("coefficient of variation (%)")
    ax.legend(fontsize=8)


def throughput_figure(table: pd.DataFrame, model: str):
    """`plot_throughput` as a Figure, one panel per test."""

    if table.empty:
        return message_figure("no test at two or more power limits")
    fig, axes = panel_grid(table["test"].nunique())
    plot_throughput(axes, table)
    fig.suptitle(f"{model}: throughput vs power limit (± = sample std of the repetitions)")
    fig.tight_layout()
    return fig


def energy_figure(table: pd.DataFrame):
    """`plot_energy` as a Figure, one panel per test, the ring explained in a legend below the panels."""
    from matplotlib.lines import Line2D

    if table.empty:
        return message_figure("no test at two or more power limits")
    fig, axes = panel_grid(table["test"].nunique(), height=4.0)
    ring = Line2D([], [], marker="o", ms=11, mfc="none", mec="black", ls="none", label="Pareto set (means)")
    fig.legend(handles=[ring], loc="lower center", fontsize=9, bbox_to_anchor=(0.5, 0.0))
    fig.suptitle("Energy per token (estimate) vs throughput, per test")
    plot_energy(axes, table)
    fig.tight_layout(rect=(0, 0.07 / math.ceil(len(axes) / 2), 1, 1))
    label_limits(axes, table)
    return fig


def label_limits(axes, table: pd.DataFrame) -> list[str]:
    """Each point of `plot_energy` labelled with its limit where there is room, the Pareto set first;
    returns the labels left out (the energy table lists every limit)."""
    left_out = []
    for i, (ax, (_, g)) in enumerate(
        zip(np.atleast_1d(axes), _relative(table).groupby("test", sort=True), strict=False)
    ):
        g = g.sort_values(["front", "power_limit_w"], ascending=[False, True])
        left_out += labels.place(
            ax, [(r["rel"], r["j_per_tok"], f"{r['power_limit_w']:.0f} W") for _, r in g.iterrows()], color=color(i)
        )
    return left_out


def cv_figure(table: pd.DataFrame):
    """`plot_cv` as a Figure."""
    import matplotlib.pyplot as plt

    if table.empty or table["cv"].notna().sum() == 0:
        return message_figure("no spread printed at two or more power limits")
    fig, ax = plt.subplots(figsize=(7.5, 4))
    plot_cv(ax, table)
    ax.set_title("Repetition-to-repetition spread vs power limit")
    fig.tight_layout()
    return fig
