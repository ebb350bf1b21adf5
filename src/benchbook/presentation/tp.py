"""The tp_scaling chapter's figures, display tables and sentences.

Verdict sentences are templates over a claim's evidence (`say_all`); descriptions of the data
(what the input holds, the mislabelled prefill column, the fit's parameters) are built here from
analysis results. Every figure draws TGI's Lowest and Highest as error bars where it plots a
latency or a throughput.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from benchbook import hardware
from benchbook.claims import Claim, rules
from benchbook.presentation.plotting import color
from benchbook.presentation.roofline import plot_roofline
from benchbook.presentation.tables import NOT_RUN
from benchbook.presentation.wording import join, say

PHASES = (("prefill_latency", "Prefill"), ("decode_token_latency", "Decode (per token)"))

PEAK_SOURCE = {
    "detected": "named in the input",
    "parameter": "given as a parameter",
    "assumed": "assumed: the input does not name its GPU",
}


# ------------------------------------------------------------------------------------ sentences
def _bound_shown(ev: dict) -> str:
    head = "By the bound rule (a limit is named only at {threshold:.0%} of its peak or more), {phase} at batch "
    head += "{batch_size} on TP {tp} "
    if ev.get("verdict") == "overhead":
        return head + (
            "is limited by neither roof: {bandwidth_fraction:.1%} of {device}'s peak bandwidth and "
            "{compute_fraction:.1%} of its peak compute. The time goes to what the roofline does not model: "
            "kernel efficiency, launches and synchronisation."
        )
    if ev.get("verdict") == "compute":
        return head + "is compute-bound: {compute_fraction:.0%} of {device}'s peak compute, right of the ridge."
    if ev.get("verdict") == rules.NOT_COMPUTE:
        return (
            "{phase} at batch {batch_size} on TP {tp} cannot be compute-bound on any device: {intensity:.1f} FLOP/byte is below the lowest ridge of any "
            "device in the hardware table ({lowest_ridge:.0f} FLOP/byte, the {lowest_ridge_device})."
        )
    return head + "is bandwidth-bound: {bandwidth_fraction:.0%} of {device}'s peak bandwidth, left of the ridge."


def _throughput_shown(ev: dict) -> str:
    text = (
        "For the most tokens per GPU, counting the {sequence_length}-token prefill every request needs "
        "({decode_length} generated tokens per request here): {choice}, {value:.1f} generated tokens/s per GPU, "
        "against {runner_up_value:.1f} for {runner_up}, the best other TP."
    )
    if ev.get("decode_only_choice") != ev.get("choice"):
        text += (
            " Leaving the prefill out, as the tool's decode throughput does, would pick {decode_only_choice} "
            "({decode_only_value:.0f} decode tokens/s per GPU); that ranking holds only for generations long "
            "enough to make the prefill negligible."
        )
    choice, smallest, runner_up = (ev.get(k) or 0 for k in ("choice_tp", "smallest_tp", "runner_up_tp"))
    if choice == smallest and runner_up > choice:
        text += (
            " For this workload, independent replicas of TP {choice_tp} deliver more tokens per GPU than sharding "
            "the model wider."
        )
    elif choice > smallest:
        text += " For this workload, sharding over {choice_tp} GPUs beats replicas of TP {smallest_tp}."
    return text


def _jumps_shown(ev: dict) -> str:
    text = (
        "In {count} of {n} steps between consecutive batch sizes, prefill latency grows more than {threshold:g} "
        "times faster than the batch. The largest: TP {tp} prefill goes from {from_ms:.0f} ms at batch {from_bs} to {to_ms:.0f} ms "
        "at batch {to_bs}, {growth_per_batch:.2f} times faster growth than the batch."
    )
    if ev.get("last_before_failure"):
        text += (
            " It is the last batch size that ran before the failures, which points at memory pressure (allocator "
            "retries, fragmentation) rather than compute; the file does not record which."
        )
    return text


def _quant_shown(ev: dict) -> str:
    text = (
        "With quantization {quantize} at TP {tp}, decode at batch {batch_size} takes {a:.2f} ms per token against "
        "{b:.2f} ms in fp16: {ratio:.2f} times the fp16 latency ({min_ratio:.2f} to {max_ratio:.2f} times over "
        "the {n_batches} batch sizes with an fp16 twin)."
    )
    if (ev.get("ratio") or 0) > 1:
        text += (
            " Fewer bytes per weight should make a weight-streaming decode faster; slower means the quantized kernels,"
            " not the weight reads, set the pace."
        )
    if str(ev.get("quantize", "")).startswith("bitsandbytes"):
        text += (
            " bitsandbytes' LLM.int8() splits each matrix product into an int8 part and an fp16 outlier part and "
            "dequantizes on the fly."
        )
    return text


def _fraction_withheld(topic: str) -> str:
    return topic + ": not stated for this input, because {reason}."


#: id -> (topic, shown template or a function of the evidence returning one, withheld template or None)
TEMPLATES: dict[str, tuple] = {
    "decode_speedup": (
        "The decode speed-up",
        "At batch {batch_size}, decode gains at most {ratio:.2f}x over TP {ref_tp}, at TP {best_tp} "
        "({b:.2f} against {a:.2f} ms per token).",
        None,
    ),
    "prefill_speedup_rises": (
        "Whether prefill keeps gaining with GPUs",
        "Prefill at batch {batch_size} gets faster at every larger TP measured, {last_y:.2f}x at TP {last_x}.",
        "Prefill at batch {batch_size} does not get faster at every larger TP ({reason}): its "
        "speed-ups over TP {ref_tp} are {ys:.2f} at TP {xs}.",
    ),
    "prefill_efficiency_falls": (
        "Whether prefill efficiency falls with TP",
        "Prefill's parallel efficiency at batch {batch_size} falls at every larger TP, to {last_y:.2f} at TP "
        "{last_x}: each added GPU buys less.",
        "Prefill's parallel efficiency at batch {batch_size} does not fall at every larger TP "
        "({reason}): it is {ys:.2f} at TP {xs}.",
    ),
    "superlinear_efficiency": (
        "An efficiency above 1",
        "The highest decode efficiency, {efficiency:.2f} at batch {batch_size} and TP {tp}, does not mean the extra "
        "GPU did more than its share; it mostly reflects the baseline. TP {ref_tp}'s own decode step grows from "
        "{ref_ms_base:.1f} ms at batch {base_batch} to {ref_ms:.1f} ms at batch {batch_size} ({a:.2f}x; "
        "{ref_ms_max_batch:.0f} ms at batch {ref_max_batch}), while TP {tp}'s grows {b:.2f}x ({tp_ms_base:.1f} to "
        "{tp_ms:.1f} ms). Efficiency at batch {batch_size} is efficiency at batch {base_batch} ({base_efficiency:.2f}) "
        "times the ratio of these growths, {ratio:.2f}.",
        None,
    ),
    "decode_slower_past_best": (
        "Whether decode gets slower past some TP",
        "Past TP {best_tp}, decode gets slower: at batch {batch_size} it takes {b:.2f} ms per token at TP "
        "{best_tp} and {a:.2f} ms at TP {max_tp}.",
        None,
    ),
    "decode_bw_small_tp": (
        "The decode bandwidth on the smallest TP",
        lambda ev: (
            "At batch {batch_size} on TP {tp}, decode reads its weights"
            + (" and KV cache" if ev.get("kv_counted") else "")
            + " at {achieved:,.0f} GB/s, {fraction:.0%} of {device}'s {peak:,.0f} GB/s."
        ),
        None,
    ),
    "decode_bw_large_tp": (
        "The decode bandwidth on the largest TP",
        "On TP {tp}, each GPU reads its share at {achieved:,.0f} GB/s, {fraction:.0%} of the peak.",
        None,
    ),
    "prefill_compute_best": (
        "The best prefill compute",
        "The best prefill (TP {tp}, batch {batch_size}) reaches {achieved:.0f} TFLOP/s per GPU, {fraction:.0%} of "
        "{device}'s {peak:,.0f} dense fp16 TFLOP/s.",
        None,
    ),
    "highest_fraction": (
        "The highest point on the roofline",
        "No point exceeds a peak: the highest, {phase} at TP {tp} and batch {batch_size}, is at {fraction:.0%} of "
        "{device}'s peak {peak_kind}.",
        None,
    ),
    "decode_bound": ("What limits decode", _bound_shown, None),
    "prefill_bound": ("What limits prefill", _bound_shown, None),
    "percentile_inversions": (
        "Percentile inversions",
        "{count} of {n} latency rows have p90 < p50 and {p90_lt_mean} have p90 < mean, impossible for percentiles "
        "of a sorted sample; p90 equals p99 in {p90_eq_p99} of the {n}.",
        "No latency row has p90 < p50 in this input ({n} rows with percentiles), so the unsorted vector does not "
        "show here.",
    ),
    "p90_below_highest": (
        "p90 below Highest",
        "{count} of {n} latency rows have a p90 below their own Highest: in those rows p90 is the last run, not a "
        "percentile. {prefill_p90_eq_max} of the {prefill_rows} prefill rows have p90 = Highest, as a sorted "
        "vector would.",
        "No latency row has a p90 below its Highest in this input ({n} rows with percentiles).",
    ),
    "missing_batches": (
        "Batch sizes that never ran",
        "{count} (TP, batch size) pairs of {n} have no runs: {where}.",
        "Every batch size printed ran ({n} prefill rows).",
    ),
    "budget_refuted": (
        "The token-budget explanation",
        "A tempting explanation is that batch x (prompt + decode) tokens exceeded the launcher's "
        "max_batch_total_tokens of {budget:,}. The data refutes it in {count} of {n} rows: {examples}. Nor can it "
        "be the mechanism: text-generation-benchmark sends batches straight to the shards over gRPC and bypasses "
        "the router, which is where that limit applies.",
        None,
    ),
    "superlinear_jumps": (
        "Superlinear jumps",
        _jumps_shown,
        "No step between consecutive batch sizes grows prefill latency more than {threshold:g} times faster than "
        "the batch ({n} steps).",
    ),
    "decode_slower_steps": (
        "Decode slower with more GPUs",
        "In {count} of {n} steps to the next larger TP, decode latency rose by more than {tolerance:.0%} and "
        "beyond the noise: {cases}. In each, what the added GPUs cost (all-reduces, synchronisation) exceeded the "
        "weight reads they saved.",
        "In none of the {n} steps to the next larger TP did decode latency rise by more than {tolerance:.0%} and "
        "beyond the noise.",
    ),
    "quant_slowdown": ("The quantized run", _quant_shown, None),
    "quant_bandwidth": (
        "The quantized decode's bandwidth",
        "Counting {bytes_per_weight:g} byte(s) per weight, its decode reads weights at {achieved:.0f} GB/s per GPU, "
        "{fraction:.1%} of {device}'s bandwidth.",
        None,
    ),
    "rec_decode_latency": (
        "The lowest decode latency",
        "For the lowest latency per token (interactive use, batch {batch_size}): {choice}, at {value:.2f} ms per "
        "token, against {runner_up_value:.2f} ms for {runner_up}.",
        None,
    ),
    "rec_prefill_latency": (
        "The shortest prefill",
        "For the shortest prompt processing (time to first token, batch {batch_size}): {choice}, with a prefill of "
        "{value:.1f} ms, against {runner_up_value:.1f} ms for {runner_up}.",
        None,
    ),
    "rec_throughput": ("The most tokens per GPU", _throughput_shown, None),
}


def _implausible(claim: Claim) -> str | None:
    """The warning of an implausible claim: the physics check names the suspects; the others point
    to it, so the page says each cause once."""
    if claim.id == "highest_fraction":
        return (
            "**Warning: {topic} is not a result.** {fraction:.0%} of {device}'s peak ("
            + PEAK_SOURCE.get(claim.evidence.get("peak_source"), "of unknown origin")
            + ") is beyond physics; check {suspects}."
        )
    if claim.kind == "fraction_of_peak":
        return "**Warning: {topic} is not a result:** {fraction:.0%} of {device}'s peak is beyond physics (see below)."
    if claim.kind == "bound":
        return "**Warning: {topic} is not a result:** it rests on a fraction of a peak beyond physics (see above)."
    return None


def sentence(claim: Claim) -> Claim:
    """The claim with its sentence from TEMPLATES."""
    topic, shown, withheld = TEMPLATES[claim.id]
    ev = claim.evidence
    shown = shown(ev) if callable(shown) else shown
    implausible = _implausible(claim)
    # the alternatives describe a zero count, or a trend that goes the other way; other reasons keep the default
    if claim.kind == "anomaly" and (ev.get("count") or not ev.get("n")):
        withheld = None
    if claim.kind == "scaling" and len(ev.get("xs") or []) < (ev.get("min_points") or 3):
        withheld = None
    if claim.kind == "fraction_of_peak" and ev.get("peak_source") == "assumed" and ev.get("achieved") is not None:
        # the achieved figure needs no device; only its share of a peak does
        withheld = "{topic}: {achieved:,.0f} {unit} per GPU (TP {tp}, batch {batch_size}); its share of a peak is not "
        withheld += "stated, because {reason}."
    return say(claim, shown, topic=topic, withheld=withheld, implausible=implausible)


def say_all(claims) -> list[Claim]:
    """Every claim with its sentence."""
    return [sentence(c) for c in claims]


# ---------------------------------------------------------------------------------- descriptions
def device_sentence(device: dict) -> str:
    """Which GPU the roofline uses and where its peaks come from."""
    src = device["source"]
    text = (
        f"The roofline sections use {device['device']} ({device['bandwidth_gb_s']:,.0f} GB/s, "
        f"{device['tflops']:,.0f} dense fp16 TFLOP/s), {PEAK_SOURCE[src]}."
    )
    if src == "assumed":
        text += " Pass `-p gpu NAME` (or `peak_bandwidth_gb_s` and `peak_tflops`) for the GPU your run used."
    return text


def model_sentence(model_id: str, size: dict, kv: float, kv_src: str) -> str:
    """The model size and KV-cache size the roofline counts, and where they come from."""
    params_b, params_src = size["total_b"], size["source"]
    if params_b is None:
        return f"{params_src[:1].upper()}{params_src[1:]}, so the roofline sections are not drawn; pass params_b to draw them."
    kv_text = (
        f"{kv:,.0f} bytes of KV cache per token ({kv_src})"
        if kv > 0
        else f"no KV-cache bytes ({kv_src}), so the bandwidths count weights only and are lower bounds"
    )
    text = f"Model size: {params_b:.2f} billion parameters, from {params_src}; {kv_text}."
    if size.get("architecture") == "encoder-decoder":
        text += (
            " It is an encoder-decoder model: a decode step reads only the decoder's weights, so counting all of "
            "them overstates the decode bandwidths."
        )
    return text


def prefill_example_sentence(ex: dict | None) -> str:
    """The mislabelled prefill column, worked on the input's first row; empty without one."""
    if ex is None:
        return ""
    return (
        f'For example, at TP {ex["tp"]} and batch {ex["batch_size"]}, the tool prints a prefill "throughput" of '
        f"{ex['seq_s']:.2f} tokens/secs. The same run processed {ex['tok_s']:,.0f} prompt tokens per second "
        f"({ex['batch_size']} x {ex['sequence_length']} tokens over the prefill latency)."
    )


def coverage_sentence(missing: pd.DataFrame, w: pd.DataFrame) -> str:
    """Which batch sizes the recommendations cannot cover (nothing to say about an empty input)."""
    if w.empty:
        return ""
    if not len(missing):
        return "Every batch size ran at every TP of the main configuration."
    not_run = "; ".join(
        f"at TP {int(t)}, batch {', '.join(map(str, sorted(g['batch_size'])))}" for t, g in missing.groupby("tp")
    )
    return (
        f"These figures cover only the batch sizes that ran; these did not: {not_run}. The throughput ranking may "
        "change where they would have run."
    )


def fit_sentence(fits: list[dict], best: pd.DataFrame) -> str:
    """The decode fit at the smallest batch fitted, beside the measured minimum; a sentence saying
    why there is no fit otherwise."""
    dec = [x for x in fits if x["metric"] == "decode_token_latency"]
    if not dec:
        return "Fewer than four TPs in this input: the three-parameter scaling model is not fitted."
    item, f = dec[0], dec[0]["fit"]
    m = best[best["batch_size"] == item["batch_size"]].iloc[0]
    opt = f"{f.tp_optimum:.1f}" if math.isfinite(f.tp_optimum) else "beyond any TP (b = 0)"
    text = (
        f"For decode at batch {item['batch_size']}, the fit gives a = {f.a:.1f} ± {f.a_err:.1f} ms, "
        f"b = {f.b:.2f} ± {f.b_err:.2f} ms per extra GPU and c = {f.c:.1f} ± {f.c_err:.1f} ms. The fitted latency "
        f"is lowest at TP = square root of (a / b) = {opt}. "
    )
    if f.nearest_measured(item["points"]["tp"]) == int(m["best_tp"]):
        return text + f"The measured TP nearest to it, TP {int(m['best_tp'])}, is also the measured minimum."
    return text + (
        f"The measured minimum is at TP {int(m['best_tp'])} ({m['best_ms']:.2f} ms) instead: with {f.dof} degree(s) "
        "of freedom the fit cannot place its minimum between the TPs measured."
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


def one_tp_sentence(tps: list[int]) -> str:
    """Why section 1 has no figure."""
    if not tps:
        return "This input has no TP table to compare: speed-up needs at least two TPs, so this section withholds its claims."
    return f"Only one TP ({tps[0]}) in this input: speed-up needs at least two, so this section withholds its claims."


def runs_sentence(w_all: pd.DataFrame) -> str:
    """How TGI picks its percentile elements for the N Runs of this input."""
    runs = sorted({int(n) for n in w_all["n_runs"].dropna().unique()}) if "n_runs" in w_all else []
    if not runs:
        return "The input does not state N Runs."
    parts = [
        f"with N Runs = {n}, p50 is element {int(0.5 * n)}, p90 element {int(0.9 * n)} and p99 element {int(0.99 * n)}"
        for n in runs
    ]
    return "In this input, " + "; ".join(parts) + " (counting from 0)."


def takeaways(claims, ids) -> str:
    """Markdown bullets of the named claims that are shown, in the order given."""
    by_id = {c.id: c for c in claims}
    items = [by_id[i].text for i in ids if i in by_id and by_id[i].shown]
    if not items:
        return "- This input supports none of the chapter's scaling or deployment verdicts; see the sections above."
    return "\n".join(f"- {t}" for t in items)


#: Each figure's caption when it is drawn, and what it says when it is not.
CAPTIONS = {
    "speedup": (
        "Speed-up (top) and parallel efficiency (bottom) per phase and batch size, with bars spanning what the Lowest "
        "and Highest latencies allow. The dashed line is perfect scaling.",
        "Not drawn: speed-up needs at least two TPs at one batch size.",
    ),
    "fit": (
        "Mean latency against TP (points, bars from Lowest to Highest) and the fitted a / TP + b x (TP - 1) + c "
        "(lines), with ± one standard error on each parameter.",
        "Not drawn: the scaling model needs at least four TPs.",
    ),
    "roofline": (
        "Each measurement placed under the device's roofline (per GPU), with the device and the origin of its peaks "
        "in the title.",
        "Not drawn: the input lacks what the roofline needs (the model's size or the prompt length); the sentences "
        "below say which.",
    ),
    "quant": (
        "Decode latency per token, quantized against fp16, at the same TP and prompt length, with bars from Lowest "
        "to Highest.",
        "Not drawn: the input has no quantized run with an fp16 twin.",
    ),
    "throughput": (
        "Generated tokens per second per GPU against batch size, one line per TP: counting the prefill each request "
        "needs (left) and the tool's decode-only figure (right), with bars from Lowest to Highest.",
        "Not drawn: the input has no prefill and decode rows of one configuration to combine.",
    ),
}


def caption(name: str, drawn: bool) -> str:
    """The caption of figure `name`, or the sentence saying why it was not drawn."""
    return CAPTIONS[name][0 if drawn else 1]


def input_sentence(
    files: str, n_rows: int, model_id: str, tps: list[int], seq: list[int], n_dup: int, messages=()
) -> str:
    """What the input holds, from the data; with no usable number, why (the parser's first message)."""
    if not n_rows:
        text = f"The input {files} holds no number this chapter can use, so every section below withholds its verdicts."
        if messages:
            more = f" (and {len(messages) - 1} more)" if len(messages) > 1 else ""
            text += f" The parser says: {messages[0]}{more}."
        return text
    tp_text = f"at TP {join(tps)}" if tps else "with no TP stated"
    seq_text = f", prompt length {join(seq)} tokens in the main configuration" if seq else ""
    dup = f" {n_dup} rows that a later file repeated exactly were counted once." if n_dup else ""
    return f"The input is {files}: {n_rows} numbers for {model_id}, {tp_text}{seq_text}.{dup}"


# -------------------------------------------------------------------------------------- figures
def _errorbar(ax, x, y, low, high, **kw):
    y, low, high = (np.asarray(v, dtype=float) for v in (y, low, high))
    yerr = np.vstack([np.clip(y - low, 0, None), np.clip(high - y, 0, None)])
    return ax.errorbar(x, y, yerr=yerr, capsize=3, **kw)


def plot_speedup(sc: pd.DataFrame, tps: list[int]):
    """Speed-up (top) and parallel efficiency (bottom) against TP, prefill left and decode right,
    one line per batch size measured at two or more TPs, perfect scaling dashed; the bars span what
    Lowest and Highest allow (reference lowest / TP highest to reference highest / TP lowest)."""
    fig, axes = plt.subplots(2, 2, figsize=(10, 7), sharex=True)
    for col, (metric, title) in enumerate(PHASES):
        d = sc[sc["metric"] == metric]
        for i, (bs, gg) in enumerate(d.groupby("batch_size")):
            if gg["tp"].nunique() < 2:
                continue
            scale = gg["tp"] / gg["ref_tp"]
            _errorbar(
                axes[0, col],
                gg["tp"],
                gg["speedup"],
                gg["speedup_low"],
                gg["speedup_high"],
                fmt="o-",
                color=color(i),
                label=f"batch {bs}",
            )
            _errorbar(
                axes[1, col],
                gg["tp"],
                gg["efficiency"],
                gg["speedup_low"] / scale,
                gg["speedup_high"] / scale,
                fmt="o-",
                color=color(i),
                label=f"batch {bs}",
            )
        ref = int(d["ref_tp"].min()) if len(d) else min(tps)
        axes[0, col].plot(tps, [t / ref for t in tps], "k--", lw=1, label="ideal")
        axes[1, col].axhline(1.0, color="k", ls="--", lw=1)
        axes[0, col].set_title(title)
        axes[0, col].set_yscale("log", base=2)
        axes[1, col].set_xlabel("tensor-parallel GPUs (TP)")
        axes[1, col].set_xscale("log", base=2)
        axes[1, col].set_xticks(tps, [str(t) for t in tps])
    axes[0, 0].set_ylabel(f"speed-up vs TP {int(sc['ref_tp'].min())} (x)")
    axes[1, 0].set_ylabel("parallel efficiency (speed-up / GPUs)")
    axes[0, 1].legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


def plot_fits(fits: list[dict], tps: list[int]):
    """Mean latency against TP with Lowest-Highest bars (points) and each fitted curve (lines), per
    phase, with the parameters and their standard errors in the legend."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, (metric, title) in zip(axes, PHASES, strict=True):
        for i, item in enumerate(x for x in fits if x["metric"] == metric):
            f, pts = item["fit"], item["points"]
            grid = np.linspace(min(tps), max(tps), 100)
            _errorbar(ax, pts["tp"], pts["mean"], pts["min"], pts["max"], fmt="o", color=color(i))
            ax.plot(
                grid,
                f.predict(grid),
                "-",
                color=color(i),
                label=f"bs {item['batch_size']}: a={f.a:.0f}±{f.a_err:.0f}, b={f.b:.1f}±{f.b_err:.1f}, "
                f"c={f.c:.0f}±{f.c_err:.0f}",
            )
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(tps, [str(t) for t in tps])
        ax.set_xlabel("tensor-parallel GPUs (TP)")
        ax.set_ylabel("mean latency (ms)\nbars: Lowest to Highest")
        ax.set_title(title)
        # below the axes: the fitted curves span the whole panel, so no corner is free of data
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=1)
    fig.tight_layout()
    return fig


def plot_throughput(tput: pd.DataFrame):
    """Generated tokens/s per GPU against batch size, one line per TP: counting the prefill (left)
    and the tool's decode-only figure (right), with bars from Lowest and Highest."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharex=True)
    for ax, (col, title) in zip(
        axes, (("e2e_tok_s", "Counting the prefill"), ("decode_tok_s", "Decode only (tool's figure)")), strict=True
    ):
        for i, (t, g) in enumerate(tput.groupby("tp")):
            g = g.sort_values("batch_size")
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
    fig.tight_layout()
    return fig


def plot_tp_roofline(rp: pd.DataFrame, device: dict):
    """`roofline_points` under the device's per-GPU roofline, one colour per phase and TP."""
    g = hardware.custom(device["device"], device["bandwidth_gb_s"], device["tflops"])
    fig, ax = plt.subplots(figsize=(8, 5))
    pts = rp.assign(
        label=np.where(rp["metric"] == "prefill_latency", "prefill", "decode") + " TP " + rp["tp"].astype(str)
    )
    plot_roofline(ax, g, pts, hue_col="label", xlim=(0.1, 100_000))
    ax.set_title(f"Per-GPU roofline, {device['device']} ({device['source']})")
    return fig


def plot_quantization(qs: pd.DataFrame):
    """Decode latency per token against batch size, fp16 and its quantized twin, Lowest-Highest bars."""
    qs = qs.sort_values("batch_size")
    name = str(qs["quantize"].iloc[0])
    fig, ax = plt.subplots()
    _errorbar(
        ax, qs["batch_size"], qs["fp16_ms"], qs["fp16_low"], qs["fp16_high"], fmt="o-", color=color(0), label="fp16"
    )
    _errorbar(
        ax,
        qs["batch_size"],
        qs["quantized_ms"],
        qs["quantized_low"],
        qs["quantized_high"],
        fmt="o-",
        color=color(3),
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


def inversions_table(inv: pd.DataFrame) -> pd.DataFrame:
    """The latency rows whose p90 cannot be a percentile, with the numbers that show it (ms)."""
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
