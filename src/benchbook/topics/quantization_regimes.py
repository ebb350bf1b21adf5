"""The quantization chapter's logic: from the checked parameters to its numbers, claims and page.

`analyse` reads one SGLang quantization report (or result.jsonl), recomputes every statistic from
the individual runs, and judges the chapter's claims; `page` draws every text, figure and table the
notebook places. The lesson (what 8-bit weights change in bytes and in compute) is worked on the
run's device when one is named, else on `analysis.quant.EXAMPLE_DEVICE`, said to be an example.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from benchbook import config, ingest
from benchbook.analysis import quant, roofline
from benchbook.analysis.precision import weights
from benchbook.checks import sglang_quant as checks
from benchbook.claims import Ledger
from benchbook.claims import quant as verdicts
from benchbook.topics import Page

CHAPTER = "quantization_regimes"


@dataclass
class Result:
    """Everything the page shows, from one input file."""

    path: Path
    parameters: dict
    df: pd.DataFrame
    runs: pd.DataFrame
    clean: pd.DataFrame
    flagged: pd.DataFrame
    left_out: pd.DataFrame
    winners: pd.DataFrame
    speedups: pd.DataFrame
    shape: pd.DataFrame
    sensitivity: pd.DataFrame
    published: pd.DataFrame
    points: pd.DataFrame
    ratios: pd.DataFrame
    trend: pd.DataFrame
    w8a8: pd.DataFrame
    weight_only: str | None
    baseline: str
    baseline_precision: str | None
    where: dict
    peaks: roofline.Peaks | None
    params_b: float | None
    model: str | None
    model_source: str | None
    lesson: quant.Lesson
    reproduction: pd.DataFrame
    audit: pd.DataFrame
    ledger: Ledger = field(repr=False, default=None)


def analyse(p: dict) -> Result:
    """The chapter's numbers and claims for the first input of `p` (`chapter.setup`'s return)."""
    path = Path(p["source"][0])
    df = ingest.read(path, tool="sglang-quant-report")
    rt = quant.runs(df)
    mbr = dict(p["metric_by_regime"])
    alpha = p["alpha"]
    base = quant.choose_baseline(rt["scheme"], p["baseline"])
    meta = quant.manifest(path)
    where = quant.placement(meta) | quant.stated_devices("\n".join(ingest._load_lines(path))) | quant.count_said(path)
    peaks = quant.peaks(p["gpu"], quant.device_texts(where), p["peak_tflops"], p["peak_bandwidth_gb_s"])
    params_b, model, model_source = quant.model_size(p["model_id"], [meta.get("model")])
    # flagged values with the timestamp signature stay out of every statistic and figure
    flag = quant.outliers(rt, p["outlier_rule"])
    left_out = quant.excludable(flag)
    clean = quant.drop_outliers(rt, left_out)
    win_all = quant.winner_sets(rt, mbr, alpha)
    win = quant.winner_sets(clean, mbr, alpha)
    spd = quant.speedups(clean, mbr, base, alpha)
    shape = quant.shapes(clean)
    sens = quant.metric_sensitivity(clean)
    pub = quant.published_ranking(df)
    pts = quant.roofline_points(clean, params_b) if params_b else quant.roofline_points(clean.iloc[0:0], 1.0)
    phys = (
        quant.outlier_physics(rt, left_out, params_b or 1.0)
        if params_b
        else quant.outlier_physics(rt, left_out.iloc[0:0], 1.0)
    )
    w8 = quant.slowest_at_largest_batch(spd, shape, quant.weight_only_schemes(clean["scheme"]))
    ratios = quant.phase_ratios(clean, w8, base, alpha) if w8 else quant.phase_ratios(clean.iloc[0:0], "", "")
    trend = quant.decode_trend(ratios)
    w8a8 = quant.best_against_baseline(clean, mbr, base, quant.int8_compute_schemes(clean["scheme"]), alpha)
    # the baseline is the published checkpoint: its precision as the model table states it, never assumed
    base_w = weights(model) if model and base == quant.DEFAULT_BASELINE else None
    base_prec = base_w.precision if base_w is not None and base_w.source not in ("assumed", "not stated") else None
    base_bpw = base_w.bytes_per_weight if base_prec else None
    n_cells = clean.groupby(["regime", "scheme"]).ngroups
    claims = [
        verdicts.w8a8_gain(w8a8, base, alpha, base_prec),
        verdicts.confound(where),
        verdicts.outlier_cells(flag, quant.timestamp_outliers(flag), n_cells, p["outlier_rule"]),
        verdicts.outlier_physics(phys, peaks, len(left_out.drop_duplicates(["source", "line"]))),
        verdicts.outlier_effect(
            quant.membership_changes(win_all, win), int(win_all["in_winner_set"].sum()), len(left_out)
        ),
        *[verdicts.winner(win, r, alpha) for r in quant.regime_order(win["regime"].unique())],
        verdicts.metric_changes(
            sens, clean.groupby("regime")["scheme"].nunique(), quant.metric_dependent(clean, alpha)
        ),
        verdicts.source_first_place(quant.first_place_differs(pub, win), pub),
        verdicts.decode_bandwidth(pts, peaks, params_b, base, base_bpw),
        verdicts.decode_trend(trend, w8, base, peaks),
        verdicts.large_batch_bound(pts, w8, peaks, params_b, p["bound_threshold"]),
        verdicts.long_prefill(ratios, w8, base),
    ]
    from benchbook.presentation import wording

    result = Result(
        path=path,
        parameters=dict(p),
        df=df,
        runs=rt,
        clean=clean,
        flagged=flag,
        left_out=left_out,
        winners=win,
        speedups=spd,
        shape=shape,
        sensitivity=sens,
        published=pub,
        points=pts,
        ratios=ratios,
        trend=trend,
        w8a8=w8a8,
        weight_only=w8,
        baseline=base,
        baseline_precision=base_prec,
        where=where,
        peaks=peaks,
        params_b=params_b,
        model=model,
        model_source=model_source,
        lesson=quant.lesson(peaks or quant.peaks("", where["stated"])),
        reproduction=checks.reproduce(path),
        audit=checks.audit(path, p["outlier_rule"]),
    )
    result.ledger = wording.ledger(CHAPTER, [config.relative(x) for x in p["source"]], claims)
    return result


def schemes(r: Result) -> list[str]:
    """Every scheme the chapter's tables can name: those run and those the source ranks."""
    ranked = r.published["scheme"] if "scheme" in r.published else ()
    return sorted({*r.runs["scheme"], *ranked})


def page(r: Result) -> Page:
    """Every text, figure and table of the chapter, drawn from `r`."""
    from benchbook.presentation import audit as audit_view
    from benchbook.presentation import placement, tables, wording
    from benchbook.presentation import quant as show

    mbr = dict(r.parameters["metric_by_regime"])
    alpha = r.parameters["alpha"]
    testable = r.reproduction[r.reproduction["agrees"].notna()]
    ttft = r.clean.groupby("regime")["implied_ttft"].median().reindex(r.shape.index)
    lesson = show.lesson_words(r.lesson)
    say = placement.in_place(r.ledger)
    texts = {
        "src": config.relative(r.path),
        "alpha": f"{alpha:g}",
        "conf": f"{100 * (1 - alpha):.0f}",
        "baseline": r.baseline or "a baseline (this input has none)",
        "prefill_words": show.prefill_words(r.clean, r.shape),
        "reproduced": wording.sentence(
            CHAPTER, "reproduced", n=len(testable), ok=int(testable["agrees"].astype(bool).sum())
        ),
        "dup_words": show.duplicate_words(checks.duplicate_labels(r.df)),
        "excluded": show.excluded_words(r.flagged, r.left_out),
        "sets_words": show.sets_words(r.winners),
        "phases_note": show.phases_note(r.weight_only, r.baseline),
        "heatmap_caption": show.heatmap_caption(r.speedups, r.baseline),
        **lesson,
    }
    markdown = {
        "measured": wording.sentence(
            CHAPTER,
            "measured",
            src=config.relative(r.path),
            n_runs=len(r.runs),
            n_schemes=r.runs["scheme"].nunique(),
            n_regimes=r.runs["regime"].nunique(),
            n_per_cell=int(r.runs.groupby(["regime", "scheme"]).size().median()),
        ),
        "setting": show.setting_words(r.where, r.peaks, r.model, r.model_source),
        "winner_claims": "\n".join(f"- {t}" for k, t in say.items() if k.startswith("here_winner_") and t),
        "withheld_block": placement.folded_box(r.ledger),
        **say,
    }
    figures = {"fig_lesson": show.lesson_figure(r.lesson)}
    if r.baseline and r.baseline in set(r.speedups["scheme"]) and r.speedups["speedup"].notna().any():
        figures["fig_heatmap"] = show.heatmap_figure(r.speedups, r.winners, r.baseline, alpha)
    groups = show.winners_regimes(r.winners)
    if groups:
        figures["fig_winners"] = show.winners_figure(r.winners, groups[0])
    if len(groups) > 1:
        figures["fig_winners_more"] = show.winners_figure(r.winners, groups[1])
    if r.params_b and len(r.points) and r.points["achieved_tflops"].notna().any():
        figures["fig_roofline"] = show.roofline_figure(r.points, r.peaks, r.model)
        texts["roof_caption"] = show.prefill_position(r.points, r.peaks.ridge() if r.peaks else None)
    if r.weight_only and r.ratios["ratio"].notna().any():
        figures["fig_phases"] = show.phases_figure(r.ratios, r.weight_only, r.baseline, r.peaks)
    for name in ("fig_heatmap", "fig_roofline", "fig_phases"):
        why = "" if name in figures else wording.sentence(CHAPTER, f"no_{name[4:]}", baseline=r.baseline)
        markdown[f"why_no_{name[4:]}"] = why
    texts.setdefault("roof_caption", "")
    # the scheme names, shown as short aliases in a table too wide for the column (`aliases`)
    named = schemes(r)
    table_frames = {
        "regimes": (show.regime_display(quant.regime_table(r.shape, ttft, mbr)), show.REGIME_MISSING, ()),
        "audit": (audit_view.audit_table(r.audit, ["defect", "line", "value", "evidence", "consequence"]), None, ()),
        "sensitivity": (show.sensitivity_table(r.sensitivity, r.published), show.SENSITIVITY_MISSING, named),
        "decision": (show.decision_table(r.winners, r.speedups, r.baseline, r.ledger), None, named),
    }
    tabs = {
        name: (lambda t=t, m=m, n=n: tables.show(t, missing=m or tables.MISSING, names=n))
        for name, (t, m, n) in table_frames.items()
    }
    return Page(r.ledger, texts=texts, markdown=markdown, figures=figures, tables=tabs)
