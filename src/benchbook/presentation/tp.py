"""The tp_scaling chapter's figures, display tables and sentences.

Verdict sentences live in notebooks/tp_scaling.claims.yml (`wording.ledger`); descriptions of the
data (what the input holds, the mislabelled prefill column, the fit's parameters) are built here
from analysis results. Every figure draws TGI's Lowest and Highest as error bars where it plots a
latency or a throughput.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from benchbook import hardware
from benchbook.analysis import roofline, tp
from benchbook.claims import rules
from benchbook.presentation import wording
from benchbook.presentation.plotting import color, panel_size, ramp, tight, times_ticks
from benchbook.presentation.roofline import plot_points, plot_roofline
from benchbook.presentation.tables import NOT_RUN
from benchbook.presentation.wording import join

PHASES = (("prefill_latency", "Prefill"), ("decode_token_latency", "Decode (per token)"))


# ---------------------------------------------------------------------------------- descriptions
def _say(name: str, **values) -> str:
    """One of the chapter's descriptive sentences (notebooks/tp_scaling.claims.yml, `sentences:`)."""
    return wording.sentence("tp_scaling", name, **values)


def tp_sentence(notes: list[dict]) -> str:
    """Where the TP of tables that state none comes from (`analysis.tp.fill_tp`); empty when every
    table states its own."""
    return _say("tp_source", notes=notes) if notes else ""


def _named_but_not_placed(device: dict) -> dict:
    """What the input says of a device the hardware table knows but cannot place (`analysis.roofline.
    said`): a family of its rows (`### A100`) or several devices side by side. Empty otherwise: a name
    the table lacks, or none, is what "neither ... names a GPU the hardware table knows" says."""
    said = device.get("said") or {}
    return said if said.get("device_family") or said.get("device_several") else {}


def device_sentence(device: dict) -> str:
    """Which GPU the roofline uses and where its peaks come from; where none is used, why, after
    looking at the whole file (`claims.rules.no_device_reason`: a device named but not one row of
    the table is said with its line, never called unnamed)."""
    if device.get("device") is None:
        said = _named_but_not_placed(device)
        return _say("device", reason=rules.no_device_reason(said)) if said else _say("device")
    return _say(
        "device",
        device=device["device"],
        bandwidth_gb_s=device["bandwidth_gb_s"],
        tflops=device["tflops"],
        source=device["source"],
    )


def reason_said(device: dict) -> dict[str, str]:
    """The no-device reason the device paragraph gives (`device_sentence`), mapped to the words the folded
    list of withheld claims refers to it with, so that the page says it once (`placement.folded`);
    empty where a device is used."""
    if device.get("device") is not None:
        return {}
    return {rules.no_device_reason(_named_but_not_placed(device)): _say("withheld_no_device")}


def quant_heading(has_quant: bool) -> str:
    """The quantized run's own heading (a finding on quantization, not a defect of the table like the
    anomalies above it), as a rubric a glued block may hold; empty where the input has no quantized table."""
    return f"```{{rubric}} {_say('quant_heading')}\n```" if has_quant else ""


def model_sentence(model_id: str, size: dict, kv: float, kv_src: str, weights=None, precision_said=None) -> str:
    """The model size, the bytes per weight and the KV-cache size the roofline counts, and where they come
    from (`weights`: `analysis.tp.weights`; `precision_said`: where 16-bit is assumed, what the input says of a
    precision, `analysis.serving.fact_said`)."""
    return _say(
        "model",
        params_b=size["total_b"],
        params_src=size["source"],
        kv=kv,
        kv_src=kv_src,
        architecture=size.get("architecture"),
        precision=weights.precision if weights is not None else None,
        bpw=weights.bytes_per_weight if weights is not None else None,
        wsource=weights.source if weights is not None else None,
        wdetail=weights.detail if weights is not None else None,
        **(precision_said or {}),
    )


def allreduce_sentence(values: dict) -> str:
    """The lesson's all-reduce arithmetic on this input's model (`topics.tp_scaling` gathers the values)."""
    return _say("allreduce", **values)


def prefill_example_sentence(ex: dict | None) -> str:
    """The mislabelled prefill column, worked on the input's first row; empty without one."""
    if ex is None:
        return ""
    keys = ("tp", "batch_size", "seq_s", "tok_s", "sequence_length")
    return _say("prefill_example", **{k: ex[k] for k in keys})


def coverage_sentence(missing: pd.DataFrame, w: pd.DataFrame) -> str:
    """Which batch sizes the recommendations cannot cover (nothing to say about an empty input)."""
    if w.empty:
        return ""
    by_tp = [(int(t), sorted(g["batch_size"])) for t, g in missing.groupby("tp")] if len(missing) else []
    return _say("coverage", missing=by_tp)


def fit_method(fits: list[dict]) -> str:
    """How the scaling model is fitted, where a fit is drawn; nothing where none is (`fit_sentence`
    then says why), so that the page never describes a fit it does not show."""
    return _say("fit_method") if fits else ""


def fit_sentence(fits: list[dict], best: pd.DataFrame) -> str:
    """The decode fit at the smallest batch fitted, beside the measured minimum; a sentence saying
    why there is no fit otherwise."""
    dec = [x for x in fits if x["metric"] == "decode_token_latency"]
    if not dec:
        return _say("fit", fitted=False)
    item, f = dec[0], dec[0]["fit"]
    m = best[best["batch_size"] == item["batch_size"]].iloc[0]
    return _say(
        "fit",
        fitted=True,
        batch_size=item["batch_size"],
        **{k: getattr(f, k) for k in ("a", "a_err", "b", "b_err", "c", "c_err", "dof")},
        optimum=f.tp_optimum,
        nearest_is_best=f.nearest_measured(item["points"]["tp"]) == int(m["best_tp"]),
        best_tp=int(m["best_tp"]),
        best_ms=m["best_ms"],
    )


def scope_sentence(w_all: pd.DataFrame, w: pd.DataFrame) -> str:
    """Which tables the TP comparison uses, and which it leaves out and by what rule."""
    if w.empty:
        return ""
    used = w.groupby(["tp", "source", "section"], dropna=False).size().index
    rest = w_all.groupby(["tp", "source", "section"], dropna=False).size().index.difference(used)
    seq = w["sequence_length"].dropna().unique()
    q = w["quantize"].dropna().unique()
    what = []
    if len(seq):
        what.append(f"prompt length {int(seq[0])} tokens")
    if len(q):
        what.append("no quantization" if q[0] == "none" else f"quantization {q[0]}")
    text = f"The TP comparison (sections 1, 2, 3 and 5) uses one table per TP{', with ' + join(what) if what else ''}."
    if len(rest):
        left = [sec if sec.startswith(f"TP {int(t)}") else f"TP {int(t)}, {sec or 'main table'}" for t, _, sec in rest]
        text += (
            f" It leaves out {join(left)}: the configuration measured at the most TPs is kept, and per TP the table "
            "with the most measured rows (the first in the file on a tie). The anomaly and quantization sections "
            "read every table."
        )
        if any("table " in str(sec) for _, _, sec in rest):
            text += (
                " Tables repeated under identical settings usually differ in something the parser does not read (a "
                "heading naming a quantization or a version, say): compare them before trusting the choice."
            )
    return text


def one_tp_sentence(tps: list[int], measured: bool = False) -> str:
    """Why section 1 has no figure, and where a table of what the one TP measured stands instead."""
    return _say("one_tp", tps=list(tps), measured=measured)


#: The phases the measured table shows, and their columns: the Average and the Lowest to Highest (the
#: columns this chapter trusts; the percentiles are elements of an unsorted vector, `Anomalies`).
MEASURED = {
    "prefill_latency": "prefill (ms)",
    "decode_token_latency": "decode (ms per token)",
    "decode_throughput": "decode (tokens/s)",
}


def measured_table(w: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """What the input measured, one row per TP and batch size: each phase's Average, and the Lowest to
    Highest of the two latencies; with a frame of why a cell is empty (a NaN row: no run recorded)."""
    d = w[w["metric"].isin(MEASURED)]
    rows, why = [], []
    for (t, b), g in d.groupby(["tp", "batch_size"], sort=True, dropna=False):
        row, reasons = {"TP": t, "batch size": b}, {"TP": None, "batch size": None}
        for metric, label in MEASURED.items():
            x = g[g["metric"] == metric]
            mean = x["mean"].iat[0] if len(x) else float("nan")
            note = str(x["note"].iat[0]) if len(x) and pd.notna(x["note"].iat[0]) else ""
            reason = "a NaN in the table: no run recorded" if note.startswith("NaN") else "not in the input"
            row[label], reasons[label] = mean, None if pd.notna(mean) else reason
            if metric != "decode_throughput":
                lo, hi = (x["min"].iat[0], x["max"].iat[0]) if len(x) else (float("nan"), float("nan"))
                span = f"{label.split(' (')[0]} lowest to highest (ms)"
                row[span] = f"{lo:,.4g} to {hi:,.4g}" if pd.notna(lo) and pd.notna(hi) else None
                reasons[span] = None if row[span] else reason
        rows.append(row)
        why.append(reasons)
    table, reasons = pd.DataFrame(rows), pd.DataFrame(why)
    kept = [c for c in table if table[c].notna().any()]  # a phase no row of the input prints is no column
    return table[kept], reasons[kept] if len(reasons) else reasons


def runs_sentence(w_all: pd.DataFrame, said: dict | None = None) -> str:
    """How TGI picks its percentile elements for the N Runs of this input: its rows', else the one the
    rest of the file states (`said`, `analysis.tp.runs_said`), whose line the sentence names."""
    runs = sorted({int(n) for n in w_all["n_runs"].dropna().unique()}) if "n_runs" in w_all else []
    said = said or {"runs_status": "absent"}
    if runs or said["runs_status"] != "stated":
        return _say("runs", runs=runs, **said)
    return _say("runs", runs=[int(said["runs_value"])], from_line=True, **said)


#: Each figure's caption when it is drawn, and what it says when it is not.
CAPTIONS = {
    "allreduce": (
        "The scaling model's decode step, a / N + b x (N - 1), in units of a (the work that splits, on one GPU), "
        "for three costs b of an added GPU: the step is shortest at N = square root of (a / b), and a cheaper "
        "all-reduce (or more work to split) moves that turn to more GPUs.",
        "",
    ),
    "speedup": (
        "Speed-up (top) and parallel efficiency (bottom) per phase, one line per batch size (darker: smaller), with "
        "bars spanning what the Lowest and Highest latencies allow. Where a line falls away from the dashed perfect "
        "scaling, each added GPU buys less than its share; where a decode line turns down, latency grew again.",
        "Not drawn: speed-up needs at least two TPs at one batch size.",
    ),
    "fit": (
        "Mean latency against TP (points, bars from Lowest to Highest) and the fitted a / TP + b x (TP - 1) + c "
        "(lines), with ± one standard error on each parameter. Where a fitted line turns up, the cost b of each added "
        "GPU outweighs the share of the work a it takes off the others.",
        "Not drawn: the scaling model needs at least four TPs.",
    ),
    "roofline": (
        "Each measurement placed under the device's roofline (per GPU), with the device and the origin of its peaks "
        "in the title: how far a point sits below the roof is what the step leaves unused, and left of the ridge "
        "memory bandwidth, not compute, is the roof.",
        "Not drawn: the input lacks what the roofline needs (the model's size or the prompt length); the sentences "
        "below say which.",
    ),
    "quant": (
        "Decode latency per token, quantized against fp16, at the same TP and prompt length, with bars from Lowest "
        "to Highest: where the quantized line lies above fp16's, the smaller weights cost time instead of saving it.",
        "Not drawn: the input has no quantized run with an fp16 twin.",
    ),
    "throughput": (
        "Generated tokens per second per GPU against batch size, one line per TP: counting the prefill each request "
        "needs (left) and the tool's decode-only figure (right), with bars from Lowest to Highest. Where a larger "
        "TP's line lies below TP 1's, each GPU generates less: the price of the lower latency.",
        "Not drawn: the input has no prefill and decode rows of one configuration to combine.",
    ),
}


def caption(name: str, drawn: bool, device: dict | None = None) -> str:
    """The caption of figure `name`, or the sentence saying why it was not drawn; the roofline drawn
    without a device (`device` names none) has no roofs, and its caption says so, leaving why to the
    device paragraph (`device_sentence`), so that the reason is said once on the page."""
    if name == "roofline" and drawn and device is not None and device.get("device") is None:
        return _say("roofline_no_device")
    return CAPTIONS[name][0 if drawn else 1]


def input_sentence(
    files: str,
    n_rows: int,
    model_id: str,
    tps: list[int],
    seq: list[int],
    n_dup: int,
    messages=(),
    others=(),
    listed_absent=((), ()),
    tokenizer: str | None = None,
    throughputs: list | None = None,
) -> str:
    """What the input holds, from the data; with no usable number, why (the parser's first message);
    `throughputs` the throughput table's Averages where it is the input's only table (`analysis.tp.throughputs_only`);
    `others` the configurations left out only for another parameter table (`analysis.tp.other_parameters`);
    `listed_absent` the TPs a launcher block lists and those of them with no table (`analysis.tp.absent_tps`);
    `tokenizer` what the Model row's name is when it is not taken as the model (`analysis.tp.tokenizer_name`)."""
    return _say(
        "input",
        files=files,
        n_rows=n_rows,
        model_id=model_id,
        tps=list(tps),
        seq=list(seq),
        n_dup=n_dup,
        messages=list(messages),
        others=[{k: v for k, v in o.items() if v is not None} for o in others],
        listed=list(listed_absent[0]),
        absent=list(listed_absent[1]),
        tokenizer=tokenizer,
        throughputs=list(throughputs or []),
    )


# -------------------------------------------------------------------------------------- figures
def series(value) -> int:
    """The colour index of a TP, the same in every figure of the chapter: its power of 2 (TP 1 blue,
    TP 2 orange, TP 4 green, TP 8 vermillion). A batch size is coloured on `plotting.ramp` instead,
    so that batch 1 and TP 1 never share a colour."""
    return int(round(math.log2(float(value)))) if float(value) > 0 else 0


def _errorbar(ax, x, y, low, high, **kw):
    y, low, high = (np.asarray(v, dtype=float) for v in (y, low, high))
    yerr = np.vstack([np.clip(y - low, 0, None), np.clip(high - y, 0, None)])
    return ax.errorbar(x, y, yerr=yerr, capsize=3, **kw)


def plot_turn_model():
    """The idea behind where TP stops paying, from the scaling model (`analysis.tp.tp_step_ms`): the
    step time against N for costs of an added GPU of 1/4, 1/16 and 1/64 of the split work, each
    curve's minimum at sqrt(a / b) marked."""
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    n = np.geomspace(1, 16, 200)
    for share in (4, 16, 64):
        best = np.sqrt(share)
        c = color(series(best))  # in the colour of the TP where it is shortest, as in the data's figures
        ax.plot(n, tp.tp_step_ms(n, 1.0, 1 / share), color=c, label=f"b = a / {share}: shortest at N = {best:g}")
        ax.plot([best], tp.tp_step_ms([best], 1.0, 1 / share), "o", color=c)
    ticks = [1, 2, 4, 8, 16]
    ax.set_xscale("log", base=2)
    ax.set_xticks(ticks, [str(t) for t in ticks])
    ax.set_xlabel("GPUs (N)")
    ax.set_ylabel("decode step (x a)")
    ax.set_ylim(0, 1.05)
    ax.legend(title="cost of an added GPU, b", loc="upper left", bbox_to_anchor=(1.02, 1.0))
    tight(fig)
    return fig


def turns_table(turns: pd.DataFrame) -> pd.DataFrame:
    """Decode latency per token by batch size (rows) and TP (columns), with the TP past which it
    stops falling (`analysis.tp.turning_tp`)."""
    if turns.empty:
        return turns
    rows = []
    for r in turns.itertuples():
        row = {"batch size": r.batch_size}
        row |= {f"TP {t} (ms)": m for t, m in zip(r.tps, r.ms, strict=True)}
        row["stops falling at"] = f"TP {r.turn_tp}" if r.after != "falling" else f"not by TP {r.max_tp}"
        rows.append(row)
    t = pd.DataFrame(rows)
    cols = sorted((c for c in t.columns if c.startswith("TP ")), key=lambda c: int(c.split()[1]))
    return t[["batch size", *cols, "stops falling at"]]


def plot_speedup(sc: pd.DataFrame, tps: list[int]):
    """Speed-up (top) and parallel efficiency (bottom) against TP, prefill left and decode right,
    one line per batch size measured at two or more TPs, perfect scaling dashed; the bars span what
    Lowest and Highest allow (reference lowest / TP highest to reference highest / TP lowest)."""
    fig, axes = plt.subplots(2, 2, figsize=panel_size(2, 2, 3.4), sharex=True)
    for col, (metric, title) in enumerate(PHASES):
        d = sc[sc["metric"] == metric]
        for bs, gg in d.groupby("batch_size"):
            if gg["tp"].nunique() < 2:
                continue
            c = ramp(bs)
            scale = gg["tp"] / gg["ref_tp"]
            _errorbar(
                axes[0, col],
                gg["tp"],
                gg["speedup"],
                gg["speedup_low"],
                gg["speedup_high"],
                fmt="o-",
                color=c,
                label=f"batch {bs}",
            )
            _errorbar(
                axes[1, col],
                gg["tp"],
                gg["efficiency"],
                gg["speedup_low"] / scale,
                gg["speedup_high"] / scale,
                fmt="o-",
                color=c,
                label=f"batch {bs}",
            )
        ref = int(d["ref_tp"].min()) if len(d) else min(tps)
        axes[0, col].plot(tps, [t / ref for t in tps], "k--", lw=1, label="ideal")
        axes[1, col].axhline(1.0, color="k", ls="--", lw=1)
        axes[0, col].set_title(title)
        axes[0, col].set_yscale("log", base=2)
        axes[0, col].yaxis.set_major_formatter(times_ticks())
        axes[1, col].set_xlabel("tensor-parallel GPUs (TP)")
        axes[1, col].set_xscale("log", base=2)
        axes[1, col].set_xticks(tps, [str(t) for t in tps])
    axes[0, 0].set_ylabel(f"speed-up vs TP {int(sc['ref_tp'].min())}")
    axes[1, 0].set_ylabel("parallel efficiency (speed-up / GPUs)")
    axes[0, 1].legend(fontsize=8, loc="upper left")
    tight(fig)
    return fig


def plot_fits(fits: list[dict], tps: list[int]):
    """Mean latency against TP with Lowest-Highest bars (points) and each fitted curve (lines), per
    phase, with the parameters and their standard errors in the legend."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, (metric, title) in zip(axes, PHASES, strict=True):
        for item in (x for x in fits if x["metric"] == metric):
            f, pts, c = item["fit"], item["points"], ramp(item["batch_size"])
            grid = np.linspace(min(tps), max(tps), 100)
            _errorbar(ax, pts["tp"], pts["mean"], pts["min"], pts["max"], fmt="o", color=c)
            ax.plot(
                grid,
                f.predict(grid),
                "-",
                color=c,
                label=f"bs {item['batch_size']}: a={f.a:.0f}±{f.a_err:.0f}, b={f.b:.1f}±{f.b_err:.1f}, "
                f"c={f.c:.0f}±{f.c_err:.0f}",
            )
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(tps, [str(t) for t in tps])
        ax.set_xlabel("tensor-parallel GPUs (TP)")
        ax.set_ylabel("mean latency (ms)\nbars: Lowest to Highest")
        ax.set_title(title)
        # below the axes and clear of the x label (its text grows to the page's 10 px, `plotting.readable`):
        # the fitted curves span the whole panel, so no corner is free of data
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=1)
    tight(fig)
    return fig


def plot_throughput(tput: pd.DataFrame):
    """Generated tokens/s per GPU against batch size, one line per TP: counting the prefill (left)
    and the tool's decode-only figure (right), with bars from Lowest and Highest."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharex=True)
    for ax, (col, title) in zip(
        axes, (("e2e_tok_s", "Counting the prefill"), ("decode_tok_s", "Decode only (tool's figure)")), strict=True
    ):
        for t, g in tput.groupby("tp"):
            g, i = g.sort_values("batch_size"), series(t)
            _errorbar(
                ax,
                g["batch_size"],
                g[f"{col}_per_gpu"],
                g[f"{col.replace('_tok_s', '')}_low_per_gpu"],
                g[f"{col.replace('_tok_s', '')}_high_per_gpu"],
                fmt="o-",
                color=color(i),
                label=f"TP {t}",
            )
        ax.set_xscale("log", base=2)
        bs = sorted(tput["batch_size"].unique())
        ax.set_xticks(bs, [str(b) for b in bs])
        ax.set_xlabel("batch size (sequences)")
        ax.set_ylabel("generated tokens/s per GPU")
        ax.set_ylim(0, None)
        ax.set_title(title)
    axes[0].legend(fontsize=8)
    tight(fig)
    return fig


def _tp_points(ax, rp: pd.DataFrame) -> None:
    """The roofline points, a colour per TP (as in every figure of the chapter) and a marker per phase."""
    for (metric, t), g in rp.groupby(["metric", "tp"], sort=True):
        phase = "prefill" if metric == "prefill_latency" else "decode"
        ax.scatter(
            g["intensity_flop_per_byte"],
            g["achieved_tflops"],
            color=color(series(t)),
            marker="o" if phase == "prefill" else "s",
            zorder=3,
            label=f"{phase} TP {t}",
        )


def _plain_log_ticks(ax) -> None:
    """Tick labels as plain numbers (0.1, 1, 10, 1,000), not powers of ten."""
    from matplotlib.ticker import FuncFormatter

    plain = FuncFormatter(lambda v, _: f"{v:,g}" if v >= 1 else f"{v:g}")
    ax.xaxis.set_major_formatter(plain)
    ax.yaxis.set_major_formatter(plain)


def plot_tp_roofline(rp: pd.DataFrame, device: dict):
    """`roofline_points` under the device's per-GPU roofline, a colour per TP and a marker per phase;
    with no device named, the points alone (no roof: none is assumed)."""
    fig, ax = plt.subplots(figsize=(8, 5))
    if device.get("device") is None:
        ridge, which = roofline.lowest_ridge()  # the one line true of every device
        ax.axvline(ridge, color="grey", ls=":", lw=1, label=_say("lowest_ridge", ridge=ridge, device=which))
        plot_points(ax, None)
        ax.set_title(wording.words("tp_scaling")["figure"]["no_device"])
    else:
        g = hardware.custom(device["device"], device["bandwidth_gb_s"], device["tflops"])
        plot_roofline(ax, g, None, xlim=(0.1, 100_000))
        ax.set_title(f"Per-GPU roofline, {device['device']} ({device['source']})")
    _tp_points(ax, rp)
    _plain_log_ticks(ax)
    handles, labels, ncol = _legend_rows(*ax.get_legend_handles_labels())
    ax.legend(handles, labels, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=ncol)
    tight(fig)
    return fig


def _legend_rows(handles: list, labels: list[str]) -> tuple[list, list[str], int]:
    """The roofline legend as rows, a TP per column: the roofs and ridge, then decode, then prefill.
    matplotlib fills a legend column by column, so four columns of the entries in drawing order read
    "decode TP 4" beside the ridge and "prefill TP 1" under "decode TP 8"; an empty cell pads a row."""
    from matplotlib.lines import Line2D

    points = {lab: h for h, lab in zip(handles, labels, strict=True) if lab.startswith(("decode TP ", "prefill TP "))}
    lines = [(h, lab) for h, lab in zip(handles, labels, strict=True) if lab not in points]
    tps = sorted({lab.rsplit(" ", 1)[1] for lab in points}, key=float)
    phases = [ph for ph in ("decode", "prefill") if any(lab.startswith(ph) for lab in points)]
    ncol = max(len(tps), len(lines), 1)
    blank = (Line2D([], [], alpha=0), "")
    cells = []
    for j in range(ncol):
        if lines:
            cells.append(lines[j] if j < len(lines) else blank)
        for ph in phases:
            lab = f"{ph} TP {tps[j]}" if j < len(tps) else None
            cells.append((points[lab], lab) if lab in points else blank)
    return [h for h, _ in cells], [lab for _, lab in cells], ncol


def plot_quantization(qs: pd.DataFrame):
    """Decode latency per token against batch size, fp16 and its quantized twin, Lowest-Highest bars."""
    qs = qs.sort_values("batch_size")
    name = str(qs["quantize"].iloc[0])
    fig, ax = plt.subplots()
    _errorbar(
        ax, qs["batch_size"], qs["fp16_ms"], qs["fp16_low"], qs["fp16_high"], fmt="o-", color="black", label="fp16"
    )
    _errorbar(
        ax,
        qs["batch_size"],
        qs["quantized_ms"],
        qs["quantized_low"],
        qs["quantized_high"],
        fmt="o-",
        color=color(4),  # not a TP's colour (TP 16 aside): the figure compares precisions, not TPs
        label=name,
    )
    ax.set_xscale("log", base=2)
    ax.set_xticks(sorted(qs["batch_size"]), [str(b) for b in sorted(qs["batch_size"])])
    ax.set_xlabel("batch size (sequences)")
    ax.set_ylabel("decode latency per token (ms)")
    ax.set_ylim(0, None)
    ax.legend()
    return fig


#: The phases of TGI's tables in a reader's words.
METRIC_WORDS = {
    "prefill_latency": "prefill",
    "decode_token_latency": "decode (per token)",
    "decode_total_latency": "decode (total)",
}
#: What a fraction-of-peak row measures, per phase.
FRACTION_ROWS = {
    "decode_token_latency": ("bandwidth_fraction", "decode: memory bandwidth"),
    "prefill_latency": ("compute_fraction", "prefill: fp16 compute"),
}


def roofline_fraction_table(rp: pd.DataFrame) -> pd.DataFrame:
    """Percent of the device's peak per GPU, per phase and batch size (rows) and TP (columns):
    bandwidth for decode, fp16 FLOP/s for prefill; NaN where no point was placed."""
    parts = []
    for metric, (col, words) in FRACTION_ROWS.items():
        d = rp[rp["metric"] == metric]
        if d.empty:
            continue
        t = d.pivot_table(index="batch_size", columns="tp", values=col) * 100
        t.columns = [f"TP {c} (% of peak)" for c in t.columns]
        parts.append(t.reset_index().rename(columns={"batch_size": "batch size"}).assign(phase=words))
    if not parts:
        return pd.DataFrame(columns=["phase", "batch size"])
    t = pd.concat(parts, ignore_index=True)
    return t[["phase", "batch size"] + [c for c in t.columns if c.startswith("TP ")]]


def fraction_reasons(table: pd.DataFrame, missing: pd.DataFrame):
    """Why a cell of `roofline_fraction_table` is empty: "did not run" for the (TP, batch size)
    pairs `missing` lists (tp.missing_batches), "not in the table" for the others."""
    not_run = {(int(t), int(b)) for t, b in zip(missing["tp"], missing["batch_size"], strict=True)}
    reasons = pd.DataFrame(None, index=table.index, columns=table.columns, dtype=object)
    for col in table.columns:
        if col.startswith("TP "):
            tp_ = int(col.split()[1])
            reasons[col] = [
                None if pd.notna(v) else NOT_RUN if (tp_, int(b)) in not_run else "not in the table"
                for v, b in zip(table[col], table["batch size"], strict=True)
            ]
    return reasons


def _one_file(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` without its `source` column when every row comes from one file: the page names its
    input above, and a file name such as 000_5f50b6ac26707e67.txt broke mid-name in a narrow column."""
    return frame.drop(columns="source") if "source" in frame and frame["source"].nunique() <= 1 else frame


def inversions_table(inv: pd.DataFrame) -> pd.DataFrame:
    """The latency rows whose p90 cannot be a percentile, with the numbers that show it (ms)."""
    inv = _one_file(inv)
    return inv.assign(metric=inv["metric"].map(METRIC_WORDS).fillna(inv["metric"])).rename(
        columns={
            "source": "file",
            "tp": "TP",
            "section": "table",
            "metric": "phase",
            "batch_size": "batch size",
            "mean": "Average (ms)",
            "p50": "p50 (ms)",
            "p90": "p90 (ms)",
            "p99": "p99 (ms)",
            "max": "Highest (ms)",
            "kind": "impossible because",
        }
    )


#: How tp.missing_batches words the printed form of a batch that never ran, in a reader's words.
PRINTED_WORDS = {"NaN": "a row of NaN cells", "blank (merged NaN)": "a blank row (merged NaN cells)"}


def missing_table(miss: pd.DataFrame) -> pd.DataFrame:
    """The batch sizes that never ran, where and how the tool printed them."""
    miss = _one_file(miss)
    return miss.assign(how_printed=miss["how_printed"].map(PRINTED_WORDS).fillna(miss["how_printed"])).rename(
        columns={
            "source": "file",
            "tp": "TP",
            "section": "table",
            "batch_size": "batch size",
            "ran": "batch sizes that ran",
            "how_printed": "printed as",
        }
    )


def budget_table(budget: pd.DataFrame) -> pd.DataFrame:
    """The rows where the token-budget explanation predicts the wrong outcome."""
    return budget.drop(columns=["consistent"]).rename(
        columns={
            "tp": "TP",
            "section": "table",
            "batch_size": "batch size",
            "tokens": "batch x (prompt + decode) tokens",
            "budget": "max_batch_total_tokens",
            "predicted_to_run": "budget predicts it runs",
            "ran": "ran",
        }
    )


def jumps_table(jumps: pd.DataFrame) -> pd.DataFrame:
    """Steps between batch sizes where latency grows faster than the batch."""
    return jumps.assign(metric=jumps["metric"].map(METRIC_WORDS).fillna(jumps["metric"])).rename(
        columns={
            "tp": "TP",
            "section": "table",
            "metric": "phase",
            "from_bs": "from batch",
            "to_bs": "to batch",
            "from_ms": "from (ms)",
            "to_ms": "to (ms)",
            "growth_per_batch": "latency growth / batch growth (x)",
        }
    )


def slower_table(slower: pd.DataFrame) -> pd.DataFrame:
    """Steps to a larger TP where decode got slower, the slowdown in percent."""
    return slower.assign(slowdown=100 * slower["slowdown"]).rename(
        columns={
            "batch_size": "batch size",
            "from_tp": "from TP",
            "to_tp": "to TP",
            "from_ms": "from (ms per token)",
            "to_ms": "to (ms per token)",
            "slowdown": "slower by (%)",
        }
    )
