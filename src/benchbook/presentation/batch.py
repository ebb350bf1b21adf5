"""batch_saturation: figures, display tables and descriptions of the data (its claims' sentences are
in notebooks/batch_saturation.claims.yml)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter

from benchbook.analysis import precision, roofline
from benchbook.analysis.batch import (
    BATCH_LATENCY,
    NEW_TOKENS,
    PRECISION,
    SERIES,
    SPLIT_UNSTATED,
    UNSTATED,
    apart,
    with_named_gpu,
)
from benchbook.analysis.batch import step_time as batch_step_time
from benchbook.analysis.batched_bench import GENERATION
from benchbook.analysis.one_batch import MEAN_STEP, STEP
from benchbook.claims import rules
from benchbook.ingest import hf_batch
from benchbook.presentation import wording
from benchbook.presentation.plotting import color, message_figure, tight

#: The chapter whose wording file (notebooks/batch_saturation.claims.yml) holds this module's sentences.
CHAPTER = "batch_saturation"


def _say(name: str, **values) -> str:
    """One of the chapter's descriptive sentences (notebooks/batch_saturation.claims.yml, `sentences:`)."""
    return wording.sentence(CHAPTER, name, **values)


def _finite(**values) -> dict:
    """`values` without those the input lacks (None, NaN), so a sentence's `is defined` tells them apart."""
    return {k: v for k, v in values.items() if not (v is None or (isinstance(v, float) and not np.isfinite(v)))}


def _empty_cells(table: str) -> dict:
    """What an empty cell of one of the chapter's tables means, per column (its wording file's
    `words.empty_cells`)."""
    return dict(wording.words(CHAPTER)["empty_cells"][table])


def _label(frame: pd.DataFrame, g: pd.DataFrame) -> str:
    """The legend name of series `g` (rows of `frame`): its dtype, with the framework when `frame`
    has several, and the GPU when its model, framework and dtype are swept on several."""
    fw, dtype, gpu = g["framework"].iat[0], g["dtype"].iat[0], g["named_gpu"].iat[0]
    name = dtype if frame["framework"].nunique() <= 1 else f"{fw} {dtype}"
    name += f" ({g['variant'].iat[0]})" if g.get("variant", pd.Series([""])).iat[0] else ""
    return f"{name} on {gpu}" if gpu else name


#: A precision's colour in every figure of the chapter (bf16 blue, as in the floor's measured points).
DTYPE_COLOUR = {"bf16": 0, "bfloat16": 0, "fp16": 5, "float16": 5, "fp32": 4, "float32": 4, "int8": 1, "int4": 3}
MARKERS = ("o", "s", "^", "D")


def _look(frame: pd.DataFrame, g: pd.DataFrame) -> dict:
    """Series `g`'s colour, its precision's (`DTYPE_COLOUR`; another dtype grey), and its marker: a
    circle, or another shape for each further series of the same precision in `frame`."""
    dtype = str(g["dtype"].iat[0])
    same = frame[frame["dtype"].astype(str) == dtype]
    labels = sorted({_label(frame, s) for _, s in same.groupby(SERIES, sort=False)})
    k = labels.index(_label(frame, g)) if _label(frame, g) in labels else 0
    c = color(DTYPE_COLOUR[dtype.lower()]) if dtype.lower() in DTYPE_COLOUR else "grey"
    return {"color": c, "marker": MARKERS[k % len(MARKERS)]}


def _series_columns(frame: pd.DataFrame) -> list[str]:
    """The columns that tell the series of a table apart: the GPU only when some series needs it."""
    shown = {
        "gpu": frame.get("named_gpu", pd.Series(dtype=str)).ne("").any(),
        "variant": frame.get("variant", pd.Series(dtype=str)).ne("").any(),
    }
    return [c for c in SERIES if shown.get(c, True)]


# --- descriptions of the data --------------------------------------------------------------------


def _named(named) -> dict:
    """What the input says of its device (`analysis.roofline.Named`) as the wording's values: the table
    device it names, else the device it names that the table lacks and its line, else the line that
    speaks of one unread."""
    if named is None:
        return {}
    said = roofline.said(named)
    return {
        "named_device": named.device,
        "family": said.get("device_family"),
        "family_line": said.get("device_family_line"),
        "family_rows": said.get("device_family_rows"),
        "unlisted": said.get("device_unlisted"),
        "unlisted_line": said.get("device_unlisted_line"),
        "sign_line": said.get("device_sign_line"),
        "arch": said.get("device_arch"),
        "arch_line": said.get("device_arch_line"),
        "arch_sm": said.get("device_arch_sm"),
        "arch_cap": said.get("device_arch_cap"),
        "arch_cap_line": said.get("device_arch_cap_line"),
        "sign_words": said.get("device_sign_words"),
    }


def inputs_sentence(files: str, sw: pd.DataFrame, runs: pd.DataFrame | None = None, named=None, untied=None) -> str:
    """What the page reads, from the data only (`runs`: `analysis.batch.offline_runs`, whose runs with
    no batch setting are counted apart; `named`: what the input says of its device, `roofline.named`;
    `untied`: the models it names but ties to no run, `analysis.serving.untied_models`)."""
    alone = runs[apart(runs)] if runs is not None else pd.DataFrame(columns=["model", "precision"])
    # a run of its own with a measured rate or latency (vLLM's bench latency) has a result too: its
    # stated precision is a dtype with one; a precision this page assumed is no dtype the input states
    done = alone[alone[[c for c in ("output_tok_s", "total_tok_s", "latency_s") if c in alone]].notna().any(axis=1)]
    done = done[~done.get("precision_assumed", pd.Series(False, index=done.index)).fillna(False).astype(bool)]
    bs = sw.loc[sw["has_result"], "batch_size"]
    step = _timed_steps(sw)
    news = sorted(set(sw.get("new_tokens", pd.Series([float(NEW_TOKENS)] * len(sw)))[~step].dropna()))
    ok = sw.loc[sw["has_result"]]
    return _say(
        "inputs",
        files=files,
        models=sorted((set(sw["model"]) | set(runs["model"] if runs is not None else [])) - {""}),
        untied=[list(u) for u in untied or []],
        frameworks=sorted(set(sw["framework"]) - {""}),
        gpus=sorted(set(sw["gpu"]) - {""}) or ([named.device] if named is not None and named.device else []),
        **_named(named),
        dtypes=sorted((set(ok["dtype"]) - {""}) | {x for x in done["precision"] if isinstance(x, str) and x}),
        dtype_assumed=bool(ok.get("dtype_assumed", pd.Series(dtype=bool)).fillna(False).astype(bool).any()),
        variants=sorted(set(sw.get("variant", pd.Series(dtype=str)).fillna("")) - {""}),
        **({"batch_min": bs.min(), "batch_max": bs.max()} if len(bs) else {}),
        new_tokens=news,
        spans=sorted({int(n) for n in ok.get("devices", pd.Series(dtype=float)).dropna() if n > 1}),
        steps=bool((step & sw["has_result"] & sw.get("timed", step).eq(STEP)).any()),
        mean_steps=bool((step & sw["has_result"] & sw.get("timed", step).eq(MEAN_STEP)).any()),
        generations=bool((_generations(sw) & sw["has_result"]).any()),
        n_alone=len(alone),
    )


def _timed_steps(sw: pd.DataFrame) -> pd.Series:
    """The rows whose time is one decode step the tool timed (`analysis.one_batch`: a step timed alone, or
    bench_one_batch_server's mean step), not a generate() call divided by its new tokens."""
    return sw.get("timed", pd.Series(None, index=sw.index, dtype=object)).isin((STEP, MEAN_STEP))


def _generations(sw: pd.DataFrame) -> pd.Series:
    """The rows whose time is llama-batched-bench's generation phase (`analysis.batched_bench`)."""
    return sw.get("timed", pd.Series(None, index=sw.index, dtype=object)).eq(GENERATION)


def device_sentence(
    peaks,
    params: dict,
    sources: dict,
    totals: dict | None = None,
    named=None,
    split: dict | None = None,
    untied=None,
) -> str:
    """Which device and model size the roofline uses, and where each comes from; for a mixture of
    experts (`totals`: its total parameters) the total and the active count the roofline uses
    (`named`: what the input says of a device none was taken from; `split`: runs over several GPUs
    split in a way not stated, `analysis.batch.split_unstated`; `untied`: the models it names but
    ties to no run, `analysis.serving.untied_models`, so that an unsized model is not said unnamed)."""
    totals = totals or {}
    untied = [list(u) for u in untied or []]
    # a model the output does not name is said once ("names no model") unless a parameter sizes it
    sizes = [
        {"model": m, "params_b": b, "source": sources.get(m), "total_b": totals.get(m)}
        for m, b in params.items()
        if m or b
    ]
    if split and "device_split" in split:
        said = {k: v for k, v in split.items() if k != "device_split"}
        said["split_said"] = rules.no_device_reason(split)  # the reason's words (benchbook/claims/reasons.yml)
        return _say("device", known=False, sizes=sizes, split=list(split["device_split"]), untied=untied, **said)
    said = split or {}  # a split the file states, said beside the device
    if peaks is None:
        # why none is used, in the reason's own words (benchbook/claims/reasons.yml), so the case is worded once
        reason = rules.no_device_reason(roofline.said(named) if named is not None else {})
        return _say("device", known=False, sizes=sizes, untied=untied, reason=reason, **_named(named), **said)
    return _say(
        "device",
        known=True,
        device=peaks.device,
        source=peaks.source,
        bandwidth_gb_s=peaks.total_bandwidth_gb_s,
        tflops=dict(peaks.tflops),
        sizes=sizes,
        untied=untied,
        variants=[list(v) for v in getattr(peaks, "variants", ())],
        **said,
    )


def gain_sentence(mg: pd.DataFrame) -> str:
    """How the gain per added sequence changes from the first to the last step of one series."""
    g = mg.dropna(subset=["gain_tok_s_per_seq"])
    if g.empty:
        return _say("gain", steps=False)
    first, last = g.iloc[0], g.iloc[-1]
    return _say(
        "gain",
        steps=True,
        dtype=first["dtype"],
        variant=first.get("variant", ""),
        gpu=first["named_gpu"],
        first_gain=first["gain_tok_s_per_seq"],
        first_from=int(first["prev_batch_size"]),
        first_to=int(first["batch_size"]),
        last_gain=last["gain_tok_s_per_seq"],
        last_from=int(last["prev_batch_size"]),
        last_to=int(last["batch_size"]),
    )


def ms_sentence(row: pd.Series | None) -> str:
    """The tool's msec/token against the per-sequence time per token, at one batch size."""
    if row is None:
        return _say("ms_per_token", measured=False)
    return _say(
        "ms_per_token",
        measured=True,
        batch_size=int(row["batch_size"]),
        step=row.get("timed") in (STEP, MEAN_STEP),
        mean=row.get("timed") == MEAN_STEP,
        batch_latency=row.get("timed") == BATCH_LATENCY,
        framework=row.get("framework"),
        generation=row.get("timed") == GENERATION,
        per_token_table=row.get("format") == hf_batch.PER_TOKEN_TABLE,
        batch_ms=1000.0 / row["throughput_tok_s"],
        throughput=row["throughput_tok_s"],
        **_finite(
            tool_ms=row["tool_ms_per_token"],
            latency_s=row["latency_s"],
            new_tokens=row.get("new_tokens", NEW_TOKENS),
            per_sequence_ms=row["per_sequence_ms_per_token"],
        ),
    )


def prefill_sentence(sw: pd.DataFrame, key) -> str:
    """The prefill and the whole run SGLang bench_one_batch times beside each decode step (llama-batched-bench:
    its prompt phase and whole row beside its generation phase), at the smallest and the largest batch of
    the reference series (empty for an input without them)."""
    from benchbook.analysis.batch import rows_of

    g = rows_of(sw, key)
    timed = g.get("timed", pd.Series(None, index=g.index, dtype=object))
    g = g[(_timed_steps(g) & timed.eq(STEP)) | _generations(g)] if len(g) else g
    # (a step timed alone, or llama-batched-bench's phases: bench_one_batch_server's report prints no prefill time)
    if g.empty or "prefill_s" not in g:
        return ""
    ends = [g.iloc[0]] + ([g.iloc[-1]] if g["batch_size"].iat[-1] != g["batch_size"].iat[0] else [])
    points = [
        _finite(
            batch_size=int(r["batch_size"]),
            prefill_ms=r["prefill_s"] * 1e3,
            prefill_tok_s=r["prefill_tok_s"],
            total_ms=r["total_s"] * 1e3,
            total_tok_s=r["total_tok_s"],
            input_len=r.get("input_len"),
            output_len=r.get("output_len"),
        )
        for r in ends
    ]
    return _say("prefill", generations=bool(_generations(g).iat[0]), variant=g["variant"].iat[0], points=points)


def limits_sentence(limits: pd.DataFrame, cut: bool = False) -> str:
    """Where each series ran out, and which columns are blank; `cut`: the copy ends inside the tool's
    output, so a series with no missing batch has a result at every batch the copy holds, not every one it ran."""
    series = [
        {
            "framework": r["framework"],
            "dtype": r["dtype"],
            "variant": r.get("variant", ""),
            "gpu": r["named_gpu"],
            "status": r["status"],
            **(
                {"last_ok": int(r["last_ok"]), "sizes": int(r["sizes"])} if r["status"] in ("limit", "no limit") else {}
            ),
            **({"first_missing": int(r["first_missing"])} if r["status"] == "limit" else {}),
        }
        for _, r in limits.iterrows()
    ]
    return _say("limits", series=series, cut=cut)


def limits_table(limits: pd.DataFrame) -> pd.DataFrame:
    """Per series, where memory ran out: the last batch size with a result and the first without."""
    words = wording.words(CHAPTER)["limit_status"]
    t = limits[_series_columns(limits) + ["last_ok", "first_missing", "status"]]
    return t.assign(status=t["status"].map(words)).rename(
        columns={"last_ok": "last batch size with a result", "first_missing": "first batch size without"}
    )


#: Why a cell of the limits table is empty (the status column says which case it is).
LIMITS_MISSING = _empty_cells("limits")


def knee_table(knees: pd.DataFrame) -> pd.DataFrame:
    """Per series: the first point, the peak and the saturation batch (`batch.knee`); a setting every
    series shares (the page's one model or framework, said above it) is left out, the dtype kept."""
    varied = [c for c in _series_columns(knees) if c == "dtype" or knees[c].nunique(dropna=False) > 1]
    ev = [
        {"knee_share": k, "before_share": b, "fraction": f, "knee_noise": n}
        for k, b, f, n in zip(
            knees["knee_share"], knees["before_share"], knees["fraction"], knees["noise"], strict=True
        )
    ]
    knees = knees.assign(
        knee_pct=100 * knees["knee_share"],
        before_pct=100 * knees["before_share"],
        noise_pct=100 * knees["noise"],
        fragile=["yes" if rules.knee_margin(e).get("fragile") else "no" for e in ev],
    )
    return knees[
        varied
        + [
            "peak_batch_size",
            "peak_tok_s",
            "knee_batch_size",
            "knee_pct",
            "before_pct",
            "noise_pct",
            "fragile",
            "strength",
        ]
    ].rename(
        columns={
            "knee_pct": "% of peak",
            "before_pct": "one smaller, % of peak",
            "noise_pct": "noise %",
            "fragile": "in the noise",
            "peak_batch_size": "peak batch",
            "peak_tok_s": "peak tok/s",
            "knee_batch_size": "saturates at",
            "strength": "strength",
        }
    )


#: Why a cell of the knee table is empty: the saturation batch is the first or last point.
KNEE_MISSING = _empty_cells("knee")


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
GAIN_MISSING = _empty_cells("gain")


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
STEP_MISSING = _empty_cells("step")
#: Why a step's weights-read cell is empty where its compute is known (so is the model's size): the bytes
#: per weight, which its precision gives, are not.
STEP_NO_BYTES = _empty_cells("step_no_bytes")
#: Why a step's time (and so its bandwidth) is empty: the output gives no latency.
STEP_NO_TIME = _empty_cells("step_no_time")
#: Why a step's shares of a peak are empty: it spans several GPUs split in a way not stated.
STEP_SPLIT = _empty_cells("step_split")


def step_missing(rl: pd.DataFrame, said: dict | None = None) -> pd.DataFrame:
    """Why each empty cell of `step_table` is empty, per cell: a step whose compute is known has a
    model size, so an empty weights-read cell there lacks the bytes per weight, not the size (its dtype
    of no known width, or what the input says of a precision: `said`, `serving.fact_said`, the absence
    rule), unless the step has no time (no latency printed); a step over GPUs split in a way not stated
    has no peak."""
    table = step_table(rl)
    reasons = pd.DataFrame({c: [STEP_MISSING.get(c, np.nan)] * len(table) for c in table.columns}, dtype=object)
    sized = rl["achieved_tflops"].notna().to_numpy()
    said = said or {"precision_status": "absent"}
    for col, template in STEP_NO_BYTES.items():
        dtypes = [d if isinstance(d, str) and d != UNSTATED else "" for d in rl["dtype"]]
        texts = [wording.render(template, {**said, "dtype": d}) for d in dtypes]
        reasons.loc[sized, col] = pd.Series(texts, dtype=object)[sized].to_numpy()
    untimed = rl["step_s"].isna().to_numpy()
    for col, text in STEP_NO_TIME.items():
        reasons.loc[untimed, col] = text
    split = rl.get("split", pd.Series("", index=rl.index)).eq(SPLIT_UNSTATED).to_numpy()
    for col, text in STEP_SPLIT.items():
        reasons.loc[split, col] = text
    return reasons


# --- figures -------------------------------------------------------------------------------------


def plot_throughput(sw: pd.DataFrame, knees: pd.DataFrame, knee_shown: bool):
    """Throughput vs batch size (log x), one line per series; the reference's knee (when its claim is
    shown) dotted, the first batch with no result as x."""
    fig, ax = plt.subplots(figsize=(9, 4.5))
    drawn = False
    sw = with_named_gpu(sw)
    for key, g in sw.groupby(SERIES, sort=False):
        ok = g[g["has_result"]].sort_values("batch_size")
        if ok.empty:
            continue
        drawn = True
        look = _look(sw, g)
        ax.plot(ok["batch_size"], ok["throughput_tok_s"], ms=4, label=_label(sw, g), **look)
        miss = g[~g["has_result"] & ~g["conflict"] & (g["batch_size"] > ok["batch_size"].max())]
        if len(miss):
            ax.scatter(miss["batch_size"].min(), ok["throughput_tok_s"].iloc[-1], marker="x", s=60, color=look["color"])
        k = knees[(knees[SERIES] == pd.Series(key, index=SERIES)).all(axis=1)]
        if knee_shown and len(k) and k.index[0] == knees["peak_tok_s"].idxmax():
            ax.axvline(k["knee_batch_size"].iat[0], color=look["color"], ls=":", lw=1)
    if not drawn:
        plt.close(fig)
        return message_figure(wording.words(CHAPTER)["figure"]["no_result"])
    ax.set_xscale("log", base=2)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("batch size (sequences per generate call, log scale)")
    ax.set_ylabel("throughput (tok/s, whole batch)")
    ax.legend(
        title="x: first batch with no result", title_fontsize=8, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0)
    )
    tight(fig)
    return fig


def plot_ms_per_token(sw: pd.DataFrame):
    """The tool's msec/token (1000 / aggregate rate) vs the per-sequence time per token."""
    fig, ax = plt.subplots(figsize=(9, 4.5))
    drawn = False
    sw = with_named_gpu(sw)
    for _, g in sw.groupby(SERIES, sort=False):
        ok = g[g["has_result"]].sort_values("batch_size")
        if ok.empty:
            continue
        drawn = True
        name, look = _label(sw, g), _look(sw, g)
        ax.plot(ok["batch_size"], ok["per_sequence_ms_per_token"], ms=4, label=f"{name}: per sequence", **look)
        ax.plot(
            ok["batch_size"], ok["tool_ms_per_token"], ls="--", color=look["color"], label=f"{name}: tool's msec/token"
        )
    if not drawn:
        plt.close(fig)
        return message_figure(wording.words(CHAPTER)["figure"]["no_result_ms"])
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("batch size (log scale)")
    ax.set_ylabel("milliseconds per token (log scale)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    tight(fig)
    return fig


def plot_roofline(rl: pd.DataFrame, peaks, key=None):
    """Each measured step on the device's roofline: intensity (weights only) against achieved
    TFLOP/s, one roof per distinct peak of the precisions the dtypes use, points joined in batch order; the first and
    last batch of series `key` labelled."""
    # no peak on a row: another GPU than the roof's; no device at all: the steps alone, under no roof
    d = rl.dropna(subset=["achieved_tflops", "intensity"] + (["peak_gb_s"] if peaks is not None else []))
    if d.empty or (peaks is not None and not peaks.total_bandwidth_gb_s):
        return message_figure(wording.words(CHAPTER)["figure"]["no_roofline"])
    fig, ax = plt.subplots(figsize=(9, 4.5))
    lo = min(0.1, d["intensity"].min() / 2)
    hi = max(d["intensity"].max() * 4, 1000)
    x = np.logspace(np.log10(lo), np.log10(hi), 200)
    ymin = 10 ** np.floor(np.log10(d["achieved_tflops"].min()))
    roofs = {}
    for dtype in d["dtype"].unique() if peaks is not None else []:
        prec = PRECISION.get(dtype, dtype)
        peak = peaks.peak_tflops(prec)
        if peak:
            roofs.setdefault(peak, []).append(prec)
    if peaks is None:  # only the line true of every device: left of it, no step is compute-bound
        ridge, which = roofline.lowest_ridge()
        ax.axvline(ridge, color="grey", ls=":", lw=1, label=_say("lowest_ridge", ridge=ridge))
    bw = peaks.total_bandwidth_gb_s if peaks is not None else 0.0
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
    for series, g in d.groupby(SERIES, sort=False):
        g = g.sort_values("batch_size")
        ax.plot(g["intensity"], g["achieved_tflops"], "-", ms=4, label=f"{_label(d, g)} steps", **_look(d, g))
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
    title = f"{peaks.device} ({peaks.source})" if peaks is not None else None
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0), title=title)
    tight(fig)
    return fig


#: Why a cell of the offline table is empty, per column.
OFFLINE_MISSING = _empty_cells("offline")
#: Why an offline run's compute cell is empty when its size is known: the run printed no throughput.
OFFLINE_NO_RATE = _empty_cells("offline_no_rate")

_OFFLINE_LABELS = {
    "mlperf-loadgen": "MLPerf Offline",
    "sglang-bench-offline": "SGLang bench_offline_throughput",
    "trtllm-bench": "trtllm-bench {}",
    "trtllm-static-batch": "TensorRT-LLM static batch",
    "vllm-bench-offline": "vLLM bench {}",
}


def _offline_label(tool: str, benchmark: str) -> str:
    return _OFFLINE_LABELS[tool].format(benchmark)


def offline_table(pts: pd.DataFrame) -> pd.DataFrame:
    """The runs with no batch setting, one row each: throughput and compute against the peak. The
    numbers are kept whole: the page's table shows each to its significant digits, and a value
    rounded here first would show digits the output does not print (0.1341 req/s as 0.130)."""
    return pd.DataFrame(
        {
            "run": pts["run"],
            "tool": [_offline_label(t, b) for t, b in zip(pts["tool"], pts["benchmark"], strict=True)],
            "requests": pts["requests"],
            "req/s": pts["request_rate"],
            "output tok/s": pts["output_tok_s"],
            "prompt + output tok/s": pts["total_tok_s"],
            "TFLOP/s": pts["achieved_tflops"],
            "precision": pts["precision"],
            "of peak": pts["compute_fraction"],
            "max batch": pts["max_batch_size"],
        }
    )


def offline_missing(pts: pd.DataFrame) -> pd.DataFrame:
    """Why each empty cell of `offline_table` is empty, per cell: a run that printed no throughput has
    no compute whatever its model's size, so its cells say that, not "model size unknown"."""
    table = offline_table(pts)
    reasons = pd.DataFrame({c: [OFFLINE_MISSING.get(c, np.nan)] * len(table) for c in table.columns}, dtype=object)
    no_rate = (pts["output_tok_s"].isna() & pts["total_tok_s"].isna()).to_numpy()
    for col, text in OFFLINE_NO_RATE.items():
        reasons.loc[no_rate, col] = text
    return reasons


def _compute_case(r: pd.Series, peaks, prec: str | None) -> str:
    """What an offline run's compute can be said against (the case the sentence words)."""
    if np.isfinite(r["compute_fraction"]):
        return "beyond_device" if r["compute_fraction"] > 1 else "fraction"
    if r["beyond_any_peak"]:
        return "beyond_any"
    if not np.isfinite(r["achieved_tflops"]):
        return "no_model"
    if peaks is None:
        return "no_device"
    if prec and not precision.peak_precision(prec):
        return "no_compute_precision"
    return "no_peak" if prec else "no_precision"


def _precision_source(r: pd.Series) -> str:
    """Where an offline run's precision comes from (a key of the wording file's `words.precision_source`):
    the model's name or the model table (`analysis.precision`), else its tool's, but a vLLM run's
    --quantization or --dtype is read from its command line (`command line`) and only a run where
    nothing says is assumed bf16."""
    if r.get("precision_source") in ("name", "checkpoint", "file"):
        return r["precision_source"]
    if r["tool"] == "vllm-bench-offline" and r.get("precision_assumed") is not True:
        return "command line"
    return r["tool"]


def offline_sentence(
    pts: pd.DataFrame,
    peaks,
    elsewhere: list[str] | tuple[str, ...] = (),
    precision_said: dict | None = None,
    batch_said: dict | None = None,
) -> str:
    """What one point per run can say: its throughput, its compute against the device's peak when
    the model size and a named device are known, and why there is no saturation curve; `elsewhere`
    names the input's paced MLPerf scenarios (`analysis.batch.paced_scenarios`), which are no point here;
    `precision_said`, per file name, what the file says of a precision (`analysis.serving.fact_said`, the
    absence rule) for a run whose precision is not known; `batch_said`, per file name, what it says of a
    batch size (the same rule), for a latency run whose batch size no line ties to it."""
    runs = []
    for _, r in pts.iterrows():
        prec = r["precision"] if isinstance(r["precision"], str) and r["precision"] != UNSTATED else None
        runs.append(
            _finite(
                label=_offline_label(r["tool"], r["benchmark"]),
                run=r["run"],
                tool=r["tool"],
                latency=r["benchmark"] == "latency",  # a vllm bench latency output that does not say its --batch-size
                latency_s=r["latency_s"],
                batch_size=r["batch_size"],
                batch_said=(batch_said or {}).get(r.get("source"), {"batch_status": "absent"}),
                requests=r["requests"],
                request_rate=r["request_rate"],
                output_tok_s=r["output_tok_s"],
                total_tok_s=r["total_tok_s"],
                input_tok_s=r.get("input_tok_s"),
                max_batch_size=r["max_batch_size"],
                precision=prec,
                said=(precision_said or {}).get(r.get("source"), {}) if prec is None else None,
                precision_source=_precision_source(r),
                weight_bytes_per_param=r["weight_bytes_per_param"],
                weight_gb=r["weight_gb"],
                compute=_compute_case(r, peaks, prec),
                achieved_tflops=r["achieved_tflops"],
                devices=r.get("devices"),
                devices_line=r.get("devices_line") if pd.notna(r.get("devices_line", np.nan)) else None,
                achieved_tflops_per_device=r.get("achieved_tflops_per_device"),
                compute_fraction=r["compute_fraction"],
                tokens_counted=r["tokens_counted"],
                highest_peak_tflops=r["highest_peak_tflops"],
                device=peaks.device if peaks is not None else None,
            )
        )
    return _say("offline", runs=runs, batched=bool((pts["benchmark"] != "latency").any()), elsewhere=list(elsewhere))


def audit_sentence(
    n: int,
    ok: int,
    bigcode: bool,
    tools: list[str] | tuple[str, ...] = (),
    padding: bool = True,
    marked: bool = False,
) -> str:
    """What the bigcode tables' "oom" means (`padding`: parse_logs.py's; `marked`: a write-up's own mark for
    a batch out of memory) and how many derived numbers were recomputed; the other tools read, where no
    bigcode table was."""
    return _say(
        "audit", bigcode=bigcode, n=n, ok=ok, new_tokens=NEW_TOKENS, tools=list(tools), padding=padding, marked=marked
    )


# --- the lesson: weights read once per step, amortised over the batch ----------------------------


def notes_sentence(messages: list[str], set_aside: str | None, results: bool, alone: int) -> str:
    """What the parser noted, what was set aside, and an input with no batch size to measure."""
    return _say(
        "notes",
        messages=[m.removeprefix("warning: ").rstrip(".") for m in messages],
        set_aside=set_aside or "",
        results=results,
        alone=alone,
    )


def tokens_sentence(runs: pd.DataFrame) -> str:
    """Which token count each vLLM bench latency rate counts: a run whose input states it generated fewer
    tokens than it asked for is rated on those generated, and both are said; the rest assume every asked
    token was generated (the tool asks for exactly --output-len and prints no count)."""
    d = runs[(runs["tool"] == "vllm-bench-offline") & (runs["benchmark"] == "latency")] if len(runs) else runs
    d = d[d["latency_s"].notna() & d["output_len"].notna()] if len(d) else d
    if d.empty:
        return ""
    line = d["generated_line"] if "generated_line" in d else pd.Series(np.nan, index=d.index)
    asked = d["asked_len"] if "asked_len" in d else d["output_len"]
    short = d[line.notna() & (d["output_len"] != asked)]
    return _say(
        "tokens",
        short=[
            dict(
                run=r["run"],
                asked=r["asked_len"],
                generated=r["output_len"],
                line=int(r["generated_line"]),
                batch_size=r["batch_size"],
                latency_s=r["latency_s"],
                rate=r["output_tok_s"],
                at_asked=r["batch_size"] * r["asked_len"] / r["latency_s"],
            )
            for _, r in short.iterrows()
        ],
        assumed=[str(r) for r in d.loc[line.isna(), "run"]],
        runs=len(d),
    )


def floor_sentence(fl: dict, device: str | None = None, size_assumed: bool = False) -> str:
    """The step-time floor in this input's numbers (`batch.floor`), or why the figure is in units."""
    if not fl:
        return _say("floor_none")
    return _say(
        "floor",
        **{k: v for k, v in fl.items() if not isinstance(v, list)},
        peak_tok_s=max(fl["tok_s"]),
        device=device,
        size_assumed=size_assumed,
    )


def plot_floor(fl: dict):
    """The idea of the chapter: throughput B / step_time(B) of the roofline's floor on a decode step
    (`batch.step_time`), linear until B* and flat after, in this input's numbers with its fastest
    series on it; without them, in units of B* and of the compute-bound throughput."""
    fig, ax = plt.subplots(figsize=(7.5, 4.4))
    if fl:
        w, bw, f, pk = fl["weight_gb"] * 1e9, fl["bandwidth_gb_s"], 2 * fl["params_b"] * 1e9, fl["peak_tflops"]
        b_star, top = fl["critical_batch"], fl["top_tok_s"]
    else:
        w, bw, f, pk, b_star, top = 1.0, 1e-9, 1.0, 1e-12, 1.0, 1.0
    hi = max([8 * b_star, *fl.get("batches", [])])
    b = np.logspace(0 if fl else -2, np.log10(hi), 200)
    ax.plot(
        b,
        b / batch_step_time(b, w, bw, f, pk),
        "-",
        color="black",
        lw=2,
        label="roofline floor: B / max(weights / bandwidth, B x FLOPs / peak)",
    )
    ax.axvline(b_star, color="grey", lw=1)
    ax.annotate(
        f"B* = {b_star:,.0f}" if fl else "B*",
        (b_star, top / 30),
        xytext=(6, 0),
        textcoords="offset points",
        fontsize=10,
    )
    if fl:
        c = DTYPE_COLOUR.get(str(fl["dtype"]).lower())
        ax.plot(
            fl["batches"],
            fl["tok_s"],
            "o",
            color=color(c) if c is not None else "grey",
            label=f"measured, {fl['dtype']}",
        )
        ax.set_xlabel("batch size (sequences per step)")
        ax.set_ylabel("throughput (tok/s)")
    else:
        ax.set_xlabel("batch size, in units of B*")
        ax.set_ylabel("throughput, share of compute-bound")
    ax.set_xscale("log")
    ax.set_yscale("log")
    for axis in (ax.xaxis, ax.yaxis):  # plain numbers (0.1, 1, 10), never 10 to a power
        axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,g}"))
    ax.legend(fontsize=10, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncols=2, frameon=False)
    tight(fig)
    return fig
