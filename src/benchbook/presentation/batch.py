"""batch_saturation: figures, display tables and the sentences of its claims."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from benchbook.analysis.batch import NEW_TOKENS, PRECISION
from benchbook.claims import Claim, Ledger
from benchbook.presentation import wording
from benchbook.presentation.plotting import color, message_figure

SOURCE_WORDS = {
    "detected": "named in the output",
    "parameter": "given as a parameter",
    "assumed": "assumed: the output names no device the hardware table knows",
}
SIZE_WORDS = {
    "parameter": "given as a parameter",
    "printed": "printed in the output",
    "table": "from the model table (data/models.csv)",
    "tool config": "assumed: the output prints no size, so this is the size the bigcode README gives for its "
    "configuration of that name",
}


def _label(sw: pd.DataFrame, fw: str, dtype: str) -> str:
    return dtype if sw["framework"].nunique() <= 1 else f"{fw} {dtype}"


# --- claims' sentences ---------------------------------------------------------------------------

_HEAD = (
    "at batch {batch_size} ({series}) a step moves {weight_gb:.2f} GB of weights in {step_ms:.1f} ms: "
    "{bandwidth_fraction:.1%} of the {device}'s peak bandwidth and {compute_fraction:.2%} of its peak compute, "
    "both under the {threshold:.0%} threshold. "
)
_BOUND = {
    ("overhead", "small"): _HEAD + "Neither roof limits this regime: the step pays a fixed cost that the roofline "
    "does not count (framework and kernel-launch overhead).",
    ("overhead", "large"): _HEAD + "Neither roof limits this regime either: the kernels run far from both peaks, "
    "or the time goes to work the weights-only roofline does not count (attention over the KV cache, the "
    "framework's per-sequence work).",
    ("memory-bandwidth", "small"): "at batch {batch_size} ({series}) a step moves {weight_gb:.2f} GB of weights in "
    "{step_ms:.1f} ms, {bandwidth_fraction:.0%} of the {device}'s peak bandwidth: this regime is bound by memory "
    "bandwidth.",
    ("compute", "large"): "at batch {batch_size} ({series}) the steps reach {compute_fraction:.0%} of the {device}'s "
    "peak compute at {intensity:.0f} FLOP/byte, right of the ridge ({ridge:.0f}): this regime is bound by compute.",
}
_BOUND[("memory-bandwidth", "large")] = _BOUND[("memory-bandwidth", "small")]
_BOUND[("compute", "small")] = _BOUND[("compute", "large")]
_REGIME = {"small": "The smallest batch", "large": "The batch of peak throughput"}


def say_all(ledger: Ledger) -> None:
    """Give every claim of the chapter its sentence (in place)."""
    for i, c in enumerate(ledger.claims):
        ledger.claims[i] = say(c)


def say(c: Claim) -> Claim:
    """The sentence of one batch_saturation claim."""
    ev = c.evidence
    if c.id == "knee":
        return wording.say(
            c,
            "by this rule {series} saturates at batch {x}: {knee_tok_s:,.0f} tok/s, {fraction:.0%} of its peak of "
            "{peak_tok_s:,.0f} tok/s (batch {peak_batch_size}); the curve's log-log slope drops by {strength:.2f} there.",
            topic="The saturation batch",
        )
    if c.kind == "bound":
        return wording.say(
            c,
            _BOUND.get((ev.get("verdict"), ev.get("regime")), "{verdict}"),
            topic=f"What limits {_REGIME[ev['regime']].lower()}",
            implausible="**Warning: the roofline fractions of {dtype} at batch {batch_size} are not a result.** "
            "{reason}.",
        )
    if c.id == "bandwidth_small":
        return wording.say(
            c,
            "at batch {batch_size}, {series} reads {weight_gb:.2f} GB of weights per step in {step_ms:.1f} ms, "
            "{achieved:,.0f} GB/s: {fraction:.1%} of the {peak:,.0f} GB/s of the {device}.",
            topic="The bandwidth of the smallest batch",
        )
    if c.id == "compute_large":
        return wording.say(
            c,
            "at its peak (batch {batch_size}) {series} does {achieved:.1f} TFLOP/s, {fraction:.1%} of the {device}'s "
            "dense {dtype} peak of {peak:,.1f} TFLOP/s.",
            topic="The compute of the peak batch",
        )
    if c.id == "dtypes_small":
        faster = (ev.get("ratio") or 0) >= 1
        shown = (
            "with {framework} at batch {batch_size}, {wide} reads {bytes_ratio:.0f}x the weight bytes of {narrow} per step, yet gives "
            "{a:,.2f} tok/s against {b:,.2f} ({ratio:.2f}x): the bytes moved do not set the step time."
            if faster
            else "with {framework} at batch {batch_size}, {wide} reads {bytes_ratio:.0f}x the weight bytes of {narrow} per step and "
            "gives {a:,.2f} tok/s against {b:,.2f} ({ratio:.2f}x)."
        )
        return wording.say(c, shown, topic="The dtypes at the smallest batch")
    if c.id == "latency_flat":
        return wording.say(
            c,
            "from batch {first} to {last}, one generate() call takes {low:.2f} to {high:.2f} s: {last} sequences cost "
            "about as much time per step as {first}, so the step time is a fixed cost, not the work done.",
            topic="Latency over the small batches",
            withheld="Latency over the small batches is not stated as flat: {reason}.",
        )
    if c.id == "conflicts":
        return wording.say(
            c,
            "{count} configuration(s) are printed more than once with different values (lines {lines}); they are "
            "left out of every figure, table and claim on this page.",
            topic="Conflicting rows",
            withheld="No configuration is printed twice with different values.",
        )
    return wording.say(c, "{rule}", topic=c.id)


# --- descriptions of the data --------------------------------------------------------------------


def inputs_sentence(files: str, sw: pd.DataFrame) -> str:
    """What the page reads, from the data only."""
    models = ", ".join(sorted(set(sw["model"]) - {""})) or "a model the output does not name"
    gpus = ", ".join(sorted(set(sw["gpu"]) - {""}))
    fws = ", ".join(sorted(set(sw["framework"]) - {""}))
    dts = ", ".join(sorted(set(sw.loc[sw["has_result"], "dtype"])))
    bs = sw.loc[sw["has_result"], "batch_size"]
    span = f"batch {bs.min()} to {bs.max()}" if len(bs) else "no batch with a result"
    return (
        f"Input: {files}: {models}"
        + (f" ({fws})" if fws else "")
        + (f" on {gpus}" if gpus else ", GPU not named")
        + f"; dtypes with results: {dts or 'none'}; {span}; {NEW_TOKENS} new tokens per sequence."
    )


def device_sentence(peaks, params: dict, sources: dict) -> str:
    """Which device and model size the roofline uses, and where each comes from."""
    if peaks is None:
        return "No device is known, so no roofline is drawn."
    prec = ", ".join(f"{p} {v:,.1f} TFLOP/s" for p, v in peaks.tflops.items())
    head = (
        f"The roofline uses the {peaks.device} ({SOURCE_WORDS.get(peaks.source, peaks.source)}): "
        f"{peaks.total_bandwidth_gb_s:,.0f} GB/s and dense peaks {prec}."
    )
    sizes = []
    for m, b in params.items():
        where = SIZE_WORDS.get(sources.get(m), sources.get(m))
        sizes.append(
            f"{m}: {b:.2f} B parameters ({where})"
            if b
            else f"{m}: size unknown (the claims that need it are withheld; pass `params_b`)"
        )
    return head + " Model size: " + "; ".join(sizes) + "."


def gain_sentence(mg: pd.DataFrame) -> str:
    """How the gain per added sequence changes from the first to the last step of one series."""
    g = mg.dropna(subset=["gain_tok_s_per_seq"])
    if g.empty:
        return "With one batch size per series there is no gain per added sequence to show."
    first, last = g.iloc[0], g.iloc[-1]
    return (
        f"For {first['dtype']}, each added sequence adds {first['gain_tok_s_per_seq']:,.1f} tok/s from batch "
        f"{int(first['prev_batch_size'])} to {int(first['batch_size'])}, and {last['gain_tok_s_per_seq']:,.2f} tok/s "
        f"from batch {int(last['prev_batch_size'])} to {int(last['batch_size'])}."
    )


def ms_sentence(row: pd.Series | None) -> str:
    """The tool's msec/token against the per-sequence time per token, at one batch size."""
    if row is None:
        return "No batch size with a result, so there is no time per token to compare."
    if not np.isfinite(row["latency_s"]):
        return (
            f'The tool prints 1000 / throughput as "msec/token" ({row["tool_ms_per_token"]:.2f} ms at batch '
            f"{int(row['batch_size'])}); this input gives no latency there, so the wait per token cannot be shown."
        )
    return (
        f'The tool prints 1000 / throughput as "msec/token". At batch {int(row["batch_size"])} that is '
        f"{row['tool_ms_per_token']:.2f} ms, but each sequence in that batch waited {row['latency_s']:.2f} s for "
        f"{NEW_TOKENS} tokens: {row['per_sequence_ms_per_token']:.1f} ms per token."
    )


def limits_sentence(limits: pd.DataFrame) -> str:
    """Where each series ran out, and which columns are blank."""
    parts = []
    for _, r in limits.iterrows():
        name = f"{r['framework']} {r['dtype']}".strip()
        if r["status"] == "limit":
            parts.append(f"{name} has a result up to batch {int(r['last_ok'])} and none from {int(r['first_missing'])}")
        elif r["status"] == "no limit":
            parts.append(f"{name} has a result at every batch size up to {int(r['last_ok'])}")
        else:
            parts.append(f"{name} has no result at all (kept as missing, not as zero)")
    return ("; ".join(parts) + ".") if parts else "No series in this input."


def limits_table(limits: pd.DataFrame) -> pd.DataFrame:
    words = {"limit": "ran out between the two", "no limit": "no limit reached in the sweep", "blank": "no results"}
    return limits.assign(status=limits["status"].map(words))


# --- figures -------------------------------------------------------------------------------------


def plot_throughput(sw: pd.DataFrame, knees: pd.DataFrame, knee_shown: bool):
    """Throughput vs batch size (log x), one line per series; the reference's knee (when its claim is
    shown) dotted, the first batch with no result as x."""
    fig, ax = plt.subplots(figsize=(9, 4.5))
    drawn = False
    for i, ((model, fw, dtype), g) in enumerate(sw.groupby(["model", "framework", "dtype"], sort=False)):
        ok = g[g["has_result"]].sort_values("batch_size")
        if ok.empty:
            continue
        drawn = True
        ax.plot(ok["batch_size"], ok["throughput_tok_s"], marker="o", ms=4, color=color(i), label=_label(sw, fw, dtype))
        miss = g[~g["has_result"] & ~g["conflict"] & (g["batch_size"] > ok["batch_size"].max())]
        if len(miss):
            ax.scatter(miss["batch_size"].min(), ok["throughput_tok_s"].iloc[-1], marker="x", s=60, color=color(i))
        k = knees[(knees["dtype"] == dtype) & (knees["framework"] == fw) & (knees["model"] == model)]
        if knee_shown and len(k) and k.index[0] == knees["peak_tok_s"].idxmax():
            ax.axvline(k["knee_batch_size"].iat[0], color=color(i), ls=":", lw=1)
    if not drawn:
        plt.close(fig)
        return message_figure("no batch size with a result")
    ax.set_xscale("log", base=2)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("batch size (sequences per generate call, log scale)")
    ax.set_ylabel("throughput (tok/s, whole batch)")
    ax.legend(
        title="x: first batch with no result", title_fontsize=8, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0)
    )
    fig.tight_layout()
    return fig


def plot_ms_per_token(sw: pd.DataFrame):
    """The tool's msec/token (1000 / aggregate rate) vs the per-sequence time per token."""
    fig, ax = plt.subplots(figsize=(9, 4.5))
    drawn = False
    for i, ((_, fw, dtype), g) in enumerate(sw.groupby(["model", "framework", "dtype"], sort=False)):
        ok = g[g["has_result"]].sort_values("batch_size")
        if ok.empty:
            continue
        drawn = True
        name = _label(sw, fw, dtype)
        ax.plot(
            ok["batch_size"],
            ok["per_sequence_ms_per_token"],
            marker="o",
            ms=4,
            color=color(i),
            label=f"{name}: per sequence",
        )
        ax.plot(ok["batch_size"], ok["tool_ms_per_token"], ls="--", color=color(i), label=f"{name}: tool's msec/token")
    if not drawn:
        plt.close(fig)
        return message_figure("no batch size with a result")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("batch size (log scale)")
    ax.set_ylabel("milliseconds per token (log scale)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig


def plot_roofline(rl: pd.DataFrame, peaks, key=None):
    """Each measured step on the device's roofline: intensity (weights only) against achieved
    TFLOP/s, one roof per distinct peak of the precisions the dtypes use, points joined in batch order; the first and
    last batch of series `key` labelled."""
    d = rl.dropna(subset=["achieved_tflops", "intensity"])
    if peaks is None or d.empty or not peaks.total_bandwidth_gb_s:
        return message_figure("no roofline:\nthe model size or\nthe step time is unknown")
    fig, ax = plt.subplots(figsize=(9, 4.5))
    bw = peaks.total_bandwidth_gb_s
    lo = min(0.1, d["intensity"].min() / 2)
    hi = max(d["intensity"].max() * 4, 1000)
    x = np.logspace(np.log10(lo), np.log10(hi), 200)
    ymin = 10 ** np.floor(np.log10(d["achieved_tflops"].min()))
    roofs = {}
    for dtype in d["dtype"].unique():
        prec = PRECISION.get(dtype, dtype)
        peak = peaks.peak_tflops(prec)
        if peak:
            roofs.setdefault(peak, []).append(prec)
    for j, (peak, precs) in enumerate(sorted(roofs.items())):
        names = "/".join(dict.fromkeys(precs))
        ax.plot(
            x,
            np.minimum(peak, bw * 1e9 * x / 1e12),
            color="black",
            lw=1.2,
            ls=["--", ":", "-."][j % 3],
            label=f"roof: {names} peak {peak:,.0f} TFLOP/s",
        )
    for i, (series, g) in enumerate(d.groupby(["model", "framework", "dtype"], sort=False)):
        _, fw, dtype = series
        g = g.sort_values("batch_size")
        ax.plot(g["intensity"], g["achieved_tflops"], "o-", ms=4, color=color(i), label=f"{_label(d, fw, dtype)} steps")
        for _, r in g.iloc[[0, -1]].iterrows() if series == key else []:
            ax.annotate(
                f"bs {int(r['batch_size'])}",
                (r["intensity"], r["achieved_tflops"]),
                fontsize=7,
                xytext=(4, -10),
                textcoords="offset points",
            )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(bottom=ymin)
    ax.set_xlabel("intensity of a step, weights only (FLOP/byte)")
    ax.set_ylabel("achieved compute (TFLOP/s)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0), title=f"{peaks.device} ({peaks.source})")
    fig.tight_layout()
    return fig
