"""The quantization chapter's figures, display tables and sentence templates.

Every verdict comes from a claim (`benchbook.claims.quant`); figure titles say what is drawn, never
a verdict; descriptions name only what the input, its manifest or a parameter says. Every figure
is drawn from the run table the statistics use, so a value the outlier rule leaves out is out of
every figure too. Error bars are one standard deviation over runs (the sigma SGLang's report prints).
"""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pandas as pd

from benchbook.analysis import quant
from benchbook.claims import Claim, Ledger
from benchbook.presentation import wording
from benchbook.presentation.plotting import color
from benchbook.presentation.plotting import message_figure as _message_figure

SOURCE_WORDS = {
    "detected": "named in the input's manifest",
    "parameter": "given as a parameter",
    "assumed": "assumed: the input names no device, pass `gpu` for yours",
}


def message_figure(text: str):
    """The book's placeholder figure, with the message wrapped to its width."""
    return _message_figure(textwrap.fill(text, 32))


def _metric(m: str | None) -> str:
    return (m or "").replace("_", " ")


# --- descriptions (not verdicts) -----------------------------------------------------------------


def no_baseline_message(baseline: str) -> str:
    """Why no speed-up can be drawn (said both in the page and inside the placeholder figure)."""
    if not baseline:
        return f"The input has no {quant.DEFAULT_BASELINE!r} runs and no baseline was given: no speed-up can be shown."
    return f"The input has no runs of the baseline {baseline!r}, so no speed-up can be shown."


def setting_words(where: dict, peaks: quant.Peaks | None, model: str | None, model_source: str | None) -> str:
    """Where the runs ran and on what model, as the input's manifest or the parameters say."""
    hw = where.get("hardware")
    parts = [
        f"The input's manifest records the hardware as: {hw}." if hw else "No manifest records this input's hardware."
    ]
    if model:
        parts.append(
            f"Model: {model} ({'given as a parameter' if model_source == 'parameter' else 'from the manifest'})."
        )
    else:
        parts.append("It names no model whose size is known, so the roofline section is left out (pass `model_id`).")
    if peaks is not None and model:
        parts.append(
            f"The roofline uses the {peaks.device}: {peaks.tflops:,.0f} TFLOP/s dense 16-bit, "
            f"{peaks.bandwidth_gb_s:,.0f} GB/s ({SOURCE_WORDS.get(peaks.source, peaks.source)})."
        )
    return " ".join(parts)


def prefill_position(pts: pd.DataFrame, ridge: float) -> str:
    """Where the prefill points sit against the ridge, for the roofline caption."""
    pre = pts[pts["phase"] == "prefill"]
    if pre.empty:
        return "No prefill point could be placed (no implied TTFT)."
    n_right = int((pre["intensity_flop_per_byte"] > ridge).sum())
    if n_right == len(pre):
        return f"All {len(pre)} prefill points sit right of the ridge."
    return f"{n_right} of {len(pre)} prefill points sit right of the ridge."


def prefill_words(run_table: pd.DataFrame, shape: pd.DataFrame) -> str:
    """The implied prefill of each regime as a share of its latency, or why there is none."""
    t = run_table.assign(share=run_table["implied_ttft"] / run_table["latency"])
    share = t.groupby("regime")["share"].median().reindex(shape.index).dropna()
    ms = (1000 * t.groupby("regime")["implied_ttft"].median()).reindex(share.index)
    if share.empty:
        return "No run here gives both latency and output throughput, so no prefill time can be implied."
    if share.abs().max() < 0.005:
        return (
            "Here latency equals batch x output length / output throughput in every run: this file comes from the "
            "earliest release, whose output throughput divides by the whole latency, so no prefill time can be "
            "implied from it."
        )
    lo, hi = share.idxmin(), share.idxmax()
    return (
        f"The median implied prefill is {ms[lo]:,.0f} ms in {lo} ({share[lo]:.0%} of its latency) and {ms[hi]:,.0f} ms "
        f"in {hi} ({share[hi]:.0%}); where it is a large share, a decode-only metric leaves out much of what a "
        "user waits for."
        if lo != hi
        else f"The median implied prefill is {ms[lo]:,.0f} ms, {share[lo]:.0%} of the latency."
    )


def duplicate_words(dups: pd.DataFrame) -> str:
    """Repeated run labels (`checks.sglang_quant.duplicate_labels`), in words."""
    if dups.empty:
        return "No configuration repeats a run label."
    numbered = dups[dups["labels"].str.contains(r"\brun\d+\b")]
    parts = []
    if len(numbered):
        r = numbered.iloc[0]
        miss = f", {r['missing']} missing" if r["missing"] else ""
        parts.append(
            f"{len(numbered)} configuration(s) repeat a numbered run label (e.g. {r['model']}: {r['labels']}{miss}); "
            "runs that share a label but differ in value are distinct runs with wrong names, and all are kept."
        )
    same = dups[~dups.index.isin(numbered.index)]
    if len(same):
        names = ", ".join(sorted({d.split(", ")[0] for d in same["labels"]}))
        parts.append(
            f"{len(same)} configuration(s) give every run the same name ({names}): the runs are told apart by their "
            "order in the file only, and all are kept."
        )
    return " ".join(parts)


def heatmap_caption(spd: pd.DataFrame, baseline: str) -> str:
    """How many cells beat or trail the baseline with their whole interval, or why none is drawn."""
    q = spd[spd["scheme"] != baseline]
    n = int(q["speedup"].notna().sum())
    if not baseline or n == 0:
        return (
            no_baseline_message(baseline)
            if not baseline or baseline not in set(spd["scheme"])
            else ("No scheme shares a regime with the baseline, so no speed-up is drawn.")
        )
    return (
        f"Speed-up over {baseline} with its interval: {int((q['ci_low'] > 1).sum())} of {n} scheme/regime cells have "
        f"the whole interval above 1 and {int((q['ci_high'] < 1).sum())} below it; boxed: the winning set."
    )


def sets_words(winners: pd.DataFrame) -> str:
    """The takeaway about winning sets, for the number of runs this input has."""
    if winners.empty or winners["n"].max() < 2:
        return "With one run per scheme and regime, no winner can be told from noise: repeat each run."
    n = int(winners["n"].median())
    return f"Winners are sets: with {n} runs per cell, report the schemes the runs cannot separate, not a gold medal."


def phases_note(scheme: str | None, baseline: str) -> str:
    """The section's first sentence: which scheme it examines, or that the input has none."""
    if scheme:
        return (
            f"The scheme examined is {scheme}, the weight-only scheme slowest against {baseline} at the largest batch."
        )
    return (
        "This input has no weight-only (w8a16) scheme measured beside a baseline, so this section has nothing to show."
    )


def excluded_words(flagged: pd.DataFrame, left_out: pd.DataFrame) -> str:
    """Which flagged run values are left out of the statistics and the figures, and which are kept."""
    if flagged.empty:
        return ""

    def items(f):
        return wording.join(
            f"{r.model} {r.run} ({_metric(r.metric)} {r.value:,.2f}, line {r.line})"
            if r.run != r.model
            else f"{r.model} ({_metric(r.metric)} {r.value:,.2f}, line {r.line})"
            for r in f.itertuples()
        )

    kept = flagged[~flagged.index.isin(left_out.index)]
    out = []
    if len(left_out):
        out.append(f"Left out of every statistic and figure below: {items(left_out)}.")
    if len(kept):
        out.append(f"Kept, because the runs of their cells differ beyond output throughput: {items(kept)}.")
    return " ".join(out)


def message_figure_for_model():
    """The roofline's placeholder when the model's size is unknown."""
    return message_figure("No model of known size: pass model_id to place the runs on a roofline.")


def message_figure_for_phases(baseline: str):
    """The phase figure's placeholder when no weight-only scheme shares regimes with the baseline."""
    if not baseline:
        return message_figure("No baseline scheme, so no weight-only scheme can be compared with one.")
    return message_figure(f"No weight-only (w8a16) scheme measured in the same regimes as {baseline!r}.")


# --- tables --------------------------------------------------------------------------------------


def decision_table(winners: pd.DataFrame, spd: pd.DataFrame, baseline: str, ledger=None) -> pd.DataFrame:
    """Per regime: the metric, the recommended scheme (best mean), what it buys over the baseline
    (speed-up and interval), and the schemes statistically tied with it. With the chapter's ledger, a
    regime whose winner claim is not shown recommends nothing and says why: a best mean that the
    noise, or a lack of rivals, cannot support is not a recommendation."""
    rows = []
    for regime in quant.regime_order(winners["regime"].unique()):
        w = winners[winners["regime"] == regime].sort_values("rank")
        best = w.iloc[0]
        s = spd[(spd["regime"] == regime) & (spd["scheme"] == best["scheme"])]
        sp = s.iloc[0] if len(s) else None
        tied = [x for x in w.loc[w["in_winner_set"], "scheme"] if x != best["scheme"]]
        untested = [x for x in w.loc[~w["testable"], "scheme"] if x != best["scheme"]]
        buys = "no baseline runs"
        if sp is not None and np.isfinite(sp["speedup"]):
            buys = f"{sp['speedup']:.2f}x"
            if np.isfinite(sp["ci_low"]):
                buys += f" [{sp['ci_low']:.2f}, {sp['ci_high']:.2f}]"
        tied_words = ", ".join(tied) if tied else "no other scheme"
        if untested:
            tied_words += f" (too few runs to test {', '.join(untested)})"
        recommended = best["scheme"]
        claim = next((c for c in getattr(ledger, "claims", ()) if c.id == f"winner_{regime}"), None)
        if claim is not None and not claim.shown:
            recommended, tied_words = "–", f"none stated: {claim.reason}"
        rows.append(
            {
                "regime": regime,
                "deciding metric": _metric(best["metric"]),
                "recommended": recommended,
                f"speed-up over {baseline or 'a baseline'} [interval]": buys,
                "statistically tied": tied_words,
                "runs of the recommended": int(best["n"]),
            }
        )
    return pd.DataFrame(rows)


#: What an empty cell of the sensitivity table means, per column.
SENSITIVITY_MISSING = {"source's first place": "not ranked by the source"}


def sensitivity_table(sens: pd.DataFrame, pub: pd.DataFrame) -> pd.DataFrame:
    """The best scheme per regime under each metric, with the source's own first place beside it
    when the input ranks the schemes; an empty cell is a metric no run of that regime has."""
    t = sens.rename(columns={m: f"best by {_metric(m)}" for m in sens.columns})
    if len(pub):
        first = pub[pub["rank"] == 1].set_index("regime")["scheme"]
        t = t.assign(**{"source's first place": first.reindex(t.index)})
    return t.rename_axis("regime").reset_index()


def regime_display(regimes: pd.DataFrame) -> pd.DataFrame:
    """`quant.regime_table` for reading: one row per regime, lengths in tokens, TTFT in ms."""
    return (
        regimes.assign(metric=regimes["metric"].map(_metric))
        .rename_axis("regime")
        .reset_index()
        .rename(
            columns={
                "batch_size": "batch size",
                "input_len": "input length (tokens)",
                "output_len": "output length (tokens)",
                "metric": "deciding metric",
                "median_implied_ttft_ms": "median implied TTFT (ms)",
            }
        )
    )


#: Why a regime has no implied TTFT.
REGIME_MISSING = {"median implied TTFT (ms)": "cannot be implied"}


# --- figures -------------------------------------------------------------------------------------


def heatmap(ax, spd: pd.DataFrame, winners: pd.DataFrame, baseline: str) -> None:
    """Regime x scheme speed-up over the baseline (log colour scale centred on 1), winning set boxed."""
    import matplotlib.colors as mcolors
    from matplotlib.patches import Rectangle

    regimes = quant.regime_order(spd["regime"].unique())
    schemes = [baseline] + sorted(set(spd["scheme"]) - {baseline})
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
    ax.set_yticks(range(len(regimes)), [f"{r}\n({_metric(metric[r])})" for r in regimes], fontsize=8)
    ax.set_xlabel("quantization scheme")
    ax.set_ylabel("regime (metric)")
    ax.grid(False)
    cb = ax.figure.colorbar(im, ax=ax, fraction=0.04, pad=0.02)
    cb.set_label(f"speed-up over {baseline} (x, >1 is better)")


def heatmap_figure(spd: pd.DataFrame, winners: pd.DataFrame, baseline: str, alpha: float):
    """The heatmap sized to the grid; without baseline runs, a figure that says why."""
    import matplotlib.pyplot as plt

    if not baseline or baseline not in set(spd["scheme"]):
        return message_figure(no_baseline_message(baseline))
    n_schemes, n_regimes = spd["scheme"].nunique(), spd["regime"].nunique()
    fig, ax = plt.subplots(figsize=(max(1.3 * n_schemes + 3, 8), 0.75 * n_regimes + 2))
    heatmap(ax, spd, winners, baseline)
    ax.set_title(f"Speed-up over {baseline} by regime (boxed: winning set, alpha={alpha})", fontsize=10)
    fig.tight_layout()
    return fig


def winners_figure(winners: pd.DataFrame):
    """One panel per regime: each scheme's mean of the regime's metric with +-1 standard deviation
    over its runs (SGLang's sigma); filled markers are the winning set."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    if winners.empty:
        return message_figure("No regime has runs to rank.")
    regimes = quant.regime_order(winners["regime"].unique())
    ncols = min(3, len(regimes))
    nrows = math.ceil(len(regimes) / ncols)
    n_schemes = winners["scheme"].nunique()
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.6 * ncols, 0.32 * n_schemes * nrows + 1.8 * nrows), squeeze=False)
    for ax, regime in zip(axes.flat, regimes, strict=False):
        g = winners[winners["regime"] == regime].sort_values("rank", ascending=False)
        y = np.arange(len(g))
        for k, r in enumerate(g.itertuples()):
            c = color(0) if r.in_winner_set else color(3)
            ax.errorbar(
                r.mean,
                y[k],
                xerr=r.std if np.isfinite(r.std) else None,
                fmt="o",
                color=c,
                mfc=c if r.in_winner_set else "white",
                capsize=3,
            )
        ax.set_yticks(y, list(g["scheme"]), fontsize=7)
        ax.set_title(f"{regime}: mean +- 1 sd", fontsize=9)
        ax.set_xlabel(
            f"{_metric(g['metric'].iloc[0])} ({'s' if g['metric'].iloc[0] == 'latency' else 'tok/s'})", fontsize=8
        )
        ax.tick_params(axis="x", labelsize=7)
        ax.margins(x=0.25)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=3, prune="both"))
    for ax in list(axes.flat)[len(regimes) :]:
        fig.delaxes(ax)
    fig.tight_layout(w_pad=2.5)
    return fig


def roofline_figure(pts: pd.DataFrame, peaks: quant.Peaks, model: str, xlim=(0.5, 100_000)):
    """Decode and prefill points on the device's 16-bit roofline (and the int8 one where known),
    with +-1 standard deviation over runs; only the runs the statistics use."""
    import matplotlib.pyplot as plt

    pts = pts[np.isfinite(pts["achieved_tflops"])]
    if pts.empty:
        return message_figure("No run with a decode or prefill rate to place on the roofline.")
    fig, ax = plt.subplots(figsize=(8, 5))
    x = np.logspace(np.log10(xlim[0]), np.log10(xlim[1]), 200)
    bw = peaks.bandwidth_gb_s * 1e9 / 1e12
    ax.plot(x, np.minimum(peaks.tflops, bw * x), color="black", lw=2, label=f"{peaks.device} 16-bit roofline")
    if peaks.int8_tops:
        ax.plot(x, np.minimum(peaks.int8_tops, bw * x), color="grey", lw=1.5, ls="--", label="int8 roofline")
    ax.axvline(peaks.ridge, color="grey", ls=":", lw=1)
    ax.annotate(
        f"ridge {peaks.ridge:.0f} FLOP/B",
        (peaks.ridge, peaks.tflops),
        textcoords="offset points",
        xytext=(5, -15),
        fontsize=8,
    )
    for i, (label, g) in enumerate(pts.groupby("precision", sort=False)):
        for phase, marker in (("decode", "o"), ("prefill", "s")):
            q = g[g["phase"] == phase]
            if q.empty:
                continue
            ax.errorbar(
                q["intensity_flop_per_byte"],
                q["achieved_tflops"],
                yerr=q["achieved_tflops_std"].fillna(0).to_numpy(),
                fmt=marker,
                color=color(i),
                mfc=color(i) if phase == "decode" else "white",
                capsize=2,
                ms=5,
                label=f"{phase}: {label}",
                zorder=3,
            )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity, weights only (FLOP/byte)")
    ax.set_ylabel("achieved (TFLOP/s; int8 TOP/s)")
    ax.set_ylim(top=3 * max(peaks.int8_tops or 0, peaks.tflops))
    ax.set_title(f"{model} on the {peaks.device} roofline ({peaks.source} peaks)", fontsize=10)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def phases_figure(ratios: pd.DataFrame, scheme: str, baseline: str, peaks: quant.Peaks | None):
    """The weight-only scheme's speed relative to the baseline per phase, against the tokens each
    forward pass multiplies by every weight (log scale), with the interval of each ratio."""
    import matplotlib.pyplot as plt

    r = ratios[np.isfinite(ratios["ratio"])]
    if r.empty:
        return message_figure("No phase time of both schemes in the same regime.")
    fig, ax = plt.subplots()
    for i, phase in enumerate(("decode", "prefill")):
        q = r[r["phase"] == phase]
        if q.empty:
            continue
        lo = (q["ratio"] - q["ci_low"]).fillna(0).clip(lower=0)
        hi = (q["ci_high"] - q["ratio"]).fillna(0).clip(lower=0)
        ax.errorbar(
            q["tokens_per_pass"], q["ratio"], yerr=[lo, hi], fmt="o", color=color(i), capsize=3, label=phase, zorder=3
        )
    ax.axhline(1.0, color="black", lw=0.8)
    if peaks is not None:
        # tokens per pass at which a 1-byte-weight pass reaches the 16-bit ridge (intensity 2 x tokens)
        ax.axvline(
            peaks.ridge / 2, color="grey", ls=":", lw=1, label=f"ridge of 8-bit weights ({peaks.ridge / 2:.0f} tokens)"
        )
    ax.set_xscale("log")
    ax.set_xlabel("tokens per forward pass (decode: batch; prefill: batch x input length)")
    ax.set_ylabel(f"{baseline} time / {scheme} time (x)")
    ax.set_title(f"{scheme} against {baseline}, per phase")
    ax.legend(fontsize=8)
    return fig


# --- sentences -----------------------------------------------------------------------------------


def _winner_words(c: Claim) -> str:
    ev = c.evidence
    tied = [w for w in ev.get("winners") or [] if w != ev.get("best")]
    if tied:
        return (
            "**{regime}** ({metric_words}): {best} has the best mean, and the runs cannot tell "
            + wording.join(tied)
            + " from it at alpha = {alpha} (p = "
            + wording.join(f"{(ev['p_values'] or {}).get(t, 0):.2f}" for t in tied)
            + "): a set of "
            + str(len(tied) + 1)
            + " wins."
        )
    return "**{regime}** ({metric_words}): {best} wins outright; every other scheme differs from it at alpha = {alpha}."


def word(c: Claim) -> Claim:
    """The claim with its sentence."""
    ev = c.evidence

    def say(shown, topic, withheld=None, implausible=None):
        extra = {
            "metric_words": _metric(ev.get("metric")),
            "source_words": SOURCE_WORDS.get(ev.get("peak_source"), ev.get("peak_source") or ""),
        }
        for k, v in extra.items():
            shown = shown.replace("{" + k + "}", v)
            withheld = withheld.replace("{" + k + "}", v) if withheld else withheld
            implausible = implausible.replace("{" + k + "}", v) if implausible else implausible
            topic = topic.replace("{" + k + "}", v)
        try:
            topic = wording.fill(topic, ev)
        except wording.MissingValue:
            topic = topic.split("{")[0].strip() or "This verdict"
        return wording.say(c, shown, topic=topic, withheld=withheld, implausible=implausible)

    if c.id.startswith("winner_"):
        return say(_winner_words(c), "**{regime}**: a winning set")
    if c.id == "metric_changes":
        return say(
            "The best scheme depends on the metric in {count} of {n} regimes ({regimes}), beyond what the runs can "
            "tell apart: output throughput ignores prefill, so it can crown a scheme that delivers the whole answer "
            "later."
            + (" In {within_noise} the bests differ too, but inside the noise." if ev.get("within_noise") else ""),
            "A metric that changes the winner",
            withheld=(
                "In no regime does the metric change the winner beyond what the runs can tell apart: in "
                "{within_noise} the three metrics crown different schemes, but one scheme is among the winners "
                "under all three."
                if ev.get("within_noise")
                else "In every regime the three metrics agree on the best scheme."
            )
            if ev.get("n")
            else "No regime has two schemes, so no metric can change a winner.",
        )
    if c.id == "source_first_place":
        return say(
            "The source's own first place (by output throughput) differs from ours, by the regime's metric, in "
            "{count} of {n} regimes: {regimes}.",
            "The source's ranking",
            withheld="The source's first place agrees with ours in every regime it ranks."
            if ev.get("n")
            else "The input has no published ranking to compare with.",
        )
    if c.id == "confound":
        return say(
            '**A confound the comparisons carry:** the manifest records the hardware as "{hardware}": each '
            "scheme ran on its own GPU, so every difference between schemes includes any difference between those GPUs "
            "(clocks, temperature, memory), which these runs cannot separate from the scheme.",
            "Which GPU each scheme ran on",
            withheld="The manifest says all schemes shared one GPU ({hardware})."
            if ev.get("own_gpu_each") is False
            else "The input does not say whether the schemes ran on one GPU or each on its own; if on several, "
            "every difference between schemes also holds any difference between the GPUs.",
        )
    if c.id == "outlier_cells":
        tail = (
            " In every flagged cell, one run's output throughput sits below the others while its latency and overall "
            "throughput are not flagged: output throughput is the one metric that depends on that run's TTFT "
            "timestamp, so that value is left out."
            if ev.get("timestamp_cells") == ev.get("count")
            else " In none of them is output throughput the only metric off: latency or overall throughput vary too, "
            "so the runs themselves differ, and all are kept."
            if not ev.get("timestamp_cells")
            else " In {timestamp_cells} of them only output throughput is off (a TTFT timestamp), and that value is "
            "left out; in the others latency or overall throughput vary too, so the runs themselves differ and are kept."
        )
        return say(
            "The outlier rule ({outlier_rule}) flags {count} of {n} scheme/regime cells: {cells}." + tail,
            "Outlying cells",
            withheld="The outlier rule ({outlier_rule}) flags no cell." if ev.get("n") else None,
        )
    if c.id == "outlier_physics":
        return say(
            "Taken at face value, the flagged run {model} {run} implies a prefill of {implied_tflops:,.0f} "
            "{unit}, {fraction:.0%} of the {device}'s {peak:,.0f} {unit} peak ({source_words}): physically possible, so "
            "physics alone does not show that its timestamp is wrong.",
            "The physics of the flagged runs",
            withheld=(
                "The flagged run(s) cannot be checked against physics: the input names no model of known size "
                "(pass `model_id`)."
                if ev.get("implied_tflops") is None
                else "The flagged run(s) cannot be checked against a peak: {reason}."
            )
            if ev.get("n_flagged_runs")
            else "No value is left out, so there is nothing to check against physics.",
            implausible="**The flagged runs are not measurements of the GPU.** Taken at face value, {model} "
            "{run} (line {line}) would have prefilled at {implied_tflops:,.0f} {unit}, {fraction:.0%} of the "
            "{device}'s {peak:,.0f} {unit} peak ({source_words}): beyond physics. Its output throughput of "
            "{value:,.2f} tok/s leaves only {implied_ttft_ms:.0f} ms for the prefill, so its TTFT timestamp is the "
            "likely fault, not the GPU; leaving it out is right. Implied prefill against the peak, per flagged run: "
            "{fractions:.1%}.",
        )
    if c.id == "outlier_effect":
        return say(
            "Leaving the flagged values out changes {count} winning-set membership(s) of {n}.",
            "The flagged values' effect",
            withheld="Leaving the flagged values out changes no winning set."
            if ev.get("n_flagged")
            else "Nothing is left out, so no winning set changes.",
        )
    if c.id == "decode_bandwidth":
        sd = " (sd {gb_s_std:,.1f})" if ev.get("gb_s_std") is not None else ""
        return say(
            "At batch {batch_size}, the fastest decode ({scheme}, {regime}) streams its weights at {gb_s:,.0f} GB/s"
            + sd
            + ", {fraction:.0%} of the {device}'s {peak:,.0f} GB/s ({source_words}); KV-cache "
            "reads add to that, so it is a lower bound.",
            "The decode bandwidth at the smallest batch",
            withheld="The decode bandwidth is not stated: the input names no model of known size (pass `model_id`)."
            if ev.get("active_params_b") is None
            else None,
            implausible="**Warning: the decode bandwidth at batch {batch_size} is not a result.** It would be "
            "{fraction:.0%} of the {device}'s bandwidth; {reason}.",
        )
    if c.id == "w8a16_decode_trend":
        place = (
            "every one of these steps sits left of the ridge on the {device} ({source_words}; {max_intensity:.0f} FLOP/byte at most, "
            "with 8-bit weights, against {ridge:.0f}), where the roofline rewards fewer weight bytes. Crossing the ridge "
            "does not explain the loss. What the data show instead is the weight-only kernel losing ground to the "
            "16-bit one as each pass multiplies more tokens: it dequantises the weights and then multiplies on the "
            "same 16-bit tensor cores."
            if ev.get("left_of_ridge")
            else "the largest batches reach {max_intensity:.0f} FLOP/byte, beyond the ridge at {ridge:.0f} on the "
            "{device} ({source_words}), so there the roofline itself takes away the bandwidth saving."
        )
        return say(
            "Per decode step, {scheme} runs {y_first:.2f}x as fast as {baseline} at batch {x_first} and "
            "{y_last:.2f}x at batch {x_last}, falling at every larger batch ({ys:.2f} at batch {xs}). Yet " + place,
            "How {scheme}'s decode speed moves with the batch",
            withheld="Per decode step, {scheme}'s speed relative to {baseline} does not fall beyond the noise at every "
            "larger batch ({reason}), so this input cannot decide whether the weight-only kernel's cost grows with the tokens "
            "per pass."
            if ev.get("scheme")
            else "This input lacks a weight-only (w8a16) scheme or the baseline in the same regimes, so the "
            "mechanism cannot be examined.",
        )
    if c.id == "w8a16_large_batch_bound":
        what = {
            "overhead": "limited by neither roof: its weights stream at {bandwidth_fraction:.0%} of the bandwidth and "
            "it reaches {compute_fraction:.0%} of the 16-bit compute peak, at {intensity:.0f} FLOP/byte, left of "
            "the ridge at {ridge:.0f} (a 16-bit scheme sits at {intensity_16bit:.0f}). The limit is the kernel "
            "or the framework around it, not the device's peaks",
            "memory-bandwidth": "bandwidth-bound: its weights stream at {bandwidth_fraction:.0%} of the bandwidth, at "
            "{intensity:.0f} FLOP/byte against the ridge at {ridge:.0f}",
            "compute": "compute-bound: {compute_fraction:.0%} of the 16-bit peak at {intensity:.0f} FLOP/byte, right "
            "of the ridge at {ridge:.0f}; here crossing the ridge does explain the loss",
        }.get(ev.get("verdict"), "")
        return say(
            "At batch {batch_size} ({regime}) a decode step of {scheme} on the {device} ({source_words}) is "
            + what
            + ".",
            "What limits {scheme}'s decode at the largest batch",
            withheld=None
            if ev.get("scheme") and ev.get("params_b")
            else "What limits a weight-only decode step at the largest batch is not examined: "
            + (
                "the input names no model of known size (pass `model_id`)."
                if ev.get("scheme")
                else "no such scheme here."
            ),
        )
    if c.id == "w8a16_long_prefill":
        how = "slower" if ev.get("slower") else "faster"
        return say(
            "In {regime}, the longest prefill here ({tokens_per_pass:,} tokens at batch {batch_size}), {scheme}'s "
            "prefill runs at {ratio:.2f}x the speed of {baseline}'s [{ci_low:.2f}, {ci_high:.2f}] (" + how + ") "
            "while its decode runs at {decode_ratio:.2f}x, for {total_ratio:.2f}x over the whole request. A prefill "
            "pass multiplies every weight by {tokens_per_pass:,} tokens ({intensity:,.0f} FLOP/byte), far right of "
            "the ridge, where 8-bit weights save no time and dequantising them costs some.",
            "{scheme}'s long prefill against {baseline}'s",
            withheld="In {regime} ({tokens_per_pass:,} prompt tokens), {scheme}'s prefill runs at {ratio:.2f}x "
            "{baseline}'s, inside its interval's half-width ({noise:.0%}): no difference is called."
            if ev.get("ratio") is not None and ev.get("noise") is not None
            else "No weight-only scheme's prefill can be compared with a baseline's here.",
        )
    raise KeyError(f"no wording for claim {c.id!r}")


def sentences(claims: list[Claim], inputs: list[str]) -> Ledger:
    """The chapter's ledger: every claim worded, in page order."""
    led = Ledger("quantization_regimes", inputs)
    for c in claims:
        led.add(word(c))
    return led


def block(ledger: Ledger, prefix: str) -> str:
    """The sentences of every claim whose id starts with `prefix`, as a Markdown list."""
    return "\n".join(f"- {c.text}" for c in ledger.claims if c.id.startswith(prefix))
