"""The tp_scaling chapter: what tensor parallelism buys per added GPU, and where it stops paying, from
text-generation-benchmark tables. `analyse` reads the input once and makes the claims; `page` draws
and words everything the notebook glues."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from benchbook import config, ingest
from benchbook.analysis import serving, tp
from benchbook.claims import Ledger
from benchbook.claims import tp as tp_claims
from benchbook.ingest import tgi
from benchbook.presentation import placement, tables, wording
from benchbook.presentation import tp as view
from benchbook.topics import Page

CHAPTER = "tp_scaling"

#: The claims each section shows, in page order (the bottom line's are left out where it holds them).
SECTIONS = {
    "claims_scaling": ["decode_speedup", "prefill_speedup_rises", "prefill_efficiency_falls", "superlinear_efficiency"],
    "claims_roofline": [
        "decode_bw_small_tp",
        "decode_bw_large_tp",
        "prefill_compute_best",
        "highest_fraction",
        "decode_bound",
        "prefill_bound",
    ],
    "claims_deploy": ["rec_decode_latency", "rec_prefill_latency", "rec_throughput"],
}
#: Paragraphs of the anomalies' section that stand only when one of their claims is shown: glued name,
#: then the claims, behind the label the wording file's `words.labels` gives the name.
PARAGRAPHS = {
    "para_jumps": ["superlinear_jumps"],
    "para_slower": ["decode_slower_steps"],
    "para_quant": ["quant_slowdown", "quant_bandwidth"],
}


@dataclass
class Result:
    """Everything the page shows, from one read of the input."""

    p: dict
    files: list[str]
    n_rows: int
    messages: list[str]
    w_all: pd.DataFrame
    w: pd.DataFrame
    n_dup: int
    listed: list[int]
    tp_notes: list[dict]  # where the TP of tables that state none came from (analysis.tp.fill_tp)
    set_aside: str | None  # the numbers the parser set aside, and where a copy ends (`ingest.set_aside_note`)
    model_id: str
    size: dict
    kv: float
    kv_src: str
    weights: (
        object  # the main configuration's weights (`analysis.tp.weights`): the bytes per weight the roofline counts
    )
    precision_said: dict  # where 16-bit is assumed, what the files say of a precision (`analysis.serving.fact_said`)
    arch: dict | None
    device: dict
    tps: list[int]
    seqs: list[int]
    analysis: tp.Analysis  # every analysis the claims and the page read, computed once
    ledger: Ledger


def analyse(p: dict) -> Result:
    """Read the TGI tables, choose the main configuration, size the model and the device, and make
    the chapter's claims."""
    raw, messages = ingest.read_all(p["source"], tool="tgi-benchmark")
    texts = [f.read_text(errors="replace") for f in p["source"]]
    listed = sorted({t for text in texts for t in tgi.listed_tps(text)})
    w_all, n_dup = tp.combine(tp.wide(raw))
    w_all, tp_notes = tp.fill_tp(w_all, p["source"], p["tp_unknown"])  # a TP the rest of the file states
    w = tp.main_config(w_all)
    named = w["model"].notna().any()
    # a model no table names: what the files say of one (the absence rule), worded in the claims file
    model_id = str(w["model"].dropna().iloc[0]) if named else _unnamed(p["source"])
    size = tp.model_size(model_id, p["params_b"], named)
    kv = p["kv_bytes_per_token"] or (tp.kv_bytes_per_token(model_id) if named else None) or 0.0
    if p["kv_bytes_per_token"]:
        kv_src = "the kv_bytes_per_token parameter"
    else:
        kv_src = f"the model's configuration, for {model_id}" if kv else f"not known for {model_id}"
    device = tp.device_peaks(p["gpu"], p["peak_bandwidth_gb_s"], p["peak_tflops"], texts)
    arch = tp.architecture(model_id) if named else None
    wts = tp.weights(w, model_id if named else None, p["bytes_per_param"])
    # where 16-bit is assumed: what the files say of a precision (the absence rule), so a page names its line
    prec_said = serving.fact_said(p["source"], "precision", "precision") if wts.assumed else {}
    files = [config.relative(f) for f in p["source"]]
    a = tp.analyse(
        w,
        w_all,
        params_b=size["total_b"],
        bytes_per_param=wts.bytes_per_weight,
        bandwidth_gb_s=device["bandwidth_gb_s"],
        tflops=device["tflops"],
        kv_bytes_per_token=kv,
        tp_unknown=p["tp_unknown"],
        jump_threshold=p["jump_threshold"],
        slowdown_tolerance=p["slowdown_tolerance"],
    )
    claims = tp_claims.all_claims(
        w=w,
        w_all=w_all,
        device=device,
        params_b=size["total_b"],
        active_params_b=size["active_b"],
        why_no_params=size["source"],
        tp_unknown=p["tp_unknown"],
        bound_threshold=p["bound_threshold"],
        jump_threshold=p["jump_threshold"],
        slowdown_tolerance=p["slowdown_tolerance"],
        analysis=a,
        arch=arch,
    )
    return Result(
        p=p,
        files=files,
        n_rows=len(raw),
        messages=messages,
        w_all=w_all,
        w=w,
        n_dup=n_dup,
        listed=listed,
        tp_notes=tp_notes,
        set_aside=ingest.set_aside_note(p["source"], tool=tgi.NAME),
        model_id=model_id,
        size=size,
        kv=kv,
        kv_src=kv_src,
        weights=wts,
        precision_said=prec_said,
        arch=arch,
        device=device,
        tps=sorted(int(t) for t in w["tp"].dropna().unique()),
        seqs=sorted(int(s) for s in w["sequence_length"].dropna().unique()),
        analysis=a,
        ledger=wording.ledger(CHAPTER, files, claims),
    )


def _unnamed(paths) -> str:
    """The words for a model no table names (`analysis.tp.model_said`): the one a line names, the line that
    speaks of one, or a model the input does not name."""
    return wording.sentence(CHAPTER, "unnamed_model", **tp.model_said(paths))


def _allreduce_values(r: Result) -> dict:
    """The lesson's numbers for this input: the all-reduces of one decode step of its model at its
    smallest batch and largest TP, and the slowdown past the turn they are set against."""
    turn = r.ledger.get("decode_turn").evidence
    if r.arch is None:
        return {"model": r.model_id, "known": False}
    bs = turn.get("batch_size") or (min(int(b) for b in r.w["batch_size"]) if len(r.w) else 1)
    n = turn.get("max_tp") or max([*r.tps, 1])
    one_gpu = n <= 1  # no all-reduce at all: the lesson's numbers are for TP 8 instead
    # one GPU only by `tp_unknown`, where no table states its TP: the chapter's assumption, not the input's
    assumed = one_gpu and not r.w["tp_stated"].astype(bool).any() if "tp_stated" in r.w else one_gpu
    n = 8 if one_gpu else n
    links = {name: tp.allreduce_budget(r.arch["layers"], r.arch["hidden"], bs, n, gb_s) for name, gb_s in tp.LINKS}
    out = {"model": r.model_id, "known": True, "batch_size": bs, "n": n, "one_gpu": one_gpu, **r.arch}
    out["tp_assumed"] = assumed
    out["links"] = list(links.items())
    out |= {k: v for k, v in next(iter(links.values())).items() if k in ("allreduces", "bytes_each", "bytes_sent")}
    if turn.get("after") == "slower" and r.ledger.get("decode_turn").shown:
        steps = tp.ring_steps_added(turn["turn_tp"], turn["max_tp"], out["allreduces"])
        out |= {k: turn[k] for k in ("turn_tp", "turn_ms", "max_tp", "max_ms")}
        out |= {"steps_added": steps, "us_per_step": (turn["max_ms"] - turn["turn_ms"]) * 1000 / steps}
    return out


def _figures(r: Result) -> dict:
    a = r.analysis
    sc, fits, qs, tput, device = a.scaling, a.fits, a.quant, a.throughput, r.device
    return {
        "fig_allreduce": view.plot_turn_model(),
        "fig_speedup": view.plot_speedup(sc, r.tps) if len(r.tps) >= 2 else None,
        "fig_fit": view.plot_fits(fits, r.tps) if fits else None,
        "fig_roofline": view.plot_tp_roofline(a.roofline, device) if len(a.roofline) else None,
        "fig_quant": view.plot_quantization(qs) if len(qs) else None,
        "fig_throughput": view.plot_throughput(tput) if len(tput) else None,
    }


def _tables(r: Result, measured: tuple) -> dict:
    """Each table as a call that shows it where a cell asks, and shows nothing when it has no row."""
    w_all, a = r.w_all, r.analysis

    def show(rows: pd.DataFrame, frame, **kw):
        def display_it():
            from benchbook.presentation import outputs

            if len(rows):
                outputs.display(tables.show(frame(rows), **kw))

        return display_it

    frac = view.roofline_fraction_table(a.roofline) if len(a.roofline) and r.device["device"] else pd.DataFrame()
    budget = a.budget
    turns = view.turns_table(a.turns)
    measured, why = measured  # what one TP measured (`view.measured_table`), made once by `page`
    return {
        "measured": show(measured, lambda m: m, digits=4, missing=why),
        "turns": show(turns, lambda t: t, digits=4, missing=view.fraction_reasons(turns, a.missing_main)),
        "fractions": show(frac, lambda f: f, missing=view.fraction_reasons(frac, a.missing_main)),
        "inversions": show(tp.percentile_inversions(w_all), view.inversions_table, digits=4),
        "missing": show(a.missing_all, view.missing_table),
        "budget": show(budget[~budget["consistent"]] if len(budget) else budget, view.budget_table),
        "jumps": show(a.jumps, view.jumps_table, digits={"from (ms)": 4, "to (ms)": 4}),
        "slower": show(
            a.slower,
            view.slower_table,
            digits={"from (ms per token)": 4, "to (ms per token)": 4},
        ),
    }


def _bullets(led, ids: list[str]) -> str:
    return "\n".join(f"- {led.get(i).text}" for i in ids)


def page(r: Result) -> Page:
    """Every text, figure and table of the chapter, drawn from the Result."""
    from benchbook.presentation import bottom_line

    led, w = r.ledger, r.w
    boxed = {c["id"] for c in bottom_line.pick(led)}
    others = tp.other_parameters(r.w_all, w)
    texts = {
        "input_text": view.input_sentence(
            ", ".join(r.files),
            r.n_rows,
            r.model_id,
            r.tps,
            r.seqs,
            r.n_dup,
            r.messages,
            others,
            tp.absent_tps(r.listed, r.w_all),
            tp.tokenizer_name(r.model_id) if w["model"].notna().any() else None,
            tp.throughputs_only(r.w_all),
        ),
        "model_text": view.model_sentence(r.model_id, r.size, r.kv, r.kv_src, r.weights, r.precision_said),
        "scope_text": view.scope_sentence(r.w_all, w),
        "prefill_example": view.prefill_example_sentence(tp.prefill_example(w)),
        "fit_text": view.fit_sentence(r.analysis.fits, tp.best_tp(w)),
        "runs_text": view.runs_sentence(r.w_all, tp.runs_said(r.p["source"])),
        "coverage_text": view.coverage_sentence(r.analysis.missing_main, w),
    }
    figures = _figures(r)
    for name, fig in figures.items():
        texts[f"cap_{name[4:]}"] = view.caption(name[4:], fig is not None, r.device)
    left = bottom_line.rest(led)  # what the box cuts from its answer: its section says it
    sections = {
        name: " ".join(
            filter(
                None,
                [
                    *(left[i] for i in ids if i in left),
                    wording.together(led, [i for i in ids if i not in boxed and led.get(i).status != "withheld"]),
                ],
            )
        )
        for name, ids in SECTIONS.items()
    }
    labels = wording.words(CHAPTER)["labels"]
    paragraphs = {
        name: f"**{labels[name]}** {wording.together(led, [i for i in ids if led.get(i).status != 'withheld'])}"
        if any(led.get(i).status != "withheld" for i in ids)
        else ""
        for name, ids in PARAGRAPHS.items()
    }
    measured = view.measured_table(r.w) if len(r.tps) < 2 else (pd.DataFrame(), None)
    if len(r.tps) < 2:  # nothing to scale: say so where the scaling verdicts would stand, and show what was measured
        sections["claims_scaling"] = view.one_tp_sentence(r.tps, measured=not measured[0].empty)
    turns = [c.id for c in led.claims if c.id.startswith("decode_turn_") and c.status != "withheld"]
    markdown = {
        "device_text": view.device_sentence(r.device),
        "tp_note": view.tp_sentence(r.tp_notes),
        "set_aside": r.set_aside or "",
        "allreduce_text": view.allreduce_sentence(_allreduce_values(r)),
        "claims_turns": "\n\n".join(filter(None, [left.get("decode_turn"), _bullets(led, turns)])),
        "fit_method": view.fit_method(r.analysis.fits),
        "quant_heading": view.quant_heading(figures.get("fig_quant") is not None),
        **sections,
        **paragraphs,
        "withheld_list": placement.folded_box(led, skip=boxed, said=view.reason_said(r.device)),
    }
    return Page(led, texts=texts, markdown=markdown, figures=figures, tables=_tables(r, measured), fold_withheld=True)
