"""The perf-per-watt chapter's figures, display tables and sentence templates.

Every sentence that states a verdict comes from a claim (`benchbook.claims.power`); the rest
describes the input and names only what the input (or a parameter) says.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.analysis import power
from benchbook.claims import Claim, Ledger
from benchbook.presentation import labels, wording
from benchbook.presentation.plotting import color, message_figure

KIND_NAME = {"pp": "prompt processing", "tg": "generation"}


def _topic(kind: str, test: str | None) -> str:
    return KIND_NAME[kind] + (f" ({test})" if test else "")


def _power_words(c: Claim) -> str:
    if c.evidence.get("power_source") == "measured":
        return "{power_w:.0f} W measured draw / {rate:,.1f} tok/s"
    return "{power_w:.0f} W limit / {rate:,.1f} tok/s, assuming the card drew its limit"


def _has(ev: dict, *keys) -> bool:
    return all(ev.get(k) is not None for k in keys)


def _enough(ev: dict) -> bool:
    """Whether a trend had the points its rule needs (so a withheld trend is a real non-trend)."""
    return len(ev.get("xs") or []) >= (ev.get("min_points") or 0)


def _within_noise(ev: dict, what: str) -> str:
    """The withheld wording of a comparison: inside the noise when both sides exist, else why not."""
    if len(ev.get("power_sources") or []) > 1:
        return "{topic}: " + what + " are not compared, because {reason}."
    if _has(ev, "ratio", "noise"):
        return (
            "{topic}: "
            + what
            + " cannot be told apart ({ratio:.1%} of the other, inside the noise of 2 standard errors: {noise:.2%})."
        )
    return "{topic}: " + what + " cannot be compared, because {reason}."


def word(claim: Claim) -> Claim:
    """The claim with its sentence, by its id's stem and kind suffix (pp/tg)."""
    stem, kind = claim.id.rsplit("_", 1)
    ev = claim.evidence
    topic = _topic(kind, ev.get("test"))
    topic = topic[:1].upper() + topic[1:]
    if stem == "speed_falls":
        return wording.say(
            claim,
            "The mean rate of {test} falls at every step down in power limit, from {highest_w:.0f} W to "
            "{lowest_w:.0f} W.",
            topic=topic,
            withheld="{topic} does not lose speed at every step down in this input: at some step down its mean "
            "rate holds or rises."
            if _enough(ev)
            else "{topic}: a loss of speed at every step down cannot be shown ({reason}).",
        )
    if stem == "flat_top":
        return wording.say(
            claim,
            "The speed of {test} holds within {tolerance:.0%} per step from {to_w:.0f} W down to {from_w:.0f} W: "
            "the cap does not bind there.",
            topic=topic,
            withheld="{topic} holds its speed within {tolerance:.0%} per step at fewer than three limits from the "
            "top, so no range where the cap does not bind is stated.",
        )
    if stem in ("retained_quote", "retained_lowest"):
        return wording.say(
            claim,
            "At {limit_w:.0f} W, {test} keeps {ratio:.1%} of its peak ({b:,.1f} tok/s at {peak_limit_w:.0f} W), "
            "a change beyond the noise (2 standard errors: {noise:.1%}).",
            topic=topic,
            withheld=_within_noise(ev, "the rate at {limit_w:.0f} W and the peak")
            if _has(ev, "limit_w")
            else "{topic}: the rate at this limit cannot be compared with the peak, because {reason}.",
        )
    if stem in ("energy_top", "energy_best"):
        where = "the highest limit" if stem == "energy_top" else "its cheapest limit"
        bias = (
            " The rate is the mean of the repetitions' rates, which exceeds tokens / total time when they vary, "
            "so this figure may be low by about {averaging_bias:.0%} (the CV squared)."
            if (ev.get("averaging_bias") or 0) >= 0.005
            else ""
        )
        return wording.say(
            claim,
            f"At {where}, {{limit_w:.0f}} W, {{test}} costs about {{joules_per_token:.3g}} J/token "
            f"± {{rel_uncertainty:.2%}} ({_power_words(claim)}; ± is the standard error over {{n_reps}} "
            + ("repetitions, llama-bench's default, assumed)." if ev.get("reps_assumed") else "repetitions).")
            + bias,
            topic=topic,
            withheld=f"{{topic}}: no energy per token at {where} is stated, because {{reason}}.",
        )
    if stem == "energy_saving":
        return wording.say(
            claim,
            "At {a_limit_w:.0f} W, {test} needs {ratio:.0%} of the energy per token it needs at {b_limit_w:.0f} W, "
            "a difference beyond the noise (2 standard errors: {noise:.1%}).",
            topic=topic,
            withheld=_within_noise(ev, "the energy per token at its cheapest and at its highest limit"),
        )
    if stem == "energy_runner_up":
        return wording.say(
            claim,
            "The cheapest limit for {test}, {a_limit_w:.0f} W, beats the next cheapest, {b_limit_w:.0f} W, by "
            "{margin:.1%} per token, beyond the noise (2 standard errors: {noise:.1%}).",
            topic=topic,
            withheld=_within_noise(ev, "the two cheapest limits")
            if _has(ev, "a_limit_w", "b_limit_w")
            else "{topic}: the two cheapest limits cannot be ordered, because {reason}.",
        )
    if stem == "sweet_spot":
        weak = (
            _has(ev, "strength", "min_strength")
            and ev["strength"] < ev["min_strength"]
            and (ev.get("n_points") or 0) >= (ev.get("min_points") or 0)
        )
        withheld = (
            "{topic}: no sweet spot inside the measured range: the rate drops only {strength:.1%} from its peak "
            "down to the lowest limit, less than the {min_strength:.0%} a sweet spot allows, so it may lie lower."
            if weak
            else "{topic}: no sweet spot is stated, because {reason}."
        )
        return wording.say(
            claim,
            "Keeping {fraction:.0%} of peak, the sweet spot for {test} is {x:.0f} W: it keeps {retained:.1%} "
            "(± {cv:.1%} between repetitions) with a limit {saving_w:.0f} W lower.",
            topic=topic,
            withheld=withheld,
        )
    if stem == "knee":
        return wording.say(
            claim,
            "The knee of the rate of {test} against the limit (Kneedle) is at {x:.0f} W (strength {strength:.2f}).",
            topic=topic,
            withheld="{topic}: no knee is stated, because {reason}.",
        )
    if stem == "spread_grows":
        return wording.say(
            claim,
            "The spread of {test} grows at every step down: its CV is {cv_high_limit:.1%} at {highest_w:.0f} W and "
            "{cv_low_limit:.1%} at {lowest_w:.0f} W.",
            topic=topic,
            withheld="{topic}: its spread does not grow at every step down in this input (at some step down its "
            "CV holds or shrinks)."
            if _enough(ev)
            else "{topic}: a spread that grows at every step down cannot be shown ({reason}).",
        )
    raise KeyError(f"no wording for claim {claim.id!r}")


def ledger(chapter: str, inputs: list[str], claims: list[Claim]) -> Ledger:
    """The chapter's ledger with every claim worded."""
    led = Ledger(chapter, inputs)
    led.extend(word(c) for c in claims)
    return led


def why_paragraph(led: Ledger) -> str:
    """The usual mechanism and what it means for a serving box, offered only when the data shows
    both halves of it (prompt processing slows at every step down, generation holds at the top);
    empty otherwise."""
    if not (led.get("speed_falls_pp").shown and led.get("flat_top_tg").shown):
        return ""
    return (
        "Why the two differ (the usual explanation; clocks were not logged here): a power cap works by lowering the "
        "GPU's clocks (and voltage) until the board stays under the limit. Prompt processing multiplies a whole batch "
        "of prompt tokens by every weight: it has a high arithmetic intensity and its speed follows the SM clock. "
        "Generation reads every weight once per token for about two FLOPs each, so it waits on memory bandwidth, and "
        "until the cap pushes the core clock below what keeps the memory busy it does not notice. A box that spends "
        "most of its time generating can run below its top limit at no cost in speed; one that mostly ingests long "
        "prompts pays for every watt removed."
    )


def stability_paragraph(led: Ledger) -> str:
    """What a spread that grows under the cap means, only when the data shows it for some test."""
    if not (led.get("spread_grows_pp").shown or led.get("spread_grows_tg").shown):
        return ""
    return (
        "A likely cause (not measured here): under a tight cap the clock controller keeps overshooting and throttling,"
        " so repetitions land at different clocks and the printed mean hides a wide spread: a capped service shows "
        "latency jitter, not just lower throughput, and a benchmark with a spread this large needs more repetitions "
        "(`-r`) or the per-repetition samples (`-o json`) before two settings can be compared."
    )


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


#: What a section says in place of its verdicts when the input has no power sweep.
NO_SWEEP = "Needs the same test at two or more power limits; this section's verdicts are withheld."

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

#: How the chapter tells a difference from noise, said once where the first comparison is made.
NOISE_RULE = (
    "(A difference is stated only when it exceeds twice the combined standard error of the two means, each "
    "the printed ± over the square root of the number of repetitions.)"
)


def section(led: Ledger, name: str, has_power: bool, extra: str = "") -> str:
    """A section's verdicts, one paragraph per group (plus `extra`, e.g. the mechanism), or NO_SWEEP:
    a page without a power sweep says once per section what is missing, not a dozen withheld
    sentences."""
    if not has_power:
        return NO_SWEEP
    paras = [" ".join(led.get(i).text for i in group) for group in SECTIONS[name]]
    if name == "speed":
        paras[-1] += " " + NOISE_RULE
    return "\n\n".join(paras + ([extra] if extra else []))


def takeaways(led: Ledger, measured: list[str] | tuple = ()) -> str:
    """The key takeaways: the `measured`-energy ones, then the shown verdicts among TAKEAWAYS, as a
    list (a sentence when none is)."""
    shown = [*measured, *(led.get(i).text for i in TAKEAWAYS if led.get(i).shown)]
    if not shown:
        return "No verdict about energy or power limits can be stated for this input; the sections above say why."
    return "\n".join(f"- {t}" for t in shown)


def input_line(
    files: str, model: str | None, limits: list, device: str | None, rated_w: float | None, measured: str = ""
) -> str:
    """The chapter's first line: what was read, from the data only (`measured`: a sentence on the
    measured energy it holds, if any)."""
    if model is None:
        return f"Input: {files}. {measured + ' ' if measured else ''}No model in it was run at a stated power limit."
    span = f" ({max(limits):.0f} W to {min(limits):.0f} W)" if len(limits) > 1 else ""
    where = f" on the {device}" if device else "; the input does not name the device"
    rated = f" (rated {rated_w:.0f} W)" if device and rated_w else ""
    return f"Input: {files}; model {model}, measured at {len(limits)} power limit(s){span}{where}{rated}."


def no_power_message(n_limits: int, measured: bool = False) -> str:
    """What the chapter says at the top when it cannot compare power limits."""
    if measured:
        return (
            "This input holds measured energy (section 1) and no llama-bench runs at power limits, so sections 2 to 5, "
            "which compare power limits, are empty."
        )
    return (
        f"**This input has {n_limits} power limit(s) for its model** (limits come from headings such as "
        "`### 600W` above each table), so this chapter cannot show how throughput and energy change with the "
        "limit: its verdicts are withheld (the claims ledger keeps each with its reason)."
    )


def sweep_note(swept: dict) -> str:
    """One sentence on the settings the chapter held fixed (empty when nothing was swept)."""
    if not swept:
        return ""
    what = "; ".join(f"{k} ({', '.join(map(str, v))})" for k, v in swept.items())
    return (
        f"The input also varies settings this chapter does not model: {what}. It keeps {power.HOLD_RULE}; "
        "the table lists every combination."
    )


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
    import matplotlib.pyplot as plt

    if table.empty:
        return message_figure("no test at two or more power limits")
    n = table["test"].nunique()
    fig, axes = plt.subplots(1, n, figsize=(4 * n, 3.8), squeeze=False)
    plot_throughput(axes[0], table)
    fig.suptitle(f"{model}: throughput vs power limit (± = sample std of the repetitions)")
    fig.tight_layout()
    return fig


def energy_figure(table: pd.DataFrame):
    """`plot_energy` as a Figure, one panel per test, the ring explained in a legend below the panels."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    if table.empty:
        return message_figure("no test at two or more power limits")
    n = table["test"].nunique()
    fig, axes = plt.subplots(1, n, figsize=(max(7.5, 4.2 * n), 4.6), squeeze=False)
    ring = Line2D([], [], marker="o", ms=11, mfc="none", mec="black", ls="none", label="Pareto set (means)")
    fig.legend(handles=[ring], loc="lower center", fontsize=8, bbox_to_anchor=(0.5, 0.0))
    fig.suptitle("Energy per token (estimate) vs throughput, per test")
    plot_energy(axes[0], table)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    label_limits(axes[0], table)
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
