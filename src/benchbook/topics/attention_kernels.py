"""The attention-kernels chapter's logic: from the checked parameters to its numbers, claims and page.

`analyse` reads one or more attention-gym outputs, counts the work each kernel performs (not the
FLOPs the tool credits it with), derives each mask's block density from its name, and judges the
chapter's claims; `page` draws every text, figure and table the notebook places.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from benchbook import config, ingest
from benchbook.analysis import attention, attention_tritonbench, roofline
from benchbook.checks import attention_gym as checks
from benchbook.claims import Ledger
from benchbook.claims import attention as claims
from benchbook.topics import Page

CHAPTER = "attention_kernels"


@dataclass
class Result:
    """Everything the page shows, from the input files."""

    paths: list[Path]
    messages: list[str]
    kernels: pd.DataFrame
    speedups: pd.DataFrame
    points: pd.DataFrame
    densities: pd.DataFrame
    peaks: roofline.Peaks
    reproduction: pd.DataFrame
    ledger: Ledger = field(repr=False, default=None)
    #: tritonbench operator tables: one row per input and backend (`analysis.attention_tritonbench`)
    triton: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: timings a flash-attention script printed as failed (0.00 TFLOP/s): backend and line
    failed: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: what the input says of a device none was taken from (`analysis.roofline.said`)
    said: dict = field(default_factory=dict)
    #: the lines of rows set aside for giving one configuration different values (no label tells the runs apart)
    conflicts: list = field(default_factory=list)
    #: the lines where the copy ends inside a table it never closes (the parsers' `COPY_ENDS` marks)
    cut_at: list = field(default_factory=list)


def analyse(p: dict) -> Result:
    """The chapter's numbers and claims for the inputs of `p` (`chapter.setup`'s return)."""
    from benchbook.presentation import wording

    paths = [Path(f) for f in p["source"]]
    found = {f: ingest.detect(ingest._load_text(f)) for f in paths}
    # tritonbench tables, flash-attention's benchmark lines and score_mod.py tables, each read by its own parser
    tb = {f: [t for t in attention_tritonbench.TOOLS if t in found[f]] for f in paths}
    tb = {f: tools for f, tools in tb.items() if tools}
    gym = [f for f in paths if f not in tb]
    df, messages = ingest.read_all(gym, tool="attention-gym") if gym else (pd.DataFrame(columns=["tool"]), [])
    frames, more, aside = [], [], []
    for f, tools in tb.items():
        for t in tools:
            x = ingest.read(f, t)
            more += x.attrs.get("messages", [])
            aside += x.attrs.get("rejected", [])
            x.attrs = {}
            frames.append(x)
    tdf = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["tool"])
    set_aside = pd.DataFrame(aside, columns=ingest.REJECTED_COLUMNS)
    k = attention.with_work(attention.kernels(df))
    sp = attention.speedups(k)
    pts = attention.roofline_points(k)
    texts = [f.read_text(encoding="utf-8", errors="replace") for f in paths]
    peaks = attention.peaks(p["gpu"], texts, p["peak_tflops"], p["peak_bandwidth_gb_s"])
    found = roofline.named(texts)
    said = roofline.said(found) if peaks.device is None else roofline.fits_said(found) if peaks.variants else {}
    result = Result(
        paths=paths,
        messages=messages,
        kernels=k,
        speedups=sp,
        points=pts,
        densities=attention.densities(k),
        peaks=peaks,
        reproduction=pd.concat([checks.reproduce(f) for f in gym], ignore_index=True) if gym else pd.DataFrame(),
        triton=attention_tritonbench.table(tdf),
        failed=attention_tritonbench.failed(set_aside),
        said=said,
        conflicts=attention_tritonbench.conflicts(set_aside),
        cut_at=sorted({int(r.line) for r in set_aside.itertuples() if str(r.reason).startswith(ingest.COPY_ENDS)}),
    )
    result.messages += more
    result.ledger = wording.ledger(
        CHAPTER, [config.relative(x) for x in paths], claims.all_claims(k, sp, pts, peaks, said)
    )
    return result


def page(r: Result) -> Page:
    """Every text, figure and table of the chapter, drawn from `r`."""
    from benchbook.presentation import attention as show
    from benchbook.presentation import outputs, placement, tables, wording

    k = r.kernels
    texts = {
        "files": ", ".join(config.relative(x) for x in r.paths),
        "n_sections": wording.sentence(CHAPTER, "sections", n=k["mask"].nunique()),
        "noise_words": show.noise_words(k, r.triton),
        "shape_words": show.shape_words(k),
        "recomputed": wording.sentence(
            CHAPTER,
            "recomputed",
            sections=k["mask"].nunique(),
            rep=show.reproduction_words(r.reproduction),
            fa2=show.fa2_words(k),
        ),
        "density_words": show.density_words(r.densities),
        "triton_words": show.triton_words(r.triton, r.peaks, r.failed, r.conflicts),
        "density_caption": wording.sentence(
            CHAPTER, "density_caption", dots=bool((r.densities["printed"].notna() & (r.densities["printed"] < 1)).any())
        ),
    }
    markdown = {
        "stop_note": show.stop_note(r.messages, r.cut_at),
        "device_words": show.device_words(r.peaks, r.said),
        "withheld_block": placement.folded_box(r.ledger),
        "sdpa_lead": wording.sentence(CHAPTER, "sdpa_lead", rows=len(show.sdpa_table(k))),
        **placement.in_place(r.ledger),
    }
    figures = {"fig_density": show.density_figure(r.densities)}
    if len(k[k["pass"] == "fw"]):
        figures["fig_tflops"] = show.tflops_figure(k)
    if (r.speedups["flex_vs_sdpa"].notna() & r.speedups["density"].notna()).any():
        figures["fig_speedup"] = show.speedup_figure(r.speedups)
    if len(r.points[r.points["achieved_tflops"].notna()]):
        figures["fig_roof"] = show.roofline_figure(r.points, r.peaks)
    for name in ("fig_tflops", "fig_speedup", "fig_roof"):
        markdown[f"why_no_{name[4:]}"] = "" if name in figures else show.missing_figure(name[4:])
    known = bool((r.densities["derived"].notna() | r.densities["printed"].notna()).any())
    missing = {
        "latency (ms)": "not printed",
        "printed TFLOP/s": "not printed",
        "of dense 16-bit peak (%)": "no device chosen" if r.peaks.device is None else "FP8, or no TFLOP/s",
    }
    tabs = {
        "densities": lambda: outputs.display(tables.show(show.density_table(r.densities), digits=4)) if known else None,
        "sdpa": lambda: outputs.display(tables.show(show.sdpa_table(k), digits=3)),
        "speedups": lambda: outputs.display(tables.show(show.speedup_table(r.speedups), digits=3)),
        "triton": lambda: (
            outputs.display(tables.show(show.triton_table(r.triton, r.peaks), digits=4, missing=missing))
            if len(r.triton)
            else None
        ),
    }
    return Page(r.ledger, texts=texts, markdown=markdown, figures=figures, tables=tabs)
