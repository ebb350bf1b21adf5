"""batch_saturation: figures, display tables and descriptions of the data (its claims' sentences are
in notebooks/batch_saturation.claims.yml)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from benchbook.analysis.batch import NEW_TOKENS, PRECISION, SERIES, UNSTATED, with_named_gpu
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


def _label(frame: pd.DataFrame, g: pd.DataFrame) -> str:
    """The legend name of series `g` (rows of `frame`): its dtype, with the framework when `frame`
    has several, and the GPU when its model, framework and dtype are swept on several."""
    fw, dtype, gpu = g["framework"].iat[0], g["dtype"].iat[0], g["named_gpu"].iat[0]
    name = dtype if frame["framework"].nunique() <= 1 else f"{fw} {dtype}"
    name += f" ({g['variant'].iat[0]})" if g.get("variant", pd.Series([""])).iat[0] else ""
    return f"{name} on {gpu}" if gpu else name


def _series_columns(frame: pd.DataFrame) -> list[str]:
    """The columns that tell the series of a table apart: the GPU only when some series needs it."""
    shown = {"gpu": frame["named_gpu"].ne("").any(), "variant": frame.get("variant", pd.Series(dtype=str)).ne("").any()}
    return [c for c in SERIES if shown.get(c, True)]


# --- descriptions of the data --------------------------------------------------------------------


def inputs_sentence(files: str, sw: pd.DataFrame, runs: pd.DataFrame | None = None) -> str:
    """What the page reads, from the data only (`runs`: `analysis.batch.offline_runs`, whose runs with
    no batch setting are counted apart)."""
    alone = runs[runs["batch_size"].isna()] if runs is not None else pd.DataFrame(columns=["model"])
    models = ", ".join(sorted((set(sw["model"]) | set(alone["model"])) - {""})) or "a model the output does not name"
    gpus = ", ".join(sorted(set(sw["gpu"]) - {""}))
    fws = ", ".join(sorted(set(sw["framework"]) - {""}))
    dts = ", ".join(sorted(set(sw.loc[sw["has_result"], "dtype"])))
    if sw.loc[sw["has_result"]].get("dtype_assumed", pd.Series(dtype=bool)).fillna(False).astype(bool).any():
        dts += " (bf16 assumed for a vLLM run with no --dtype or --quantization: --dtype auto loads the checkpoint's)"
    bs = sw.loc[sw["has_result"], "batch_size"]
    span = f"batch {bs.min()} to {bs.max()}" if len(bs) else "no batch with a result"
    news = sorted(set(sw.get("new_tokens", pd.Series([float(NEW_TOKENS)] * len(sw))).dropna()))
    tokens = " or ".join(f"{t:g}" for t in news)
    return (
        f"Input: {files}: {models}"
        + (f" ({fws})" if fws else "")
        + (f" on {gpus}" if gpus else ", GPU not named")
        + (f"; dtypes with results: {dts}" if dts else "; no dtype with a result")
        + (
            f"; series also split by {vs}"
            if (vs := ", ".join(sorted(set(sw.get("variant", pd.Series(dtype=str)).fillna("")) - {""})))
            else ""
        )
        + f"; {span}"
        + (f"; {tokens} new tokens per sequence" if tokens else "")
        + (f"; {len(alone)} run(s) with no batch setting (see below)." if len(alone) else ".")
    )


def device_sentence(peaks, params: dict, sources: dict) -> str:
    """Which device and model size the roofline uses, and where each comes from."""
    if peaks is None:
        head = (
            "Neither the output nor the `gpu` parameter names a device, and none is assumed: the figures that "
            "need a device's peaks (shares of peak bandwidth and compute, the roofline) are withheld; those that "
            "need none (step times, bandwidth and compute achieved) are given (pass `gpu` for the rest)."
        )
    else:
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
    if not sizes:
        return head + " The output names no model, so its size is unknown (pass `params_b`)."
    return head + " Model size: " + "; ".join(sizes) + "."


def _on(r: pd.Series) -> str:
    """The words after a series' name that say its GPU ("on A100 80GB") when that tells it apart
    (`named_gpu`), else nothing."""
    return f" on {r['named_gpu']}" if r["named_gpu"] else ""


def gain_sentence(mg: pd.DataFrame) -> str:
    """How the gain per added sequence changes from the first to the last step of one series."""
    g = mg.dropna(subset=["gain_tok_s_per_seq"])
    if g.empty:
        return "With one batch size per series there is no gain per added sequence to show."
    first, last = g.iloc[0], g.iloc[-1]
    return (
        f"For {first['dtype']}{_on(first)}, each added sequence adds {first['gain_tok_s_per_seq']:,.1f} tok/s from batch "
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
        f"{row.get('new_tokens', NEW_TOKENS):.0f} tokens: {row['per_sequence_ms_per_token']:.1f} ms per token."
    )


def limits_sentence(limits: pd.DataFrame) -> str:
    """Where each series ran out, and which columns are blank."""
    parts = []
    for _, r in limits.iterrows():
        name = f"{r['framework']} {r['dtype']}".strip() + _on(r)
        if r["status"] == "limit":
            parts.append(f"{name} has a result up to batch {int(r['last_ok'])} and none from {int(r['first_missing'])}")
        elif r["status"] == "no limit":
            parts.append(f"{name} has a result at every batch size up to {int(r['last_ok'])}")
        else:
            parts.append(f"{name} has no result at all (kept as missing, not as zero)")
    return ("; ".join(parts) + ".") if parts else "No series in this input."


def limits_table(limits: pd.DataFrame) -> pd.DataFrame:
    """Per series, where memory ran out: the last batch size with a result and the first without."""
    words = {"limit": "ran out between the two", "no limit": "no limit reached in the sweep", "blank": "no results"}
    t = limits[_series_columns(limits) + ["last_ok", "first_missing", "status"]]
    return t.assign(status=t["status"].map(words)).rename(
        columns={"last_ok": "last batch size with a result", "first_missing": "first batch size without"}
    )


#: Why a cell of the limits table is empty (the status column says which case it is).
LIMITS_MISSING = {"last batch size with a result": "none", "first batch size without": "none"}


def knee_table(knees: pd.DataFrame) -> pd.DataFrame:
    """Per series: the first point, the peak and the saturation batch (`batch.knee`)."""
    return knees[
        _series_columns(knees)
        + [
            "first_batch_size",
            "first_tok_s",
            "peak_batch_size",
            "peak_tok_s",
            "knee_batch_size",
            "n_points",
            "strength",
        ]
    ].rename(
        columns={
            "first_batch_size": "first batch size",
            "first_tok_s": "throughput there (tok/s)",
            "peak_batch_size": "peak batch size",
            "peak_tok_s": "peak throughput (tok/s)",
            "knee_batch_size": "saturation batch size",
            "n_points": "batch sizes measured",
            "strength": "strength (slope before - after)",
        }
    )


#: Why a cell of the knee table is empty: the saturation batch is the first or last point.
KNEE_MISSING = {"strength (slope before - after)": "at an end of the sweep"}


def gain_table(mg: pd.DataFrame) -> pd.DataFrame:
    """Throughput and tokens/s gained per added sequence, per measured batch size."""
    var = ["variant"] if "variant" in _series_columns(mg) else []
    return mg[["dtype", *var, "framework", "batch_size", "throughput_tok_s", "gain_tok_s_per_seq"]].rename(
        columns={
            "batch_size": "batch size",
            "throughput_tok_s": "throughput (tok/s)",
            "gain_tok_s_per_seq": "gain per added sequence (tok/s)",
        }
    )


#: The first batch size of a series has no smaller one to gain over.
GAIN_MISSING = {"gain per added sequence (tok/s)": "first batch size"}


def step_table(rl: pd.DataFrame) -> pd.DataFrame:
    """Each measured batch as a decode step on the roofline (`batch.step_roofline`), fractions in %."""
    t = rl.assign(
        step_ms=1000 * rl["step_s"],
        bandwidth_pct=100 * rl["bandwidth_fraction"],
        compute_pct=100 * rl["compute_fraction"],
    )
    gpu = [c for c in ("variant", "gpu") if c in _series_columns(rl)]
    return t[
        ["dtype", "framework", *gpu, "batch_size", "step_ms", "achieved_gb_s", "bandwidth_pct", "achieved_tflops"]
        + ["compute_pct", "intensity"]
    ].rename(
        columns={
            "batch_size": "batch size",
            "step_ms": "step (ms)",
            "achieved_gb_s": "weights read (GB/s)",
            "bandwidth_pct": "of peak bandwidth (%)",
            "achieved_tflops": "compute (TFLOP/s)",
            "compute_pct": "of peak compute (%)",
            "intensity": "intensity (FLOP/byte)",
        }
    )


#: Why a cell of the step table is empty: the model's size or the device's peak is not known.
STEP_MISSING = {
    "weights read (GB/s)": "model size unknown",
    "compute (TFLOP/s)": "model size unknown",
    "of peak bandwidth (%)": "not known",
    "of peak compute (%)": "not known",
}


# --- figures -------------------------------------------------------------------------------------


def plot_throughput(sw: pd.DataFrame, knees: pd.DataFrame, knee_shown: bool):
    """Throughput vs batch size (log x), one line per series; the reference's knee (when its claim is
    shown) dotted, the first batch with no result as x."""
    fig, ax = plt.subplots(figsize=(9, 4.5))
    drawn = False
    sw = with_named_gpu(sw)
    for i, (key, g) in enumerate(sw.groupby(SERIES, sort=False)):
        ok = g[g["has_result"]].sort_values("batch_size")
        if ok.empty:
            continue
        drawn = True
        ax.plot(ok["batch_size"], ok["throughput_tok_s"], marker="o", ms=4, color=color(i), label=_label(sw, g))
        miss = g[~g["has_result"] & ~g["conflict"] & (g["batch_size"] > ok["batch_size"].max())]
        if len(miss):
            ax.scatter(miss["batch_size"].min(), ok["throughput_tok_s"].iloc[-1], marker="x", s=60, color=color(i))
        k = knees[(knees[SERIES] == pd.Series(key, index=SERIES)).all(axis=1)]
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
    sw = with_named_gpu(sw)
    for i, (_, g) in enumerate(sw.groupby(SERIES, sort=False)):
        ok = g[g["has_result"]].sort_values("batch_size")
        if ok.empty:
            continue
        drawn = True
        name = _label(sw, g)
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
    d = rl.dropna(subset=["achieved_tflops", "intensity", "peak_gb_s"])  # no peak: another GPU than the roof's
    if peaks is None:
        return message_figure("no roofline:\nno device named\n(pass gpu)")
    if d.empty or not peaks.total_bandwidth_gb_s:
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
    for i, (series, g) in enumerate(d.groupby(SERIES, sort=False)):
        g = g.sort_values("batch_size")
        ax.plot(g["intensity"], g["achieved_tflops"], "o-", ms=4, color=color(i), label=f"{_label(d, g)} steps")
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


#: Why a cell of the offline table is empty, per column.
OFFLINE_MISSING = {
    "output tok/s": "not printed",
    "prompt + output tok/s": "not printed",
    "TFLOP/s": "model size unknown",
    "of peak": "device not named, or no peak at this precision",
    "max batch": "not a setting of this tool",
    "requests": "not printed",
    "req/s": "not printed",
    "precision": "not stated",
}

#: Where each offline tool's precision comes from, as the page says it.
PRECISION_WORDS = {
    "trtllm-bench": "as the engine prints it",
    "mlperf-loadgen": "as the SUT or file name states it",
    "vllm-bench-offline": "assumed: vLLM's --dtype auto loads the checkpoint's bf16",
}

_OFFLINE_LABELS = {
    "mlperf-loadgen": "MLPerf Offline",
    "trtllm-bench": "trtllm-bench {}",
    "vllm-bench-offline": "vLLM bench {}",
}


def _offline_label(tool: str, benchmark: str) -> str:
    return _OFFLINE_LABELS[tool].format(benchmark)


def offline_table(pts: pd.DataFrame) -> pd.DataFrame:
    """The runs with no batch setting, one row each: throughput and compute against the peak."""
    return pd.DataFrame(
        {
            "run": pts["run"],
            "tool": [_offline_label(t, b) for t, b in zip(pts["tool"], pts["benchmark"], strict=True)],
            "requests": pts["requests"],
            "req/s": pts["request_rate"].round(2),
            "output tok/s": pts["output_tok_s"].round(1),
            "prompt + output tok/s": pts["total_tok_s"].round(1),
            "TFLOP/s": pts["achieved_tflops"].round(1),
            "precision": pts["precision"],
            "of peak": pts["compute_fraction"].round(3),
            "max batch": pts["max_batch_size"],
        }
    )


def offline_sentence(pts: pd.DataFrame, peaks) -> str:
    """What one point per run can say: its throughput, its compute against the device's peak when
    the model size and a named device are known, and why there is no saturation curve."""
    if pts.empty:
        return "Every run of this input sets a batch size; none stands alone."
    parts = []
    for _, r in pts.iterrows():
        what = f"{_offline_label(r['tool'], r['benchmark'])} run {r['run']!r}: "
        if r["benchmark"] == "latency":  # a vllm bench latency output that does not say its --batch-size
            parts.append(what + f"{r['latency_s']:.2f} s per batch, but the output does not say the batch size")
            continue
        load = [f"{r['requests']:,.0f} requests"] if np.isfinite(r["requests"]) else []
        load += [f"{r['request_rate']:,.2f} req/s"] if np.isfinite(r["request_rate"]) else []
        what += " at ".join(load) + (", " if load else "")
        if np.isfinite(r["output_tok_s"]):
            what += f"{r['output_tok_s']:,.0f} output tok/s"
        elif np.isfinite(r["total_tok_s"]):
            what += f"{r['total_tok_s']:,.0f} prompt + output tok/s (the output does not split them)"
        else:
            parts.append(what + "no throughput printed")
            continue
        if np.isfinite(r["max_batch_size"]):
            what += f" (the engine's max runtime batch size, a ceiling it batched under: {r['max_batch_size']:.0f})"
        prec = r["precision"] if isinstance(r["precision"], str) and r["precision"] != UNSTATED else None
        if prec:
            assumed = r.get("precision_assumed") is True
            words = (
                PRECISION_WORDS[r["tool"]]
                if r["tool"] != "vllm-bench-offline" or assumed
                else "as its command line states it"
            )
            what += f"; weights in {prec} ({words}"
            what += (
                f", {r['weight_bytes_per_param']:g} byte(s) per weight: {r['weight_gb']:,.1f} GB)"
                if np.isfinite(r["weight_gb"])
                else ")"
            )
        else:
            what += "; precision not stated (the output names none, and none is assumed)"
        if np.isfinite(r["compute_fraction"]) and r["compute_fraction"] > 1:
            what += (
                f", {r['achieved_tflops']:,.0f} TFLOP/s, {r['compute_fraction']:.0%} of one {peaks.device}'s dense "
                f"{prec} peak: beyond one device, so not a result (likely several GPUs, as MLPerf systems have, or "
                "the wrong model size)"
            )
        elif np.isfinite(r["compute_fraction"]):
            what += (
                f", {r['achieved_tflops']:,.0f} TFLOP/s counting {r['tokens_counted']}, "
                f"{r['compute_fraction']:.0%} of the {peaks.device}'s dense {prec} peak"
            )
        elif r["beyond_any_peak"]:
            what += (
                f", {r['achieved_tflops']:,.0f} TFLOP/s, beyond one {peaks.device}'s highest dense peak at any "
                f"precision ({r['highest_peak_tflops']:,.0f} TFLOP/s): not a result (likely several GPUs, as MLPerf "
                "systems have, or the wrong model size)"
            )
        elif not np.isfinite(r["achieved_tflops"]):
            what += ", with no compute given: the output names no model the model table knows (pass params_b)"
        elif peaks is not None and peaks.source != "assumed" and not prec:
            what += (
                f", {r['achieved_tflops']:,.0f} TFLOP/s counting {r['tokens_counted']} (no fraction of a peak: "
                "without the precision there is no peak to set it against)"
            )
        elif peaks is not None and peaks.source != "assumed":
            what += (
                f", {r['achieved_tflops']:,.0f} TFLOP/s counting {r['tokens_counted']} (no fraction of a peak: "
                f"the hardware table has no dense {prec} figure for the {peaks.device})"
            )
        else:
            what += f", {r['achieved_tflops']:,.0f} TFLOP/s counting {r['tokens_counted']} (no fraction of a peak: " + (
                "the device is only assumed; pass gpu)" if peaks is not None else "no device is named; pass gpu)"
            )
        parts.append(what)
    why = (
        "Such a run sets no batch size (the engine batches as requests arrive), so it is one point, not a "
        "saturation curve: no knee is stated from it."
        if (pts["benchmark"] != "latency").any()
        else "Without its batch size it is no point of a batch curve: no knee is stated from it."
    )
    return "; ".join(parts) + ". " + why


def audit_sentence(n: int, ok: int, bigcode: bool) -> str:
    """What the bigcode tables' "oom" means and how many derived numbers were recomputed; the offline
    tools print neither."""
    if not bigcode:
        return (
            "The offline outputs (vLLM, MLPerf, TensorRT-LLM) print no per-batch table: no 'oom' padding to read and no "
            "derived column to recompute."
        )
    return (
        'In this tool "oom" is padding written by the table script for a batch size with no result line, not a '
        "detected error; the run died there, most likely out of memory. Of the "
        f"{n} derived numbers recomputed from the first input (msec/token from tokens/sec, and tokens/sec from "
        f"batch x {NEW_TOKENS} / sec), {ok} agree at the printed precision."
    )
