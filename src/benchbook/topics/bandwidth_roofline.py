"""The bandwidth_roofline chapter: how close single-stream generation gets to the ceiling its device's
memory bandwidth sets (bandwidth / bytes read per token), from llama-bench tables (and ik_llama.cpp's
llama-sweep-bench, read into llama-bench's tests) and vLLM `bench latency` runs at batch 1 and llama.cpp's timings of one request. `analyse` reads the input once and makes the claims; `page` draws and words
everything the notebook glues."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from benchbook import config, ingest
from benchbook.analysis import bandwidth, precision, prefill, roofline, serving
from benchbook.claims import Ledger
from benchbook.claims import bandwidth as bandwidth_claims
from benchbook.ingest import llama_bench
from benchbook.presentation import bandwidth as show
from benchbook.presentation import bottom_line, placement, tables, wording
from benchbook.topics import Page

CHAPTER = "bandwidth_roofline"


@dataclass
class Result:
    """Everything the page shows, from one read of the input."""

    p: dict
    files: list[str]
    rows: pd.DataFrame
    every: pd.DataFrame
    points: pd.DataFrame
    latency: pd.DataFrame
    throughput: pd.DataFrame
    prompt: pd.DataFrame
    sweeps: list
    constant: list
    ledger: Ledger
    models: int  # the models the input's runs name, placed or not
    pp_unparsed: list[dict]  # prompt-processing records whose JSON does not parse: test, line
    conflicted: list[dict]  # configurations printed more than once with different rates: kind, lines
    drafted: list[dict]  # llama.cpp requests whose decode a drafter made: line, tokens, rate, accepted
    stopped: list = None  # the parsers' notes of a run that failed after its last row (`llama_bench.failed_after`)


def analyse(p: dict) -> Result:
    """Read each file with the tool it holds, place every batch-1 generation result under its device's
    ceiling, and make the chapter's claims."""
    found = {f: ingest.detect(ingest._load_text(f)) for f in p["source"]}
    # llama-bench's files, then llama-sweep-bench's (its rows are llama-bench's `ppN @ dD` and `tgN @ dD` tests)
    llama = [f for f in p["source"] if "llama-bench" in found[f]]
    llama += [f for f in p["source"] if "llama-sweep-bench" in found[f] and f not in llama]
    bench = {f: "llama-bench" if "llama-bench" in found[f] else "llama-sweep-bench" for f in llama}
    vllm = [f for f in p["source"] if "vllm-bench-offline" in found[f]]
    both = [ingest.read_all([f], tool=bench[f]) for f in llama]
    read = [d for d, _ in both]
    stopped = [m for _, ms in both for m in ms if m.startswith(llama_bench.STOPPED)]
    df = pd.concat(read, ignore_index=True) if read else pd.DataFrame(columns=["metric", "statistic"])
    timed = [f for f in p["source"] if "llama-timings" in found[f]]
    tdf, tms = ingest.read_all(timed, tool="llama-timings") if timed else (pd.DataFrame(), [])
    stopped += [m for m in tms if m.startswith(llama_bench.STOPPED)]
    requests = bandwidth.titled(bandwidth.request_rows(tdf), timed)  # llama.cpp's timings: one request each
    rows = bandwidth.generation_rows(df)
    rows = pd.concat([rows, requests], ignore_index=True) if len(requests) else rows
    kept, every = bandwidth.reduce(rows)
    gpu, bw, tf = p["gpu"], p["peak_bandwidth_gb_s"], p["peak_tflops"]
    pts = bandwidth.points(kept, gpu, p["moe_active_params"], bw, tf, bandwidth.sockets_said(llama))
    vdf = ingest.read_all(vllm, tool="vllm-bench-offline")[0] if vllm else pd.DataFrame()
    named, names = roofline.named_in_files(vllm), precision.stated_names(vllm)  # what the rest of each file says
    lat = bandwidth.latency_runs(vdf, names)
    thr = bandwidth.throughput_runs(vdf, gpu, bw, tf, named, names)  # batched: not placed
    vpts = bandwidth.latency_points(lat, gpu, bw, tf, named, names)
    pts = pd.concat([pts, vpts], ignore_index=True) if len(vpts) else pts
    rejected = [r for f in llama for r in ingest.read(f, tool=bench[f]).attrs.get("rejected", [])]
    rejected = pd.DataFrame(rejected, columns=ingest.REJECTED_COLUMNS)
    pp_unparsed, conflicted = prefill.unparsed(rejected), prefill.conflicted(rejected)
    prompt_rows = prefill.prompt_rows(df)
    asked = bandwidth.titled(
        bandwidth.request_rows(tdf, "pp_rate"), timed
    )  # a request's prompt: one rate, as its decode
    prompt_rows = pd.concat([prompt_rows, asked], ignore_index=True) if len(asked) else prompt_rows
    prompt = prefill.points(prompt_rows, gpu, p["moe_active_params"], bw, tf)
    both = pd.concat([prompt_rows, rows], ignore_index=True)
    sweeps, constant = prefill.sweeps(both), prefill.constants(both)
    files = [config.relative(f) for f in p["source"]]
    models_said = {Path(f).name: serving.fact_said([f], "model", "model") for f in p["source"]}
    claims = bandwidth_claims.build(pts, p["bound_threshold"]) + bandwidth_claims.prefill_claims(
        prefill.fastest(prompt), models_said
    )
    ledger = wording.ledger(CHAPTER, files, claims)
    models = bandwidth.models_named(df, vdf, tdf)
    return Result(
        p,
        files,
        rows,
        every,
        pts,
        lat,
        thr,
        prompt,
        sweeps,
        constant,
        ledger,
        models,
        pp_unparsed,
        conflicted,
        bandwidth.drafted(tdf),
        stopped,
    )


def box_ids(led: Ledger) -> list[str]:
    """The bottom line: the trend with size where the input shows one, and the result closest to its
    ceiling (the highest shown share of a peak) unless it is the trend's top point, whose share the
    trend already gives; the trend, withheld, only where there is no such result."""
    shown = [c for c in led.claims if c.shown and c.kind == "fraction_of_peak" and c.id.startswith("bw_")]
    best = max(shown, key=lambda c: c.evidence["fraction"], default=None)
    size = led.get("bw_size_trend")
    trend = ["bw_size_trend"] if size.shown else []
    if trend and best is not None and best.evidence["fraction"] == size.evidence.get("high"):
        return trend
    return [*trend, *([best.id] if best else [])] or ["bw_size_trend"]


def _tables(r: Result) -> dict:
    from benchbook.presentation import outputs

    def bytes_table():
        if len(r.points):
            outputs.display(tables.show(show.bytes_table(r.points)))

    def sweep():
        n_dropped = int((~r.every["kept"]).sum()) if len(r.every) else 0
        if n_dropped:
            outputs.display(show.sweep_note(bandwidth.swept(r.rows), n_dropped), markdown=True)
            outputs.display(tables.show(show.sweep_table(r.every), caption=show.sweep_constants(r.every)))

    def prefill_table():
        if len(r.prompt):
            outputs.display(tables.show(show.prefill_table(r.prompt)))

    return {"bytes": bytes_table, "sweep": sweep, "prefill": prefill_table}


def page(r: Result) -> Page:
    """Every text, figure and table of the chapter, drawn from the Result."""
    led, pts = r.ledger, r.points
    box = [c["id"] for c in bottom_line.pick(led, box_ids(led))]  # what the box says, no section says again
    placed = not show.placed(pts).empty
    pp_ids = [c.id for c in led.claims if c.id.startswith("pp_")]
    pp_said = [i for i in pp_ids if i not in box]  # a prefill figure the box answers with is said there

    def said(kind: str) -> str:
        ids = [c.id for c in led.claims if c.id not in box and c.status != "withheld" and c.id not in pp_ids]
        ids = [i for i in ids if led.get(i).kind == kind or (kind == "bound" and i.startswith("bound_"))]
        return show.shares(led, ids, "GB/s") if kind == "fraction_of_peak" else wording.block(led, ids)

    notes = [
        show.conflict_note(r.conflicted),
        show.coverage_note(
            len(pts),
            r.models,
            # a row whose layers beyond its GPU sit on RPC servers' devices spans more than one
            bandwidth.one_device(r.every) and not ("rpc_spanned" in pts and pts["rpc_spanned"].eq(True).any()),
            bandwidth.several_named(r.every),
            bool(r.conflicted),
            "one_request" in r.every and bool(r.every["one_request"].eq(True).all()),
            len(r.drafted),
        ),
        show.drafted_note(r.drafted),
        show.stopped_note(r.stopped or []),
        show.latency_note(r.latency),
        show.request_note(r.points, r.prompt),
    ]
    markdown = {
        "input_line": show.input_line(", ".join(r.files), pts, r.latency, r.every, r.conflicted),
        "input_notes": "\n\n".join(n for n in notes if n),
        "lesson_text": show.lesson_sentence(pts),
        "fractions": said("fraction_of_peak"),
        "bounds": said("bound"),
        "throughput_note": show.throughput_note(r.throughput),
        "vllm_bytes": wording.sentence(CHAPTER, "vllm_bytes", n_latency=len(r.latency)),
        "withheld_list": placement.folded_box(led, skip=[*box, *pp_ids]),
        "prefill_intro": show.prefill_intro(r.prompt, len(pp_ids), r.pp_unparsed, r.conflicted),
        "prefill_claims": show.shares(led, pp_said, "TFLOP/s"),
        "setting_sweeps": show.sweep_sentences(r.sweeps, r.constant),
    }
    figures = {
        "fig_ceiling": show.ceiling_figure(pts) if placed else None,
        "fig_fraction": show.fraction_figure(pts) if placed else None,
        "fig_roofline": show.roofline_figure(pts) if show.roofline_device(pts) else None,
    }
    texts = {f"cap_{name[4:]}": show.caption(name[4:], fig is not None) for name, fig in figures.items()}
    return Page(led, texts=texts, markdown=markdown, figures=figures, tables=_tables(r), fold_withheld=True, box=box)
