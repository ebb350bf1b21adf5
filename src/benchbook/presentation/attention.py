"""The attention-kernels chapter's figures, display tables and descriptions of the data (its claims'
sentences are in notebooks/attention_kernels.claims.yml).

Every verdict comes from a claim (`benchbook.claims.attention`); figure titles say what is drawn,
never a verdict; the rest describes the input and names only what the input or a parameter says.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.analysis import attention, roofline
from benchbook.presentation import labels, wording
from benchbook.presentation.plotting import color, message_figure, plain_ticks, tight, times_ticks
from benchbook.presentation.roofline import mark_ridge

#: The chapter whose wording file (notebooks/attention_kernels.claims.yml) names the kernels and peak sources.
CHAPTER = "attention_kernels"


def mask_name(mask: str | None) -> str:
    return (mask or "").replace("_", " ")


def _ops(k: pd.DataFrame) -> list[str]:
    """The kernels present, the three attention-gym ones first, then any other a modified benchmark printed."""
    present = list(dict.fromkeys(k["operation"]))
    return [o for o in attention.OPERATIONS if o in present] + [o for o in present if o not in attention.OPERATIONS]


def op_colour(op: str) -> str:
    """A kernel's colour, the same in every figure of the chapter whichever kernels an input has:
    the three attention-gym kernels in their fixed order (blue, orange, green); a kernel a modified
    benchmark added is grey, and named by the legend."""
    known = list(attention.OPERATIONS)
    return color(known.index(op)) if op in known else "grey"


def label(op: str) -> str:
    return wording.words(CHAPTER)["operation"].get(op, op.replace("_", " "))


# --- descriptions (not verdicts) -----------------------------------------------------------------


def _say(name: str, **values) -> str:
    """One of the chapter's descriptive sentences (notebooks/attention_kernels.claims.yml, `sentences:`)."""
    return wording.sentence(CHAPTER, name, **values)


def stop_note(messages: list[str], cut_at: list[int] = ()) -> str:
    """The completeness line: the parser's "run stopped" warning, so a run cut short by a traceback
    says where, and tritonbench's timings that printed an error instead of a number
    (`ingest.tritonbench.FAILED_WARNING`); else, where the copy ends inside a table (`cut_at`: its last
    lines), that what followed is not in the file; else that every section finished."""
    from benchbook.ingest import tritonbench

    stops = [m for m in messages if m.startswith(("warning: the run stopped", tritonbench.FAILED_WARNING))]
    return _say("stop", stop="; ".join(m.removeprefix("warning: ") for m in stops), cut_at=list(cut_at))


def device_words(peaks: roofline.Peaks, said: dict | None = None) -> str:
    """'RTX-PRO-6000-Blackwell-WS (500 TFLOP/s dense FP16, 1,792 GB/s; named in the input)', or
    why none is assumed (`said`: what the input says of a device, `analysis.roofline.said`)."""
    if peaks.device is None:
        return _say("device", **(said or {}))
    return _say(
        "device",
        device=peaks.device,
        tflops=peaks.dense_tflops,
        bandwidth_gb_s=peaks.bandwidth_gb_s,
        source=peaks.source,
        variants=[name for name, _ in peaks.variants],
        **(said or {}),
    )


def reproduction_words(rep: pd.DataFrame) -> str:
    """How many recomputed TF/s cells agree with the printed ones, in words."""
    n, ok = len(rep), int(rep["agrees"].sum()) if len(rep) else 0
    return _say("reproduction", n=n, ok=ok)


def fa2_words(k: pd.DataFrame) -> str:
    """FA2's printed forward range across sections, said to be one re-timed problem only where the
    sections share a sequence length and the benchmark's shape."""
    fa2 = k[(k["pass"] == "fw") & (k["operation"] == "causal_fa2") & k["tflops"].notna()]
    same = fa2[fa2["shape"] == "default"].groupby("seq_len").size() if "shape" in fa2 else pd.Series(dtype=int)
    return _say(
        "fa2",
        n=len(fa2),
        low=fa2["tflops"].min() if len(fa2) else None,
        high=fa2["tflops"].max() if len(fa2) else None,
        retimed=int(same.max()) if len(same) and same.max() >= 2 else 0,
    )


def shape_words(k: pd.DataFrame) -> str:
    """Whether every row fits the benchmark's B=16, H=16, D=64 (else the work comes from the printed TF/s)."""
    other = k[k["shape"] == "other"]
    return _say("shape", n_other=other["mask"].nunique(), n_sections=k["mask"].nunique())


def noise_words(k: pd.DataFrame, t: pd.DataFrame | None = None) -> str:
    """How the page judges differences: what each tool whose rows it read prints per point (`k`, attention-gym's
    kernels; `t`, the tritonbench-like table: one time, or tritonbench's `with_variance` median and spread, whose
    range is said), the re-timing spread and the floor it never goes below. Only attention-gym's kernels are
    counted for re-timing (`attention.retime_spread`), so "re-times no kernel" is said of them alone."""
    spread, n = attention.retime_spread(k)
    value, _ = attention.noise(k)
    t = t if t is not None and len(t) else pd.DataFrame(columns=["tool", "op", "spread_pct"])
    tools = (["attention-gym"] if len(k) else []) + list(dict.fromkeys(_tools(t)))
    spread_tools = list(dict.fromkeys(_tools(t[t["spread_pct"].notna()])))
    printed = pd.to_numeric(t["spread_pct"], errors="coerce").dropna() / 100
    return _say(
        "noise",
        spread=spread,
        n=n,
        value=value,
        floor=attention.NOISE_FLOOR,
        tools=tools,
        spread_tools=spread_tools,
        gym=bool(len(k)),
        **(dict(printed_low=printed.min(), printed_high=printed.max()) if len(printed) else {}),
    )


def _tools(t: pd.DataFrame) -> list[str]:
    """The tool of each row of the tritonbench-like table; sdpa.py's rows come from the score_mod parser (one of
    pytorch's transformer benchmarks) and are named for their script."""
    from benchbook.analysis import attention_tritonbench as tb

    return list(t["tool"].where(t["op"].ne(tb.SDPA_OPERATOR), "pytorch-sdpa"))


# --- tables --------------------------------------------------------------------------------------


def sdpa_table(k: pd.DataFrame) -> pd.DataFrame:
    """Forward SDPA + mask per mask: printed TF/s next to the work it actually performs."""
    sd = k[(k["operation"] == "sdpa_mask") & (k["pass"] == "fw")]
    return (
        sd[["mask", "density", "time_ms", "tflops", "work_tflops"]]
        .assign(mask=lambda d: d["mask"].map(mask_name))
        .rename(
            columns={
                "density": "block density",
                "time_ms": "time (ms)",
                "tflops": "printed (TFLOP/s)",
                "work_tflops": "performed (TFLOP/s)",
            }
        )
    )


#: The speed-up table's columns, in reader's words (each a ratio of times, so "x").
SPEEDUP_COLUMNS = {
    "mask": "mask",
    "pass": "pass",
    "density": "block density",
    "flex_vs_sdpa": "FlexAttention over SDPA + mask (x)",
    "ideal_vs_sdpa": "1 / density (x)",
    "per_block": "per computed block (x)",
    "flex_vs_fa2": "FlexAttention over FA2 (x)",
}


def speedup_table(sp: pd.DataFrame) -> pd.DataFrame:
    """One row per mask and pass: the speed-ups, with FA2 only where the mask is causal."""
    t = sp[[c for c in SPEEDUP_COLUMNS if c in sp]].assign(mask=lambda d: d["mask"].map(mask_name))
    if "pass" in t:
        t = t.assign(**{"pass": t["pass"].str.upper()})
    return t.rename(columns=SPEEDUP_COLUMNS)


# --- figures -------------------------------------------------------------------------------------


def tflops_figure(k: pd.DataFrame, pass_: str = "fw"):
    """Grouped bars: printed TF/s per mask and kernel for one pass."""
    import matplotlib.pyplot as plt

    sub = k[k["pass"] == pass_]
    if sub.empty:
        return message_figure(_say("no_pass", pass_=pass_.upper()))
    masks = list(dict.fromkeys(sub.sort_values("order")["mask"]))
    ops = _ops(sub)
    x = np.arange(len(masks))
    width = 0.8 / max(len(ops), 1)
    fig, ax = plt.subplots()
    for i, op in enumerate(ops):
        vals = [sub[(sub["mask"] == m) & (sub["operation"] == op)]["tflops"].max() for m in masks]
        ax.bar(x + (i - (len(ops) - 1) / 2) * width, vals, width, color=op_colour(op), label=label(op))
    ax.set_xticks(x)
    ax.set_xticklabels([mask_name(m) for m in masks], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(f"{pass_.upper()} TFLOP/s, as printed")  # short: it stays clear of the slanted names
    ax.set_title(f"{pass_.upper()} TFLOP/s as printed (credited FLOPs), per mask and kernel")
    # below the axes and the mask names: inside, it covered the tallest bars
    fig.legend(*ax.get_legend_handles_labels(), loc="lower center", ncols=len(ops), bbox_to_anchor=(0.5, 0.0))
    tight(fig, rect=(0, 0.08, 1, 1))  # the bottom strip for the legend, below the slanted mask names
    return fig


def speedup_figure(sp: pd.DataFrame):
    """FlexAttention over SDPA + mask vs block density (log-log), with the 1 / density line."""
    import matplotlib.pyplot as plt

    sp = sp[sp["flex_vs_sdpa"].notna() & sp["density"].notna()]
    if sp.empty:
        return message_figure(_say("no_speedup"))
    fig, ax = plt.subplots(figsize=(7.5, 5))
    flex = op_colour("flexattention")  # FlexAttention's speed-up: its colour, FW filled and BW open
    for ps, g in sp.groupby("pass", sort=False):
        filled = ps == "fw"
        ax.scatter(
            g["density"],
            g["flex_vs_sdpa"],
            color=flex if filled else "white",
            edgecolors=flex,
            label=f"{ps.upper()} measured",
            zorder=3,
        )
    xs = np.logspace(np.log10(max(sp["density"].min() * 0.8, 1e-3)), 0, 50)
    ax.plot(xs, 1 / xs, color="grey", ls="--", label="1 / density (skip masked blocks, same speed per block)")
    ax.axhline(1.0, color="black", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.xaxis.set_major_formatter(plain_ticks())
    ax.yaxis.set_major_formatter(times_ticks())
    ax.margins(x=0.25, y=0.1)
    ax.set_xlabel("block density (fraction of 128 x 128 blocks computed, log scale)")
    ax.set_ylabel("FlexAttention speed-up over SDPA + mask (log)")
    ax.set_title("FlexAttention's speed-up over SDPA + mask against block density")
    fig.legend(loc="lower center", ncols=3, fontsize=8, bbox_to_anchor=(0.5, 0.0))
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    # one label per mask, on its forward point, where there is room (the table below names every mask)
    fw = sp[sp["pass"] == "fw"]
    labels.place(ax, [(r["density"], r["flex_vs_sdpa"], mask_name(r["mask"])) for _, r in fw.iterrows()])
    return fig


def roofline_figure(pts: pd.DataFrame, peaks: roofline.Peaks, xlim=(10, 100_000)):
    """The kernels' performed work on the device's dense FP16 roofline (compulsory traffic)."""
    import matplotlib.pyplot as plt

    pts = pts[np.isfinite(pts["achieved_tflops"]) & np.isfinite(pts["intensity_flop_per_byte"])]
    if pts.empty:
        return message_figure(_say("no_roofline"))
    fig, ax = plt.subplots()
    roofs = bool(peaks.dense_tflops and peaks.bandwidth_gb_s)  # no device named: no roof
    if roofs:
        x = np.logspace(np.log10(xlim[0]), np.log10(xlim[1]), 200)
        ax.plot(
            x,
            np.minimum(peaks.dense_tflops, peaks.bandwidth_gb_s * x / 1e3),
            color="black",
            lw=2,
            label=f"{peaks.device} roofline",
        )
        mark_ridge(ax, peaks.ridge(), peaks.dense_tflops)
    elif peaks.dense_tflops:  # the reader's compute peak alone
        ax.axhline(peaks.dense_tflops, color="black", lw=2, label=f"{peaks.device}: {peaks.dense_tflops:,.0f} TFLOP/s")
    for op in _ops(pts):
        g = pts[pts["operation"] == op]
        ax.scatter(g["intensity_flop_per_byte"], g["achieved_tflops"], color=op_colour(op), zorder=3, label=label(op))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.xaxis.set_major_formatter(plain_ticks())
    ax.yaxis.set_major_formatter(plain_ticks())
    ax.set_xlabel("arithmetic intensity of the performed work (FLOP/byte)")
    ax.set_ylabel("performed work (TFLOP/s)")
    title = _say("roof_title", device=peaks.device, source=peaks.source, roofs=bool(roofs)) if peaks.device else ""
    ax.set_title(title or _say("no_device_title"))
    ax.legend(fontsize=8)
    return fig


# --- the lesson: block sparsity --------------------------------------------------------------------

#: The mask families the density figure draws from their formulas, with a section name of each.
LESSON_MASKS = {
    "causal": "causal_mask",
    "sliding window 1024": "sliding_window_1024",
    "prefix LM 1024": "prefix_lm_1024",
}


def density_words(dens: pd.DataFrame) -> str:
    """How many of the input's densities the tile counts derive, and how many agree with the printed."""
    derived = dens[dens["derived"].notna()]
    agree = derived[(derived["derived"] - derived["printed"]).abs() <= 0.00005 + 1e-12]
    ex = derived.sort_values("derived").iloc[0] if len(derived) else None
    return _say(
        "densities",
        n=len(dens),
        n_printed=int(dens["printed"].notna().sum()),
        n_derived=len(derived),
        n_agree=len(agree),
        example={
            "mask": ex["mask"],
            "seq_len": ex["seq_len"],
            "tiles": int(ex["tiles_per_side"]),
            "formula": ex["formula"],
            "derived": ex["derived"],
        }
        if ex is not None
        else {},
    )


def density_table(dens: pd.DataFrame) -> pd.DataFrame:
    """Per section: the tile count's formula, its density and the printed one."""
    return dens.assign(mask=dens["mask"].map(mask_name)).rename(
        columns={
            "seq_len": "S",
            "tiles_per_side": "tiles per side (n)",
            "formula": "tiles kept / all",
            "derived": "density, counted",
            "printed": "density, printed",
        }
    )


def density_figure(dens: pd.DataFrame):
    """Block density against sequence length from the tile counts (`analysis.attention.block_density`)
    for causal, sliding-window and prefix-LM masks, with the input's printed densities as dots."""
    import matplotlib.pyplot as plt

    s = 2 ** np.arange(10, 17.01, 0.25)
    fig, ax = plt.subplots(figsize=(7, 4))
    for i, (words, name) in enumerate(LESSON_MASKS.items()):  # masks, not kernels: colours no kernel has
        ax.plot(s, [attention.block_density(name, int(x))[1] for x in s], color=color(3 + i), lw=2, label=words)
    pts = dens[dens["printed"].notna() & (dens["printed"] < 1)]
    if len(pts):  # a legend entry for dots only where there are dots (a tritonbench table prints no density)
        ax.scatter(pts["seq_len"], pts["printed"], color="black", zorder=3, label="this input, printed")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.xaxis.set_major_formatter(plain_ticks())
    ax.yaxis.set_major_formatter(plain_ticks())
    ax.set_xlabel("sequence length S (tokens)")
    ax.set_ylabel("block density (tiles kept / all)")
    ax.set_title("What a mask lets a block-sparse kernel skip")
    ax.legend(loc="lower left")
    tight(fig)
    return fig


def missing_figure(which: str) -> str:
    """Why one of the chapter's figures is not drawn (`which`: tflops, speedup or roof)."""
    return {
        "tflops": lambda: _say("no_pass", pass_="forward"),
        "speedup": lambda: _say("no_speedup"),
        "roof": lambda: _say("no_roofline"),
    }[which]()


# --- tritonbench operator tables, flash-attention's lines, score_mod.py tables ---------------------


def triton_words(
    t: pd.DataFrame, peaks: roofline.Peaks, failed: pd.DataFrame | None = None, conflicts: list | None = None
) -> str:
    """What the input's tritonbench tables, flash-attention lines and score_mod.py tables show: inputs and
    backends, the fastest backend per input and pass
    (`analysis.attention_tritonbench.fastest`), the TFLOP/s by the operator's FLOPs rule against the
    printed ones, a share of the device's peak only where a device is named, and the timings a
    flash-attention script printed as failed (`failed`, left out of the table), and the lines of rows set
    aside as two runs' different values of one configuration (`conflicts`)."""
    from benchbook.analysis import attention_tritonbench as tb

    failed = failed if failed is not None else pd.DataFrame(columns=["backend", "line"])
    if t.empty:
        return _say("triton", n=0)
    peak = peaks.dense_tflops if peaks.device is not None else None
    # a 16-bit figure above the device's dense peak is beyond physics: a warning, and no comparison uses
    # it; with no device known, one above the highest dense 16-bit peak of every device the table knows
    bound, bound_device = (peak, peaks.device) if peak else roofline.highest_dense_peak()
    beyond = ~_eight_bit(t) & (t["tflops"] > bound)
    # the same backend's other timings in that table come from the same timer, which measured something other
    # than the kernel at the input it gave an impossible rate for (an asynchronous call timed at its launch):
    # no measurements either, left out with it
    timer = _same_timer(t, beyond)
    # a row whose output failed tritonbench's accuracy check timed a result that did not match: left out too
    wrong = t["accurate"].eq(False) & ~beyond & ~timer if "accurate" in t else pd.Series(False, index=t.index)
    every, out, unmatched, t = t, t[beyond], t[wrong], t[~beyond & ~timer & ~wrong]
    fa = tb.fastest(t)
    # a lead inside the noise is no lead: the page's own rule (attention.NOISE_FLOOR), said apart
    near = (~fa["tied"].astype(bool)) & (fa["margin"] < 1 + attention.NOISE_FLOOR) if len(fa) else pd.Series(dtype=bool)
    last = fa.iloc[-1] if len(fa) else None
    best = t.loc[t["tflops"].idxmax()] if t["tflops"].notna().any() else None
    sixteen = t[~_eight_bit(t)]  # a share of the 16-bit peak only for kernels not run in 8 bits
    best16 = sixteen.loc[sixteen["tflops"].idxmax()] if sixteen["tflops"].notna().any() else None
    checked = every[every["agrees"].notna()]
    return _say(
        "triton",
        tools=list(dict.fromkeys(_tools(every))),
        passes=sorted(set(every["pass"].dropna())),
        eight_bit=int(_eight_bit(every).sum()),
        peak_known=bool(peak),
        beyond=len(out),
        same_timer=int(timer.sum()),
        beyond_backends=list(dict.fromkeys(out["backend"])),
        beyond_low=out["tflops"].min() / bound if len(out) else None,
        beyond_high=out["tflops"].max() / bound if len(out) else None,
        beyond_device=bound_device,
        beyond_peak=bound,
        beyond_any=not peak,
        unmatched=len(unmatched),
        unmatched_backends=list(dict.fromkeys(unmatched["backend"])),
        checked_accuracy=int(every["accurate"].notna().sum()) if "accurate" in every else 0,
        spreads=int(every["spread_pct"].notna().sum()) if "spread_pct" in every else 0,
        spread_low=every["spread_pct"].min() / 100 if "spread_pct" in every else None,
        spread_high=every["spread_pct"].max() / 100 if "spread_pct" in every else None,
        failed=len(failed),
        failed_backends=list(dict.fromkeys(failed["backend"])),
        failed_lines=int(failed["line"].nunique()) if len(failed) else 0,
        n=len(every),
        conflicts=conflicts or [],
        n_inputs=every["input"].nunique(),
        ops=sorted(set(every["op"].dropna())),
        causal=sorted(set(every["causal"].dropna())),
        backends=list(dict.fromkeys(every["backend"])),
        n_fastest=len(fa),
        wins=fa.loc[~fa["tied"].astype(bool) & ~near, "fastest"].value_counts().to_dict() if len(fa) else {},
        near=int(near.sum()) if len(fa) else 0,
        floor=attention.NOISE_FLOOR,
        ties=fa.loc[fa["tied"].astype(bool), "fastest"].value_counts().to_dict() if len(fa) else {},
        **(
            dict(
                last_input=last["input"],
                last_fastest=last["fastest"],
                last_tied=bool(last["tied"]),
                last_near=bool(near.iloc[-1]),
                last_slowest=last["slowest"],
                last_pass=last["pass"] if pd.notna(last["pass"]) else None,
                last_by=last["by"],
                ratio=last["ratio"],
            )
            if last is not None
            else {}
        ),
        recomputed=int((every["tflops_from"] == "recomputed").sum()),
        printed_only=int((every["tflops_from"] == "printed").sum()),
        # score_mod.py's figures: its own FLOPs rule, which the chapter does not apply to its backends
        own_rule=int(((every["tflops_from"] == "printed") & (every["tool"] == tb.SCORE_MOD)).sum()),
        no_rule=bool((every["tool"] == tb.SCORE_MOD).all()),
        # a tritonbench operator other than those whose FLOPs rule the chapter applies (flex_attention,
        # decoding_attention, ...): each credits its own FLOPs, which no shape alone gives here
        **_other_rule(every, tb),
        n_checked=len(checked),
        n_agree=int(checked["agrees"].astype(bool).sum()),
        **(
            dict(best_tflops=best["tflops"], best_backend=best["backend"], best_input=best["input"])
            if best is not None
            else {}
        ),
        **(
            dict(best16_tflops=best16["tflops"], best16_backend=best16["backend"], best16_input=best16["input"])
            if best16 is not None and best is not None and best16.name != best.name
            else {}
        ),
        **(dict(device=peaks.device, peak=peak, share=best16["tflops"] / peak) if peak and best16 is not None else {}),
    )


def _same_timer(t: pd.DataFrame, beyond: pd.Series) -> pd.Series:
    """The rows, not themselves beyond physics, of a backend timed in the same table (file, operator, pass)
    as one of its rows that is."""
    key = [c for c in ("source", "op", "pass", "backend") if c in t]
    tag = pd.Series(["|".join(map(str, r)) for r in t[key].itertuples(index=False)], index=t.index, dtype=object)
    return ~beyond & tag.isin(set(tag[beyond]))


def _other_rule(every: pd.DataFrame, tb) -> dict:
    """The tritonbench rows of an operator whose FLOPs rule the chapter does not apply (`tb.RULED`):
    how many of their TFLOP/s are shown as printed (`other_rule`), and the operators (`other_ops`)."""
    other = every["tool"].eq(tb.TOOL) & every["op"].notna() & ~every["op"].isin(tb.RULED)
    return dict(
        other_rule=int((other & (every["tflops_from"] == "printed")).sum()),
        other_ops=sorted(set(every.loc[other, "op"])),
        other_only=bool(other.all()),
    )


def _eight_bit(t: pd.DataFrame) -> pd.Series:
    """Rows run in an 8-bit type (the flash-attention FP8 scripts' kernels): no share of a 16-bit peak."""
    return t["dtype"].isin(["fp8"]) if "dtype" in t else pd.Series(False, index=t.index)


def triton_table(t: pd.DataFrame, peaks: roofline.Peaks) -> pd.DataFrame:
    """tritonbench's rows for the page: input, backend, latency, the TFLOP/s shown and where they come
    from, the printed TFLOP/s, and the share of the device's dense peak (only with a device named)."""
    peak = (peaks.dense_tflops if peaks.device is not None else None) or np.nan
    return pd.DataFrame(
        {
            "input": t["input"],
            "backend": t["backend"],
            **({"pass": t["pass"]} if t["pass"].nunique() > 1 else {}),
            **({"data type": t["dtype"]} if "dtype" in t and t["dtype"].notna().any() else {}),
            "latency (ms)": t["latency_ms"].astype(float),
            "TFLOP/s": t["tflops"].astype(float),
            "TFLOP/s from": t["tflops_from"].replace("", None),
            "printed TFLOP/s": t["printed_tflops"].astype(float),
            "of dense 16-bit peak (%)": (100 * t["tflops"].astype(float) / peak).where(~_eight_bit(t)),
        }
    )
