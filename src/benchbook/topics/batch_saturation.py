"""The batch_saturation chapter's logic: read a batch-size sweep (or offline runs), measure it (the
saturation batch, the roofline of each step, the lesson's step-time floor), judge it (the ledger) and
say it (texts, figures, tables by name)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from benchbook import config, ingest
from benchbook.analysis import batch, batched_bench, one_batch, precision, roofline, serving
from benchbook.checks import hf_batch as checks
from benchbook.claims import Ledger
from benchbook.claims import batch as batch_claims
from benchbook.ingest import hf_batch
from benchbook.presentation import wording
from benchbook.topics import Page

CHAPTER = "batch_saturation"
TOOLS = ("hf-batch-sweep", *batch.OFFLINE_TOOLS, one_batch.TOOL, batched_bench.TOOL)


@dataclass
class Result:
    """What the chapter measured and judged on one input."""

    p: dict
    inputs: list[str]
    messages: list[str]
    sweep: pd.DataFrame
    runs: pd.DataFrame  # offline runs (no batch setting)
    knees: pd.DataFrame
    limits: pd.DataFrame
    key: tuple | None  # the reference (fastest) series
    peaks: object
    named: object  # what the input says of its device (`analysis.roofline.Named`)
    sizes: dict  # model -> (billions of parameters, where that comes from)
    roofline: pd.DataFrame
    offline: pd.DataFrame  # runs with no batch setting, as points
    paced: list
    floor: dict  # the lesson's step-time floor in this input's numbers (`batch.floor`)
    audit: pd.DataFrame
    reproduced: tuple[int, int, bool]  # rows, agreeing, whether a bigcode file was read
    ledger: Ledger
    set_aside: str | None
    #: the copy of some input ends inside its tool's output (a `COPY_ENDS` mark): what it ran after is not in it
    cut: bool
    others: list[str]  # the tools read besides the bigcode tables (the audit sentence names them)
    untied: list = None  # [model, line, how] the input names where no run has a model (`serving.untied_models`)
    split: dict = None  # runs over several GPUs split in a way not stated (`batch.split_unstated`)
    oom: tuple = (False, False)  # the sweep's "oom" cells: (parse_logs.py's padding, the author's own mark)


def analyse(p: dict) -> Result:
    """Every number and verdict of the chapter for the checked parameters `p` (`chapter.setup`)."""
    df, messages = ingest.read_all(p["source"])
    df = df[df["tool"].isin(TOOLS)]
    inputs = [config.relative(x) for x in p["source"]]
    split_said = batch.split_said(p["source"])  # how the rest of the file says the model is split over its GPUs
    stated = precision.stated_names(p["source"])
    # bench_one_batch's steps and batched-bench's generation phases as points
    sw = batch.with_split(
        batched_bench.with_sweep(one_batch.with_sweep(batch.sweep(df, stated), df, stated), df, stated), split_said
    )
    knees = batch.knee(sw, p["knee_fraction"])
    key = batch.reference(sw)
    texts = [f.read_text(encoding="utf-8", errors="replace") for f in p["source"]]
    pk, found = batch.device(p["gpu"], sw, texts, p["peak_bandwidth_gb_s"], p["peak_tflops"])
    said = roofline.said(found)
    split = batch.split_unstated(sw)
    if split:  # several GPUs each, split in a way not stated: no device's roofs are the runs'
        pk, said = None, split
        split |= split_said
    elif split_said["split_status"] == "stated" and sw.get("devices", pd.Series(dtype=float)).gt(1).any():
        split = split_said  # runs over several GPUs split as the file states: said beside the device
    printed = {}
    for text in texts:
        printed.update(batch.printed_params(text))
    printed.update(batched_bench.printed_params(df))  # llama-bench's params for a batched-bench table's file
    runs = batch.offline_runs(df, stated)
    if found.device and found.counted and len(runs):  # the devices the file says the run spans (`8x H100`)
        held = runs["devices"].astype(float) if "devices" in runs else pd.Series(np.nan, index=runs.index)
        at = pd.Series(np.where(held.isna(), found.fact.line if found.fact else np.nan, np.nan), index=runs.index)
        runs = runs.assign(devices=held.fillna(float(found.count)), devices_line=at)
    models = sorted(set(sw["model"]) | (set(runs["model"]) - {""}))
    sizes = {m: batch.model_size(m, printed, p["params_b"]) for m in models}
    known = {m: s[0] for m, s in sizes.items() if s[0]}
    rl = batch.step_roofline(sw, known, pk)
    reg = batch.regimes(rl, key)
    ref_knee = knees.loc[knees["peak_tok_s"].idxmax()] if len(knees) else None
    ref_params = sizes[key[0]] if key else (None, "unknown")
    pair = batch.dtype_pair(sw, key)
    unnamed = {"": p["params_b"]} if p["params_b"] > 0 else {}  # an MLPerf summary names no model
    untied = serving.untied_models(p["source"], [m for m in models if m], pd.concat([sw, runs]))
    if not unnamed and (one := serving.untied_model(untied)):
        # the one model the input names where no run names one is the runs', sized as serving_saturation sizes it,
        # and said as theirs ("taken"), as serving_saturation says its run's model
        untied = [[m, n, "taken"] for m, n, _ in untied]
        size = batch.model_size(one, printed)
        if size[0]:
            sizes[one], unnamed = size, {"": size[0]}
    # where no size is tied to the runs, a line that sizes some model (the absence rule) is named, not denied
    size_said = serving.fact_said(p["source"], "params", "params") if not ref_params[0] else {}
    hf_files = [f for f in p["source"] if "hf-batch-sweep" in ingest.detect(ingest._load_text(f))]
    rep = checks.reproduce(hf_files[0]) if hf_files else pd.DataFrame(columns=["agrees"])
    ref = batch.rows_of(sw, key)
    flat = batch.flat_range(ref, tolerance=batch_claims.FLAT_TOLERANCE)
    led = Ledger(CHAPTER, inputs)
    for c in (
        batch_claims.knee(ref_knee),
        batch_claims.knees_elsewhere(knees),
        batch_claims.bound("small", reg.get("small"), pk, p["bound_threshold"], said),
        batch_claims.bound("large", reg.get("large"), pk, p["bound_threshold"], said),
        batch_claims.bandwidth(reg.get("small"), pk, ref_params[0], ref_params[1], {**said, **size_said}),
        batch_claims.compute(reg.get("large"), pk, said),
        batch_claims.dtypes(pair, batch.rounding_noise(*pair) if pair else 0.0),
        batch_claims.latency_flat(flat, ref.iloc[len(flat) :]),
        batch_claims.conflicts(batch.conflicts(df), len(sw)),
        batch_claims.speculative(runs),
        batch_claims.over_cap(batch.over_cap(runs)),
    ):
        led.add(c)
    return Result(
        p=p,
        inputs=inputs,
        messages=list(messages),
        sweep=sw,
        runs=runs,
        knees=knees,
        limits=batch.memory_limit(sw),
        key=key,
        peaks=pk,
        named=found,
        sizes=sizes,
        roofline=rl,
        offline=batch.offline_points(runs, {**unnamed, **known}, pk),
        paced=batch.paced_scenarios(df),
        floor=batch.floor(rl, key),
        audit=checks.audit(hf_files[0]) if hf_files else pd.DataFrame(columns=["defect", "line", "evidence"]),
        reproduced=(len(rep), int(rep["agrees"].eq(True).sum()), bool(hf_files)),
        ledger=wording.ledger(CHAPTER, inputs, led.claims),
        set_aside=ingest.set_aside_note(p["source"], tool=TOOLS),
        cut=bool(
            ingest.set_aside(p["source"], tool=TOOLS)["reason"].astype(str).str.startswith(ingest.COPY_ENDS).any()
        ),
        others=sorted(set(df["tool"]) - {"hf-batch-sweep"}) if "tool" in df else [],
        untied=untied,
        split=split,
        oom=(bool(df["note"].eq(hf_batch.OOM_NOTE).any()), bool(df["note"].eq(hf_batch.MARKED_OOM).any()))
        if "note" in df
        else (False, False),
    )


def _precision_said(paths) -> dict:
    """Per file name, what the file says of a precision (the absence rule), for runs whose precision is not
    known: a page names a line that speaks of one rather than say the output names none. A stated dtype
    of a known unquantized width (`--dtype bfloat16`) is marked `precision_plain`: where nothing is assumed
    it is not read as the weights' (it may be the activations' of a quantized checkpoint)."""
    out = {}
    for f in paths:
        said = serving.fact_said([f], "precision", "precision")
        hit = precision.tagged(str(said["precision_value"])) if said.get("precision_status") == "stated" else None
        out[Path(f).name] = {**said, "precision_plain": bool(hit) and hit[0] in precision.UNQUANTIZED}
    return out


def page(res: Result) -> Page:
    """Every text, figure and table the chapter shows, by the name its prose glues or shows."""
    from benchbook.presentation import audit as audit_view
    from benchbook.presentation import batch as show
    from benchbook.presentation import outputs, placement, tables

    sw, key = res.sweep, res.key
    ref = batch.rows_of(sw, key)
    row = ref.iloc[(ref["batch_size"] - 128).abs().argmin()] if len(ref) else None
    mg = batch.marginal_gain(ref)
    size_assumed = bool(key) and res.sizes.get(key[0], (None, ""))[1] == "tool config"
    pg = Page(res.ledger)
    pg.markdown.update(
        inputs=show.inputs_sentence(", ".join(res.inputs), sw, res.runs, res.named, res.untied),
        notes=show.notes_sentence(res.messages, res.set_aside, bool(sw["has_result"].sum()), len(res.offline)),
        tokens=show.tokens_sentence(res.runs),
        device=show.device_sentence(
            res.peaks,
            {m: s[0] for m, s in res.sizes.items()},
            {m: s[1] for m, s in res.sizes.items()},
            {m: batch.moe_total(m, s[1]) for m, s in res.sizes.items()},
            res.named,
            res.split,
            res.untied,
        ),
        offline_sentence=show.offline_sentence(
            res.offline,
            res.peaks,
            res.paced,
            _precision_said(res.p["source"]),
            {Path(f).name: serving.fact_said([f], "batch", "batch") for f in res.p["source"]},
        ),
        floor=show.floor_sentence(res.floor, getattr(res.peaks, "device", None), size_assumed),
        # Markdown: a series' settings (--quantization, run names) stand in code spans
        gain_sentence=show.gain_sentence(mg),
        limits_sentence=show.limits_sentence(res.limits, res.cut),
        prefill_sentence=show.prefill_sentence(sw, key),
        undecided=placement.folded_box(res.ledger),
        **placement.in_place(res.ledger),
    )
    pg.texts.update(
        knee_pct=f"{100 * res.p['knee_fraction']:.0f}",
        threshold_pct=f"{100 * res.p['bound_threshold']:.0f}",
        ms_sentence=show.ms_sentence(row),
        audit_sentence=show.audit_sentence(*res.reproduced, res.others, *res.oom),
    )
    pg.figures.update(
        fig_floor=show.plot_floor(res.floor),
        fig_throughput=show.plot_throughput(sw, res.knees, res.ledger.get("knee").shown),
        fig_roofline=show.plot_roofline(res.roofline, res.peaks, key),
        fig_ms=show.plot_ms_per_token(sw),
    )
    pg.tables.update(
        knee=lambda: outputs.display(tables.show(show.knee_table(res.knees), missing=show.KNEE_MISSING)),
        gain=lambda: outputs.display(tables.show(show.gain_table(mg), missing=show.GAIN_MISSING)),
        offline=lambda: (
            outputs.display(tables.show(show.offline_table(res.offline), missing=show.offline_missing(res.offline)))
            if len(res.offline)
            else None
        ),
        step=lambda: outputs.display(
            tables.show(
                show.step_table(res.roofline),
                missing=show.step_missing(res.roofline, serving.fact_said(res.p["source"], "precision", "precision")),
            )
        ),
        limits=lambda: outputs.display(tables.show(show.limits_table(res.limits), missing=show.LIMITS_MISSING)),
        audit=lambda: outputs.display(tables.show(audit_view.audit_table(res.audit, ["defect", "line", "evidence"]))),
    )
    return pg
