"""The quantization chapter's figures, display tables and descriptions of the data (its claims'
sentences are in notebooks/quantization_regimes.claims.yml).

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

from benchbook.analysis import quant, roofline
from benchbook.presentation import wording
from benchbook.presentation.plotting import color, plain_ticks, tight
from benchbook.presentation.plotting import message_figure as _message_figure
from benchbook.presentation.roofline import mark_ridge


def message_figure(text: str):
    """The book's placeholder figure, with the message wrapped to its width."""
    return _message_figure(textwrap.fill(text, 32))


def _empty_cells(table: str) -> dict:
    """What an empty cell of one of the chapter's tables means, per column (its wording file's
    `words.empty_cells`)."""
    return dict(wording.words("quantization_regimes")["empty_cells"][table])


def _metric(m: str | None) -> str:
    return (m or "").replace("_", " ")


# --- descriptions (not verdicts) -----------------------------------------------------------------


def _say(name: str, **values) -> str:
    """One of the chapter's descriptive sentences (notebooks/quantization_regimes.claims.yml, `sentences:`)."""
    return wording.sentence("quantization_regimes", name, **values)


def no_baseline_message(baseline: str) -> str:
    """Why no speed-up can be drawn (said both in the page and inside the placeholder figure)."""
    return _say("no_baseline", baseline=baseline, default=quant.DEFAULT_BASELINE)


def _stated(where: dict) -> str:
    """The devices the file names, with their count and lines (`8 × RTX PRO 6000 (line 3)`); empty where it
    names none."""
    names = list(dict.fromkeys(where.get("stated") or []))
    if not names:
        return ""
    n = where.get("stated_count", 1)
    lines = sorted(set(where.get("stated_lines") or []))
    at = f" (line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))})" if lines else ""
    return (f"{n} × " if n > 1 else "") + " and ".join(names) + at


def setting_words(where: dict, peaks: roofline.Peaks | None, model: str | None, model_source: str | None) -> str:
    """Where the runs ran and on what model, as the input's manifest or the parameters say."""
    return _say(
        "setting",
        hardware=where.get("hardware"),
        model=model,
        model_source=model_source,
        roofline=peaks is not None and bool(model),
        no_device=peaks is None,
        stated=_stated(where),
        several=where.get("stated_count", 1) > 1,
        **(
            {
                "device": peaks.device,
                "tflops": peaks.dense_tflops,
                "bandwidth_gb_s": peaks.bandwidth_gb_s,
                "source": peaks.source,
            }
            if peaks is not None
            else {}
        ),
    )


def prefill_position(pts: pd.DataFrame, ridge: float | None) -> str:
    """Where the prefill points sit against the ridge, for the roofline caption; with no device (no
    ridge), that no roof is drawn."""
    pre = pts[pts["phase"] == "prefill"]
    if ridge is None:
        return _say("prefill_position", n=len(pre), no_device=True)
    return _say("prefill_position", n=len(pre), n_right=int((pre["intensity_flop_per_byte"] > ridge).sum()))


def prefill_words(run_table: pd.DataFrame, shape: pd.DataFrame) -> str:
    """The implied prefill of each regime as a share of its latency, or why there is none."""
    t = run_table.assign(share=run_table["implied_ttft"] / run_table["latency"])
    share = t.groupby("regime")["share"].median().reindex(shape.index).dropna()
    ms = (1000 * t.groupby("regime")["implied_ttft"].median()).reindex(share.index)
    if share.empty:
        return _say("prefill", n=0)
    if share.abs().max() < 0.005:
        return _say("prefill", n=len(share), whole_latency=True)
    lo, hi = share.idxmin(), share.idxmax()
    return _say(
        "prefill", n=len(share), lo=lo, hi=hi, lo_ms=ms[lo], hi_ms=ms[hi], lo_share=share[lo], hi_share=share[hi]
    )


def duplicate_words(dups: pd.DataFrame) -> str:
    """Repeated run labels (`checks.sglang_quant.duplicate_labels`), in words."""
    numbered = dups[dups["labels"].str.contains(r"\brun\d+\b")]
    same = dups[~dups.index.isin(numbered.index)]
    first = numbered.iloc[0] if len(numbered) else {}
    return _say(
        "duplicates",
        n=len(dups),
        n_numbered=len(numbered),
        model=first.get("model"),
        labels=first.get("labels"),
        missing=first.get("missing"),
        n_same=len(same),
        names=sorted({d.split(", ")[0] for d in same["labels"]}),
    )


def heatmap_caption(spd: pd.DataFrame, baseline: str) -> str:
    """How many cells beat or trail the baseline with their whole interval, or why none is drawn."""
    q = spd[spd["scheme"] != baseline]
    n = int(q["speedup"].notna().sum())
    if not baseline or n == 0:
        return (
            no_baseline_message(baseline)
            if not baseline or baseline not in set(spd["scheme"])
            else _say("no_shared_regime")
        )
    return _say(
        "heatmap_caption",
        baseline=baseline,
        n=n,
        above=int((q["ci_low"] > 1).sum()),
        below=int((q["ci_high"] < 1).sum()),
    )


def sets_words(winners: pd.DataFrame) -> str:
    """The takeaway about winning sets, for the number of runs this input has."""
    repeated = not winners.empty and winners["n"].max() >= 2
    return _say("sets", n=int(winners["n"].median()) if repeated else 0)


def phases_note(scheme: str | None, baseline: str) -> str:
    """The section's first sentence: which scheme it examines, or that the input has none."""
    return _say("phases_note", scheme=scheme or "", baseline=baseline)


def excluded_words(flagged: pd.DataFrame, left_out: pd.DataFrame) -> str:
    """Which flagged run values are left out of the statistics and the figures, and which are kept."""
    if flagged.empty:
        return ""

    def items(f):
        return [
            {"model": r.model, "run": r.run, "metric": r.metric, "value": r.value, "line": r.line}
            for r in f.itertuples()
        ]

    kept = flagged[~flagged.index.isin(left_out.index)]
    return _say("excluded", left_out=items(left_out), kept=items(kept))


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
        if sp is not None and np.isfinite(sp["speedup"]):
            buys = _say("decision_buys", speedup=sp["speedup"], ci_low=sp["ci_low"], ci_high=sp["ci_high"])
        else:
            buys = _say("decision_buys")
        recommended = best["scheme"]
        claim = next((c for c in getattr(ledger, "claims", ()) if c.id == f"winner_{regime}"), None)
        if claim is not None and not claim.shown:
            recommended, tied_words = "–", _say("decision_tied", reason=claim.reason)
        else:
            tied_words = _say("decision_tied", tied=tied, untested=untested)
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
SENSITIVITY_MISSING = _empty_cells("sensitivity")


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
REGIME_MISSING = _empty_cells("regimes")


# --- figures -------------------------------------------------------------------------------------

#: One colour per precision, on every figure of the chapter (the book's palette index).
PRECISION_COLOUR = {
    "16-bit weights and compute": 0,
    "int8 weights, int8 compute": 1,
    "int8 weights, fp16 compute": 2,
    "int4 weights, fp16 compute": 3,
}


def scheme_colour(scheme: str) -> str:
    """A scheme's colour: that of its precision (`PRECISION_COLOUR`), as in the lesson's and the
    roofline's figures, so w8a16 schemes are green and w8a8 ones orange in every figure."""
    return color(PRECISION_COLOUR.get(quant.precision(scheme)["label"], 4))


def lesson_words(lesson: quant.Lesson) -> dict[str, str]:
    """The lesson's numbers on its device (`lesson_numbers`) and the lesson figure's caption."""
    values = {
        "device": lesson.device,
        "example": lesson.example,
        "tflops": lesson.tflops,
        "int8_tops": lesson.int8_tops,
        "bandwidth_gb_s": lesson.bandwidth_gb_s,
        "ridge": lesson.ridge,
        "half": lesson.full_gain_until,
        "int8_ratio": lesson.int8_ratio,
    }
    return {"lesson_numbers": _say("lesson", **values), "lesson_caption": _say("lesson_caption", **values)}


def lesson_figure(lesson: quant.Lesson, max_batch: int = 1024):
    """The roofline's prediction alone: each 8-bit scheme's decode-step speed over bf16 against the
    batch (`analysis.quant.ideal_speedups`), with the two batches where weight-only's gain ends."""
    import matplotlib.pyplot as plt

    b = np.logspace(0, np.log10(max_batch), 300)
    ideal = quant.ideal_speedups(b, lesson.tflops, lesson.int8_tops, lesson.bandwidth_gb_s)
    fig, ax = plt.subplots(figsize=(7, 4))
    names = {"w8a8": "int8 weights, int8 compute", "w8a16": "int8 weights, fp16 compute"}
    for scheme, style in (("w8a16", "-"), ("w8a8", "--")):
        if scheme in ideal:
            ax.plot(b, ideal[scheme], color=color(PRECISION_COLOUR[names[scheme]]), lw=2.5, ls=style, label=scheme)
    ax.axhline(1.0, color=color(PRECISION_COLOUR["16-bit weights and compute"]), lw=1.5, label="bf16")
    for x, words, side in ((lesson.full_gain_until, "ridge / 2", "right"), (lesson.no_gain_from, "ridge", "left")):
        ax.axvline(x, color="grey", ls=":", lw=1)
        pad = 0.93 if side == "right" else 1.07
        ax.annotate(f"{words}: {x:.0f}", (x * pad, 2.18), ha=side, va="center", color="grey")
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(plain_ticks())
    ax.set_ylim(0.5, 2.3)
    ax.set_xlabel("batch (tokens per decode step)")
    ax.set_ylabel("bf16 step time / scheme step time (x)")
    ax.set_title(f"Roofline prediction on the {lesson.device}")
    ax.legend(loc="center right")  # between the 2x and the 1x lines, clear of both (lower left sat on bf16)
    tight(fig)
    return fig


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
    tight(fig)
    return fig


#: The most panels one figure holds: more are split over several figures, readable at column width.
MAX_PANELS = 4


def winners_regimes(winners: pd.DataFrame) -> list[list[str]]:
    """The regimes in their order, in groups of at most MAX_PANELS: one winners figure each."""
    regimes = quant.regime_order(winners["regime"].unique()) if len(winners) else []
    return [regimes[i : i + MAX_PANELS] for i in range(0, len(regimes), MAX_PANELS)]


def winners_figure(winners: pd.DataFrame, regimes: list[str] | None = None):
    """One panel per regime (`regimes`, default all): each scheme's mean of the regime's metric with
    ± 1 standard deviation over its runs (SGLang's sigma), in its precision's colour; filled markers
    are the winning set, open ones the rest."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    if winners.empty:
        return message_figure(_say("no_winners_figure"))
    regimes = regimes or quant.regime_order(winners["regime"].unique())
    ncols = min(2, len(regimes))
    nrows = math.ceil(len(regimes) / ncols)
    n_schemes = winners["scheme"].nunique()
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.6 * ncols, 0.32 * n_schemes * nrows + 1.8 * nrows), squeeze=False)
    for ax, regime in zip(axes.flat, regimes, strict=False):
        g = winners[winners["regime"] == regime].sort_values("rank", ascending=False)
        y = np.arange(len(g))
        for k, r in enumerate(g.itertuples()):
            c = scheme_colour(r.scheme)
            ax.errorbar(
                r.mean,
                y[k],
                xerr=r.std if np.isfinite(r.std) else None,
                fmt="o",
                color=c,
                mfc=c if r.in_winner_set else "white",
                capsize=3,
            )
        ax.set_yticks(y, list(g["scheme"]))
        ax.set_title(f"{regime}: mean ± 1 sd")
        ax.set_xlabel(f"{_metric(g['metric'].iloc[0])} ({'s' if g['metric'].iloc[0] == 'latency' else 'tok/s'})")
        ax.margins(x=0.25)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=3, prune="both"))
    for ax in list(axes.flat)[len(regimes) :]:
        fig.delaxes(ax)
    tight(fig, w_pad=2.5)
    return fig


def roofline_figure(pts: pd.DataFrame, peaks: roofline.Peaks | None, model: str, xlim=(0.5, 100_000)):
    """Decode and prefill points on the device's 16-bit roofline (and the int8 one where known),
    with ± 1 standard deviation over runs; only the runs the statistics use. With no device
    (`peaks` None) the points alone: no roof is assumed."""
    import matplotlib.pyplot as plt

    pts = pts[np.isfinite(pts["achieved_tflops"])]
    if pts.empty:
        return message_figure(_say("no_roofline_figure"))
    fig, ax = plt.subplots(figsize=(8, 5))
    if peaks is not None:
        x = np.logspace(np.log10(xlim[0]), np.log10(xlim[1]), 200)
        bw = peaks.bandwidth_gb_s * 1e9 / 1e12
        ax.plot(x, np.minimum(peaks.dense_tflops, bw * x), color="black", lw=2, label=f"{peaks.device} 16-bit roofline")
        if peaks.int8_tops:
            ax.plot(x, np.minimum(peaks.int8_tops, bw * x), color="grey", lw=1.5, ls="--", label="int8 roofline")
        mark_ridge(ax, peaks.ridge(), peaks.dense_tflops)
    for label, g in pts.groupby("precision", sort=False):
        i = PRECISION_COLOUR.get(label, 4)
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
    ax.xaxis.set_major_formatter(plain_ticks())
    ax.yaxis.set_major_formatter(plain_ticks())
    ax.set_xlabel("arithmetic intensity, weights only (FLOP/byte)")
    ax.set_ylabel("achieved (TFLOP/s; int8 TOP/s)")
    if peaks is not None:
        ax.set_ylim(top=3 * max(peaks.int8_tops or 0, peaks.dense_tflops))
    if peaks is not None:
        title = _say("roof_title", model=model, device=peaks.device, source=peaks.source)
    else:
        title = _say("no_device_title", model=model)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, loc="lower right")
    tight(fig)
    return fig


def phases_figure(ratios: pd.DataFrame, scheme: str, baseline: str, peaks: roofline.Peaks | None):
    """The weight-only scheme's speed relative to the baseline per phase, against the tokens each
    forward pass multiplies by every weight (log scale), with the interval of each ratio."""
    import matplotlib.pyplot as plt

    r = ratios[np.isfinite(ratios["ratio"])]
    if r.empty:
        return message_figure(_say("no_phase_time_figure"))
    fig, ax = plt.subplots()
    c = scheme_colour(scheme)
    for phase, marker in (("decode", "o"), ("prefill", "s")):
        q = r[r["phase"] == phase]
        if q.empty:
            continue
        lo = (q["ratio"] - q["ci_low"]).fillna(0).clip(lower=0)
        hi = (q["ci_high"] - q["ratio"]).fillna(0).clip(lower=0)
        ax.errorbar(
            q["tokens_per_pass"],
            q["ratio"],
            yerr=[lo, hi],
            fmt=marker,
            color=c,
            mfc=c if phase == "decode" else "white",
            capsize=3,
            label=phase,
            zorder=3,
        )
    ax.axhline(1.0, color="black", lw=0.8)
    if peaks is not None:
        # tokens per pass at which a 1-byte-weight pass reaches the 16-bit ridge (intensity 2 x tokens)
        ax.axvline(
            peaks.ridge() / 2,
            color="grey",
            ls=":",
            lw=1,
            label=f"ridge of 8-bit weights ({peaks.ridge() / 2:.0f} tokens)",
        )
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(plain_ticks())
    ax.set_xlabel("tokens per forward pass (decode: batch; prefill: batch x input length)")
    ax.set_ylabel(f"{baseline} time / {scheme} time (x)")
    ax.set_title(f"{scheme} against {baseline}, per phase")
    ax.legend(fontsize=8)
    return fig
