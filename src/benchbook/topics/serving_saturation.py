"""The serving_saturation chapter's logic: read a serving sweep, measure it (the curve, Little's law,
the roofline, goodput), judge it (the ledger) and say it (texts, figures, tables by name)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from benchbook import config, declarations, ingest
from benchbook.analysis import precision, roofline, serving
from benchbook.claims import Ledger
from benchbook.claims import serving as serving_claims
from benchbook.presentation import wording
from benchbook.topics import Page

CHAPTER = "serving_saturation"


@dataclass
class Result:
    """What the chapter measured and judged on one input."""

    p: dict
    inputs: list[str]
    runs: pd.DataFrame  # every run, with its sweep value `x`
    requests: pd.DataFrame  # per-request rows, where the input has them
    variable: str
    curve: pd.DataFrame
    apart: pd.DataFrame
    peaks: object
    said: dict  # what the input says of a device none was taken from (`analysis.roofline.said`)
    instances: tuple  # (fewest, most) serving instances one run spans (`analysis.serving.instances`)
    model: str | None
    tokenizers: list  # [tokenizer, line] the input names beside a served model of another name
    untied: list  # [model, line, how] the input names where it ties no model to a run (`serving.untied_models`)
    size: tuple  # total_b, active_b, where the size comes from, the input's line that states it (or None)
    weights: object
    lit: pd.DataFrame  # Little's law per run
    roofline: pd.DataFrame
    goodput: pd.DataFrame  # bounds from the percentiles
    exact: pd.DataFrame | None  # counted from per-request data
    queue: dict  # the closed-loop limits in this input's numbers (`serving.queue_limits`)
    ledger: Ledger
    set_aside: str | None
    named_at: tuple | None = None  # (source, line) of a model named only in a title or prose (`serving.named_at`)
    titled: tuple | None = None  # (names, line) of the heading that sizes a weights folder (`serving.titled_size`)
    served: tuple | None = (
        None  # (checkpoint, line) beside a served name such as `ensemble` (`serving.served_checkpoint`)
    )
    served_as: tuple | None = None  # (checkpoint, line) a launch command serves the runs' model name for (`served_as`)
    unnamed: list = None  # [model, line, how] the input says of runs with no model beside named ones (`unnamed_said`)


def analyse(p: dict) -> Result:
    """Every number and verdict of the chapter for the checked parameters `p` (`chapter.setup`)."""
    r, req = serving.load(p["source"])
    var = serving.choose_sweep(r, p["sweep"])
    r = r.assign(x=serving.sweep_x(r, var))
    is_apart = serving.apart(r, var)
    curve, apart = r[~is_apart].sort_values("x"), r[is_apart].sort_values("order")
    inputs = [config.relative(f) for f in p["source"]]
    texts = [f.read_text(encoding="utf-8", errors="replace") for f in p["source"]]
    texts += list(r["metadata"].dropna()) if "metadata" in r else []
    pk = roofline.choose(p["gpu"], texts, p["peak_bandwidth_gb_s"], p["peak_tflops"])  # none assumed
    said = roofline.said(roofline.named(texts)) if pk is None else {}  # a device named that the table lacks
    said.pop("device_sign_line", None)  # a line that only mentions a vendor (`NVIDIA AIPerf`) names no device
    said.pop("device_sign_words", None)
    said.update(serving.cores_said(p["source"]) if pk is None else {})  # ranks on cores, several a device
    inst = serving.instances(p["source"])
    pd_servers = serving.pd_instances(p["source"], r)  # one prefill and one decode launch of one size: 1P1D
    inst = (pd_servers, pd_servers) if pd_servers > 1 else inst
    named, pk = pk, serving.spanning(pk, r, inst)  # TP x PP x DP x instances: the devices one run's work spans
    said.update(serving.spans_said(named, r, inst) if pk is None else {})  # named, but no one count is theirs
    # one role's server of a disaggregated run: its devices unknown
    role = serving.role_said(p["source"]) if pd_servers == 1 else {}
    if role:
        pk, said = None, {**said, **role}
    # an xPyD layout whose servers state no parallelism: the run's devices are not counted, so no one peak
    layout = serving.layout_said(p["source"], r) if pk is not None and not role else {}
    if layout:
        pk, said = None, {**said, **layout, "layout_device": named.device}
    given = p["gpu"] or p["peak_bandwidth_gb_s"] > 0 or p["peak_tflops"] > 0
    per_run = None if given else serving.device_per_run(r, p["source"], inst)
    own = [d if d is not None else (pk, said, None) for d in per_run] if per_run else [(pk, said, None)] * len(r)
    if own and all(d[:2] == own[0][:2] for d in own):  # every block under one device's heading: the page's
        (pk, said, _), per_run = own[0], None
    elif per_run:  # blocks on different machines: each measured against its own, none is the page's
        said, pk = {"by_heading": serving.devices_said(r, own)}, None
    models = serving.models(r)
    untied = serving.untied_models(p["source"], models, r)
    unnamed = serving.unnamed_said(p["source"], r)  # runs with no model beside named ones: what the file says
    model = models[0] if len(models) == 1 else None
    per_run_weights = serving.run_precisions(r)  # runs whose own titles name different weights
    if model is None and not per_run_weights and (one := serving.untied_model(untied)):
        model = one  # the one model the input names (in a path or tied to no run) is the run's, as the page says
    # a line that only speaks of a model (`--checkpoint_dir .../checkpoint`) names none to size or quote
    stated = serving.stated_size(model, p["source"])
    total_b, active_b, size_source = serving.model_size(model, p["params_b"], stated)
    titled = serving.titled_size(model, p["source"]) if size_source == "unknown" else None
    if titled:  # a weights folder under a title that names the model (`/dsv3_fp8_weight`, `# ... DeepSeek-v3/R1`)
        total_b, active_b, size_source = titled[:3]
    # a served name its launch command ties to one checkpoint (`vllm serve M --served-model-name X`): the runs are M
    served_as = serving.served_as(model, p["source"]) if size_source == "unknown" and not titled else None
    if served_as:
        total_b, active_b, size_source = serving.model_size(served_as[0], p["params_b"], stated)
    # a served name (`ensemble`) beside the one checkpoint the input names (`BASE_MODEL=.../vicuna-7b-v1.3`)
    served = serving.served_checkpoint(model, p["source"]) if size_source == "unknown" and not titled else None
    named_weights = [n for v in precision.stated_names(p["source"]).values() for n in v]
    w = serving.weights(served_as[0] if served_as else model, r, named_weights)
    # one device named, no count of it stated, and weights it cannot hold alone: the run spans several
    unfit = {} if given or per_run else serving.unfit_said(pk, r, total_b, w, roofline.named(texts).counted)
    if unfit:
        pk, said = None, {**said, **unfit}
    lit = serving.littles_law(r, req)
    copies = serving.replicas(p["source"])  # each replica reads its own copy of the weights at every step
    offload = serving.cpu_offload(p["source"], models)  # weights in CPU memory: no GPU roof bounds a step
    rl = serving.decode_roofline(lit, active_b, w.bytes_per_weight, pk, w.precision, copies)
    if per_run:  # each run against the peaks of its own device
        rows = [
            serving.decode_roofline(lit.iloc[[k]], active_b, w.bytes_per_weight, own[k][0], w.precision, copies)
            for k in range(len(lit))
        ]
        rl = pd.concat(rows)
    rl_curve = rl[~is_apart.to_numpy()] if len(curve) else rl  # no curve: every run stands for itself
    rl_curve = serving.per_load(rl_curve, serving.ROOFLINE_MEANS) if len(rl_curve) else rl_curve
    low = rl_curve.sort_values("x").iloc[0] if len(rl_curve) else None
    has_tput = rl_curve["output_throughput"].notna().any() if len(rl_curve) else False
    best = rl_curve.loc[rl_curve["output_throughput"].idxmax()] if has_tput else None  # all failed: none
    kn = serving.knees(r, var, p["knee_threshold"])
    gb = serving.goodput_bounds(r, p["slo_ttft_ms"], p["slo_tpot_ms"])
    exact = serving.exact_goodput(req, p["slo_ttft_ms"], p["slo_tpot_ms"]) if len(req) else None
    queue = serving.queue_limits(lit[~is_apart.to_numpy()])
    # the load levels of the longest series: runs of two workloads are two series, never two levels of one
    levels = int(curve.groupby(serving.series_key(curve))["x"].nunique().max()) if len(curve) else 0
    mine = {(s_, ln): d for s_, ln, d in zip(r["source"], r.get("line", r["order"]), own, strict=True)}

    def at(row) -> tuple:
        """The peaks and the device evidence of a run (`row`): its own device's where blocks differ."""
        return (
            mine.get((row["source"], row.get("line")), (pk, said, None))[:2]
            if per_run and row is not None
            else (pk, said)
        )

    #: runs at one load (the same cap and rate) are configurations: none is the lightest load, nor the best one
    configurations = len(rl_curve) if low is not None and serving.one_load(rl_curve) else 0
    led = Ledger(CHAPTER, inputs)
    for c in (
        serving_claims.knee(kn, p["knee_threshold"], var, levels, queue),
        serving_claims.growth(curve, var, r),
        serving_claims.bandwidth(
            low,
            *at(low)[:1],
            active_b,
            w.bytes_per_weight,
            at(low)[1],
            len(models),
            served,
            w.source == "per run",
            w.precision,
            configurations,
        ),
        _offloaded(
            serving_claims.bound(
                "low", low, *at(low)[:1], p["bound_threshold"], w.assumed, at(low)[1], configurations=configurations
            ),
            offload,
        ),
        serving_claims.compute(best, *at(best), configurations=configurations, precision=w.precision),
        _offloaded(_bound_best(best, low, at(best)[0], p["bound_threshold"], w.assumed, at(best)[1]), offload),
        serving_claims.underfilled(lit, serving.cap_said(p["source"]) if r["max_concurrency"].isna().all() else None),
        serving_claims.uncapped(apart, curve, int(r["order"].min()) if len(r) else None, unnamed),
        serving_claims.tpot_itl(r),
        serving_claims.goodput(gb, p["slo_ttft_ms"], p["slo_tpot_ms"]),
        serving_claims.failed(r, serving.fact_said(p["source"], "prompts", "sent")),
        serving_claims.own_slos(serving.own_slo_bounds(r), serving.own_limits_possible(r)),
    ):
        led.add(c)
    return Result(
        p=p,
        inputs=inputs,
        runs=r,
        requests=req,
        variable=var,
        curve=curve,
        apart=apart,
        peaks=pk,
        said=said,
        instances=inst,
        model=model,
        tokenizers=serving.tokenizers(p["source"], models or [m for m, _, how in untied if how == "named"]),
        untied=untied,
        unnamed=unnamed,
        size=(total_b, active_b, size_source, stated[2] if stated and size_source == "input" else None),
        named_at=serving.named_at(model, p["source"]),
        titled=titled[3:] if titled else None,
        served=served,
        served_as=served_as,
        weights=w,
        lit=lit,
        roofline=rl,
        goodput=gb,
        exact=exact,
        queue=queue,
        ledger=wording.ledger(CHAPTER, inputs, led.claims),
        set_aside=ingest.set_aside_note(p["source"], tool=ingest.SERVING_TOOLS),
    )


def _book_slos(p: dict) -> bool:
    """Whether the page's SLOs are the book's defaults (no `-p slo_ttft_ms` / `slo_tpot_ms` changed them)."""
    spec = declarations.chapter(CHAPTER).spec()
    return all(p[k] == spec[k]["default"] for k in ("slo_ttft_ms", "slo_tpot_ms"))


def _offloaded(c, offload: tuple[float, int] | None):
    """A bound claim withheld where the server keeps weights in CPU memory (`serving.cpu_offload`)."""
    if offload is None:
        return c
    gb, line = offload
    return c.withhold(
        f"the server keeps {gb:g} GB of its weights in CPU memory (`--cpu-offload-gb {gb:g}`, line {line}), "
        "moved to the GPU at every step, so no roof of the GPU bounds it"
    )


def _bound_best(best, low, pk, threshold: float, assumed: bool, said: dict):
    """What limits the best load; where it is the lightest load too, its bound is said once, there."""
    c = serving_claims.bound("best", best, pk, threshold, assumed, said)
    if best is not None and low is not None and best.name == low.name:
        return c.not_applicable("the best load is the lightest one, whose bound is stated above")
    return c


def page(res: Result) -> Page:
    """Every text, figure and table the chapter shows, by the name its prose glues or shows."""
    from benchbook.presentation import outputs, placement, tables
    from benchbook.presentation import serving as show

    p, r, var = res.p, res.runs, res.variable
    knee = res.ledger.get("knee")
    pg = Page(res.ledger)
    saturation = show.plot_saturation(res.curve, res.apart, var, knee.evidence["x"] if knee.shown else None)
    pg.markdown.update(
        inputs=show.inputs_sentence(
            ", ".join(res.inputs),
            r,
            var,
            len(res.apart),
            res.tokenizers,
            res.untied,
            res.unnamed or [],
            [res.ledger.get(k).evidence.get("series") for k in ("knee", "growth")],
        ),
        rate_note=show.assumed_rate_note(r, serving.rate_said(p["source"])),
        asked_output=" ".join(t for t in (show.asked_output_note(r), show.output_mismatch_note(r)) if t),
        figures=show.figures_sentence(res.lit, res.goodput, p["slo_ttft_ms"], p["slo_tpot_ms"], book=_book_slos(p)),
        goodput_limits=show.goodput_limits(res.goodput, _book_slos(p)),
        curve_note=show.curve_note(res.curve, var),
        set_aside=res.set_aside or "",
        runs_intro=show.runs_intro(res.curve),
        apart_note=show.apart_message(res.apart, var, drawn=not hasattr(saturation, "benchbook_message")),
        lit_note=show.littles_note(res.lit),
        queue=show.queue_sentence(res.queue, knee.shown),
        goodput_source=show.goodput_source(res.exact, res.goodput),
        latency_note=show.tail_sentence(_listed(res)),
        undecided=placement.folded_box(res.ledger),
        **placement.in_place(res.ledger),
    )
    total_b, active_b, size_source, size_line = res.size
    fig_pareto, pareto_said = show.pareto_texts(r, var)
    pg.texts.update(
        device=show.device_sentence(
            res.peaks,
            res.model,
            total_b,
            active_b,
            size_source,
            res.weights,
            serving.devices(r) * res.instances[1],
            res.said,
            size_line=size_line,
            fewest=serving.fewest_devices(r) * res.instances[0],
            counts=serving.device_counts(r),
            untied=serving.untied_spans(r),
            dp_unstated=serving.fewest_devices(r) != serving.devices(r),
            dp_inside=serving.dp_inside(r),
            instances=res.instances[1],
            replicated=serving.replicated(p["source"]),
            models=serving.models(r),
            # where no precision is known: what the file says of one (the absence rule)
            precision_said=serving.fact_said(p["source"], "precision", "precision")
            if res.weights.precision is None or res.weights.assumed
            else None,
            named_at=res.named_at,
            titled=res.titled,
            served=res.served,
            served_as=res.served_as,
            per_run=serving.run_precisions(r) if res.weights.source == "per run" else None,
            drawn=not show.roofline_points(res.roofline).empty,
        ),
        threshold=f"{p['knee_threshold']:g}",
        threshold_pct=f"{100 * p['bound_threshold']:.0f}",
        slo_ttft=f"{p['slo_ttft_ms']:g}",
        slo_tpot=f"{p['slo_tpot_ms']:g}",
        pareto_sentence=pareto_said,
    )
    pg.figures.update(
        fig_queue=show.plot_queue(res.queue, knee.shown),
        fig_saturation=saturation,
        fig_tradeoff=show.plot_latency_tradeoff(r, var),
        fig_roofline=show.plot_roofline(res.roofline, res.peaks, var),
        fig_pareto=fig_pareto,
    )

    def each(ts):
        def shown() -> None:  # displays each table itself; returns nothing for `Page.show` to display
            for t in ts():
                outputs.display(t)

        return shown

    pg.tables.update(
        runs=each(lambda: show.runs_tables(res.curve)),
        apart=each(lambda: show.runs_tables(res.apart) if len(res.apart) else []),
        latency=each(lambda: show.latency_tables(_listed(res))),
        littles=lambda: outputs.display(tables.show(show.littles_table(res.lit))),
        goodput=each(
            lambda: (
                ([tables.show(show.exact_goodput_table(res.exact))] if res.exact is not None else [])
                + (
                    [tables.show(show.goodput_bounds_table(res.goodput))]
                    if serving.goodput_bounded(res.goodput).any()
                    else []
                )
            )
        ),
    )
    return pg


def _listed(res: Result) -> pd.DataFrame:
    """Every run in the order the page lists them: the curve's, then those kept apart."""
    parts = [t for t in (res.curve, res.apart) if len(t)]
    return pd.concat(parts, ignore_index=True) if len(parts) > 1 else (parts[0] if parts else res.curve)
