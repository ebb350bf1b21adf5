"""The attention-kernels chapter's figures, display tables and sentence templates.

Every verdict comes from a claim (`benchbook.claims.attention`); figure titles say what is drawn,
never a verdict; the rest describes the input and names only what the input or a parameter says.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.analysis import attention
from benchbook.claims import Claim, Ledger
from benchbook.presentation import labels, wording
from benchbook.presentation.plotting import color, message_figure

LABELS = {"causal_fa2": "causal FA2", "sdpa_mask": "SDPA + mask", "flexattention": "FlexAttention"}
SOURCE_WORDS = {
    "detected": "detected: a device line in the input file names it",
    "parameter": "given as a parameter",
    "assumed": "assumed: the input names no device, pass `gpu` for yours",
}


def mask_name(mask: str | None) -> str:
    return (mask or "").replace("_", " ")


def _ops(k: pd.DataFrame) -> list[str]:
    """The kernels present, the three attention-gym ones first, then any other a modified benchmark printed."""
    present = list(dict.fromkeys(k["operation"]))
    return [o for o in attention.OPERATIONS if o in present] + [o for o in present if o not in attention.OPERATIONS]


def label(op: str) -> str:
    return LABELS.get(op, op.replace("_", " "))


# --- descriptions (not verdicts) -----------------------------------------------------------------


def stop_note(messages: list[str]) -> str:
    """The completeness line: the parser's "run stopped" warning, so a run cut short by a traceback
    says where, else that every section finished."""
    stops = [m for m in messages if m.startswith("warning: the run stopped")]
    return stops[0].removeprefix("warning: ") if stops else "the run completed every section it started"


def device_words(peaks: attention.Peaks) -> str:
    """'RTX-PRO-6000-Blackwell-WS (500 TFLOP/s dense FP16, 1,792 GB/s; named in the input)'."""
    return (
        f"{peaks.device} ({peaks.tflops:,.0f} TFLOP/s dense FP16, {peaks.bandwidth_gb_s:,.0f} GB/s; "
        f"{SOURCE_WORDS.get(peaks.source, peaks.source)})"
    )


def reproduction_words(rep: pd.DataFrame) -> str:
    """How many recomputed TF/s cells agree with the printed ones, in words."""
    n, ok = len(rep), int(rep["agrees"].sum()) if len(rep) else 0
    if n == 0:
        return "no TF/s cell could be recomputed from this input"
    return f"{ok} of {n} printed TF/s cells agree with this formula at the printed precision"


def fa2_words(k: pd.DataFrame) -> str:
    """FA2's printed forward range across sections, said to be one re-timed problem only where the
    sections share a sequence length and the benchmark's shape."""
    fa2 = k[(k["pass"] == "fw") & (k["operation"] == "causal_fa2") & k["tflops"].notna()]
    if fa2.empty:
        return "This input has no causal FA2 row."
    if len(fa2) == 1:
        return f"Its one causal FA2 forward row prints {fa2['tflops'].iat[0]:,.4g} TF/s."
    span = f"{fa2['tflops'].min():,.4g} to {fa2['tflops'].max():,.4g} TF/s"
    same = fa2[fa2["shape"] == "default"].groupby("seq_len").size() if "shape" in fa2 else pd.Series(dtype=int)
    if len(same) and same.max() >= 2:
        return (
            f"Across its {len(fa2)} sections the causal FA2 forward row prints {span}; {same.max()} of them time "
            "the same causal problem again."
        )
    return f"Across its {len(fa2)} sections, at different shapes, the causal FA2 forward row prints {span}."


def shape_words(k: pd.DataFrame) -> str:
    """Whether every row fits the benchmark's B=16, H=16, D=64 (else the work comes from the printed TF/s)."""
    other = k[k["shape"] == "other"]
    if other.empty:
        return "Every row of this input fits that shape (its printed TF/s match the formula)."
    return (
        f"{other['mask'].nunique()} of the {k['mask'].nunique()} sections of this input do not fit that shape (a "
        "modified benchmark): their performed work is taken from the printed TF/s, which carry the real shape."
    )


def noise_words(k: pd.DataFrame) -> str:
    """How the page judges differences: the re-timing spread and the floor it never goes below."""
    spread, n = attention.retime_spread(k)
    value, _ = attention.noise(k)
    if spread is None:
        return (
            f"attention-gym prints no spread and this input re-times no kernel, so a noise of {value:.0%} is "
            "assumed; differences inside it are not called"
        )
    floor = f", below the {attention.NOISE_FLOOR:.0%} floor used instead" if spread < attention.NOISE_FLOOR else ""
    return (
        f"attention-gym prints no spread; the same causal FA2 problem, re-timed in {n} sections, moves by up to "
        f"{spread:.1%}{floor}, so differences inside {value:.1%} are not called"
    )


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
        return message_figure(f"No {pass_.upper()} rows in this input.")
    masks = list(dict.fromkeys(sub.sort_values("order")["mask"]))
    ops = _ops(sub)
    x = np.arange(len(masks))
    width = 0.8 / max(len(ops), 1)
    fig, ax = plt.subplots()
    for i, op in enumerate(ops):
        vals = [sub[(sub["mask"] == m) & (sub["operation"] == op)]["tflops"].max() for m in masks]
        ax.bar(x + (i - (len(ops) - 1) / 2) * width, vals, width, color=color(i), label=label(op))
    ax.set_xticks(x)
    ax.set_xticklabels([mask_name(m) for m in masks], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(f"{pass_.upper()} throughput as printed (TFLOP/s)")
    ax.set_title(f"{pass_.upper()} TFLOP/s as printed (credited FLOPs), per mask and kernel")
    ax.legend(fontsize=8)
    return fig


def speedup_figure(sp: pd.DataFrame):
    """FlexAttention over SDPA + mask vs block density (log-log), with the 1 / density line."""
    import matplotlib.pyplot as plt

    sp = sp[sp["flex_vs_sdpa"].notna() & sp["density"].notna()]
    if sp.empty:
        return message_figure("No mask with both SDPA + mask and FlexAttention times and a known density.")
    fig, ax = plt.subplots(figsize=(7.5, 5))
    for i, (ps, g) in enumerate(sp.groupby("pass", sort=False)):
        ax.scatter(g["density"], g["flex_vs_sdpa"], color=color(i), label=f"{ps.upper()} measured", zorder=3)
    xs = np.logspace(np.log10(max(sp["density"].min() * 0.8, 1e-3)), 0, 50)
    ax.plot(xs, 1 / xs, color="grey", ls="--", label="1 / density (skip masked blocks, same speed per block)")
    ax.axhline(1.0, color="black", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.margins(x=0.25, y=0.1)
    ax.set_xlabel("block density (fraction of 128 x 128 blocks computed, log scale)")
    ax.set_ylabel("FlexAttention speed-up over SDPA + mask (x, log)")
    ax.set_title("FlexAttention's speed-up over SDPA + mask against block density")
    fig.legend(loc="lower center", ncols=3, fontsize=8, bbox_to_anchor=(0.5, 0.0))
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    # one label per mask, on its forward point, where there is room (the table below names every mask)
    fw = sp[sp["pass"] == "fw"]
    labels.place(ax, [(r["density"], r["flex_vs_sdpa"], mask_name(r["mask"])) for _, r in fw.iterrows()])
    return fig


def roofline_figure(pts: pd.DataFrame, peaks: attention.Peaks, xlim=(10, 100_000)):
    """The kernels' performed work on the device's dense FP16 roofline (compulsory traffic)."""
    import matplotlib.pyplot as plt

    pts = pts[np.isfinite(pts["achieved_tflops"]) & np.isfinite(pts["intensity_flop_per_byte"])]
    if pts.empty:
        return message_figure("No kernel with a time and a known shape: nothing to place on the roofline.")
    fig, ax = plt.subplots()
    x = np.logspace(np.log10(xlim[0]), np.log10(xlim[1]), 200)
    ax.plot(
        x,
        np.minimum(peaks.tflops, peaks.bandwidth_gb_s * x / 1e3),
        color="black",
        lw=2,
        label=f"{peaks.device} roofline",
    )
    ax.axvline(peaks.ridge, color="grey", ls=":", lw=1)
    ax.annotate(
        f"ridge {peaks.ridge:.0f} FLOP/B",
        (peaks.ridge, peaks.tflops),
        textcoords="offset points",
        xytext=(5, -15),
        fontsize=8,
    )
    for i, op in enumerate(_ops(pts)):
        g = pts[pts["operation"] == op]
        ax.scatter(g["intensity_flop_per_byte"], g["achieved_tflops"], color=color(i), zorder=3, label=label(op))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity of the performed work (FLOP/byte)")
    ax.set_ylabel("performed work (TFLOP/s)")
    ax.set_title(f"Performed work on the {peaks.device} roofline ({peaks.source} peaks)")
    ax.legend(fontsize=8)
    return fig


# --- sentences -----------------------------------------------------------------------------------

_NO_SPARSE = (
    "This input has no section with a block-sparse mask and both SDPA + mask and FlexAttention timed, so the gain "
    "from skipping blocks is not measured."
)
_NOT_CALLED = "{topic}: a ratio of {ratio:.2f}, inside the noise ({noise:.1%}), so no verdict."


def _withheld(c: Claim) -> str | None:
    """The withheld wording: inside the noise when both sides exist, else the default."""
    ev = c.evidence
    if c.kind == "comparison" and all(ev.get(x) is not None for x in ("a", "b", "noise", "ratio")):
        return _NOT_CALLED
    return None


def _pre(template: str | None, **words) -> str | None:
    """`template` with display words (not evidence, e.g. a mask's printed name) filled in first."""
    if template is None:
        return None
    for key, value in words.items():
        if value is None:  # left as a placeholder: the claim is withheld for the missing value
            continue
        template = template.replace("{" + key + "}", str(value).replace("{", "{{").replace("}", "}}"))
    return template


def _span(low, high, fmt: str) -> str | None:
    """'119 to 128', or one value when both ends print the same; None when either is missing."""
    if low is None or high is None:
        return None
    a, b = fmt.format(low), fmt.format(high)
    return a if a == b else f"{a} to {b}"


def word(c: Claim) -> Claim:
    """The claim with its sentence."""
    ev = c.evidence
    w = {
        "mask_words": mask_name(ev.get("mask")),
        "pass_words": {"fw": "forward", "bw": "backward"}.get(ev.get("pass"), ev.get("pass")),
        "tflops_range": _span(ev.get("tflops_low"), ev.get("tflops_high"), "{:,.3g}"),
        "fraction_range": _span(
            ev.get("fraction_low"), ev.get("fraction"), "{:.0%}" if (ev.get("fraction") or 0) >= 0.01 else "{:.3%}"
        ),
        "a_range": _span(ev.get("a_low"), ev.get("a_high"), "{:,.3g}"),
        "op_words": LABELS.get(ev.get("operation"), ev.get("operation") or ""),
        "source_words": SOURCE_WORDS.get(ev.get("peak_source"), ev.get("peak_source") or ""),
    }

    def say(shown, topic, withheld=None, implausible=None):
        return wording.say(
            c,
            _pre(shown, **w),
            topic=_pre(topic, **w),
            withheld=_pre(withheld, **w),
            implausible=_pre(implausible, **w),
        )

    if c.id == "flex_sparsest":
        return say(
            "On the sparsest block mask, {mask_words} (density {density:.1%}), FlexAttention's forward pass takes "
            "1/{ratio:.1f} of the time of SDPA + mask.",
            "FlexAttention against SDPA + mask on the sparsest mask",
            _withheld(c) or _NO_SPARSE,
        )
    if c.id == "skip_sparsest":
        tail = (
            "also computes each block faster than SDPA + mask."
            if ev.get("more")
            else "computes each block more slowly than SDPA + mask, so skipping blocks accounts for more than the "
            "whole gain."
        )
        return say(
            "That is {ratio:.0%} of the {b:.1f}x that skipping the masked blocks alone would give at SDPA's speed per "
            "block: FlexAttention " + tail,
            "FlexAttention's speed-up against block skipping alone",
            _withheld(c)
            or "Nor, without such a section, is FlexAttention's speed-up compared with what skipping blocks alone "
            "would give.",
        )
    if c.id == "dense_gain":
        has = all(ev.get(x) is not None for x in ("ratio", "max_ratio", "noise"))
        faster = (ev.get("ratio") or 0) > 1
        span = (
            "{ratio:.2f}x ({mask_words})"
            if ev.get("n_masks") == 1
            else "from {ratio:.2f}x ({mask_words}) up to {max_ratio:.2f}x"
        )
        return say(
            (
                "Where nothing is skipped (density 1, score modifications only), FlexAttention is still faster than "
                "SDPA + mask, kernel against kernel: " + span + "."
                if faster
                else "Where nothing is skipped (density 1, score modifications only), FlexAttention is slower than "
                "SDPA + mask for {mask_words}: SDPA + mask takes {ratio:.2f}x FlexAttention's time."
            ),
            "Where nothing is skipped (density 1), FlexAttention against SDPA + mask",
            "Where nothing is skipped (density 1), FlexAttention's gain over SDPA + mask ranges from {ratio:.2f}x "
            "({mask_words}) to {max_ratio:.2f}x; the smallest is inside the noise ({noise:.1%}), so it is not stated "
            "that FlexAttention is faster for every score modification."
            if has
            else "This input has no section with both SDPA + mask and FlexAttention timed at density 1 (score "
            "modifications only), so the two kernels are not compared where nothing is skipped.",
        )
    if c.id in ("sdpa_fraction", "fa2_fraction"):
        return say(
            "{op_words} performs {tflops_range} TFLOP/s of real work (forward, over {n_masks} section(s)), "
            "{fraction_range} of the {device}'s {peak:,.0f} TFLOP/s dense FP16 peak ({source_words}).",
            "{op_words}'s share of the device's peak",
            None
            if ev.get("tflops_high") is not None
            else "This input has no {op_words} row, so its share of the peak is not stated.",
            implausible="**Warning: {op_words}'s share of the {device}'s peak is not a result.** It would be "
            "{fraction:.0%}; {reason}.",
        )
    if c.id == "sdpa_vs_fa2":
        slower = (ev.get("ratio") or 0) < 1
        sparse = (ev.get("n_sparse") or 0) > 0
        over = "over {n_masks} masks: {a_range}" if (ev.get("n_masks") or 0) > 1 else "one mask"
        return say(
            (
                "Counted by the work it does, SDPA + mask is "
                + ("also " if sparse else "")
                + "a slow kernel: its median {a:.0f} TFLOP/s forward ("
                + over
                + ") is {ratio:.0%} of causal FA2's {b:.0f} TFLOP/s. "
                + (
                    "It pays twice: for the blocks the mask throws away, and for a slower kernel on the ones it keeps."
                    if sparse
                    else "No block is masked out in this input, so all of its loss is kernel speed."
                )
                if slower
                else "Counted by the work it does, SDPA + mask is not a slower kernel than causal FA2: its median "
                "{a:.0f} TFLOP/s forward ("
                + over
                + ") is {ratio:.0%} of FA2's {b:.0f} TFLOP/s"
                + ("; what it loses is the work the mask throws away." if sparse else ".")
            ),
            "SDPA + mask's speed per FLOP against FA2's",
            _withheld(c)
            or "This input lacks an SDPA + mask or a causal FA2 row, so their speeds per FLOP are not compared.",
        )
    if c.id == "flex_vs_fa2_causal":
        faster = (ev.get("ratio") or 0) > 1
        return say(
            "On the plain causal mask, the one problem both run, FlexAttention's forward pass takes {ratio:.2f}x the "
            "time of FA2 ({a:.2f} ms against {b:.2f} ms)"
            + (": the causal FA2 kernel is faster there." if faster else "."),
            "FlexAttention against FA2 on the causal mask",
            _withheld(c)
            or "This input has no plain causal-mask section, the one problem FA2 and FlexAttention both run, so the two "
            "are not compared.",
        )
    if c.id == "best_bound":
        what = {
            "compute": "compute-bound: it reaches {compute_fraction:.0%} of the dense FP16 peak at {intensity:,.0f} "
            "FLOP/byte, right of the ridge at {ridge:.0f}",
            "memory-bandwidth": "bandwidth-bound: its compulsory traffic alone uses {bandwidth_fraction:.0%} of "
            "the memory bandwidth",
            "overhead": "limited by neither roof: at {intensity:,.0f} FLOP/byte it reaches {compute_fraction:.0%} "
            "of the compute peak and {bandwidth_fraction:.1%} of the bandwidth, so its limit is the kernel's own "
            "efficiency, not the device's peaks",
        }.get(ev.get("verdict"), "")
        return say(
            "The fastest kernel here, {op_words} ({pass_words}, {mask_words}), is " + what + " (on the {device}, "
            "{source_words}).",
            "What limits the fastest kernel",
        )
    raise KeyError(f"no wording for claim {c.id!r}")


def sentences(claims: list[Claim], inputs: list[str]) -> Ledger:
    """The chapter's ledger: every claim worded, in page order."""
    led = Ledger("attention_kernels", inputs)
    for c in claims:
        led.add(word(c))
    return led
