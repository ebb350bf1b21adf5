"""The bandwidth roofline chapter's figures, display tables and descriptions of the data (its claims'
sentences are in notebooks/bandwidth_roofline.claims.yml)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook import hardware
from benchbook.analysis import bandwidth
from benchbook.analysis import envelope as env
from benchbook.claims import Ledger
from benchbook.ingest import ollama_verbose
from benchbook.presentation import labels, wording
from benchbook.presentation.plotting import color, message_figure, tight
from benchbook.presentation.roofline import plot_roofline

#: What the figures show when the input has no generation result to place.
NO_RESULTS = "no generation result with a known device and size"


def _say(name: str, **values) -> str:
    """One of the chapter's descriptive sentences (notebooks/bandwidth_roofline.claims.yml, `sentences:`)."""
    return wording.sentence("bandwidth_roofline", name, **values)


def block(led: Ledger, kind: str) -> str:
    """The sentences of every claim of `kind`, one paragraph each (a sentence when there are none)."""
    claims = [c for c in led.claims if c.kind == kind or (kind == "bound" and c.id.startswith("bound_"))]
    if (
        kind == "bound"
        and claims
        and not any(c.evidence.get("bandwidth_fraction") is not None or c.shown for c in claims)
    ):
        return _say("no_fraction")
    text = wording.block(led, [c.id for c in claims])
    return text or _say("no_result")


def peak_lead(led: Ledger, ids, unit: str) -> str:
    """The peak each share of a section is of, and where it came from, said once before the shares:
    it is the device's, the same in every claim of that device, and said in each it stood eleven
    times on the seed page (issue 34). Only claims that state a share count; "" when none does."""
    peaks = _peaks(led, ids, unit)
    return _say("peak_lead", peaks=peaks) if peaks else ""


def shares(led: Ledger, ids, unit: str) -> str:
    """The section's shares of a peak: the lead naming the peak, then one paragraph per claim, which
    says only "of that peak" where the lead names one peak for all of them."""
    lead = peak_lead(led, ids, unit)
    said = {"peak": True} if len(_peaks(led, ids, unit)) == 1 else {}
    return "\n\n".join(t for t in (lead, wording.block_after(led, ids, **said)) if t)


def _peaks(led: Ledger, ids, unit: str) -> list[dict]:
    """The distinct peaks the shown shares among `ids` are of (device, peak, unit, kind, source)."""
    peaks: dict[tuple, dict] = {}
    for c in led.claims:
        e = c.evidence
        if c.id not in ids or c.status == "withheld" or not (e.get("device") and e.get("peak")):
            continue
        if e.get("peak_source") not in ("detected", "parameter"):
            continue
        what = f"dense {e['peak_precision']} peak" if e.get("peak_precision") else ""
        key = (e["device"], float(e["peak"]), e["peak_source"], what)
        peaks.setdefault(
            key,
            {"device": e["device"], "peak": float(e["peak"]), "unit": unit, "what": what, "source": e["peak_source"]},
        )
    return list(peaks.values())


def _left_out(runs: pd.DataFrame | None) -> list[dict]:
    """The vLLM `bench latency` runs read but not placed (`analysis.bandwidth.latency_runs`), each
    with its name, line, batch, mean latency (None where not printed) and why."""
    if runs is None or runs.empty:
        return []
    out = runs[runs["why_left_out"] != ""]
    return [
        dict(
            name=repr(r["run"] if isinstance(r["run"], str) and r["run"] else f"line {int(r['line'])}"),
            line=int(r["line"]),
            batch=float(r["batch_size"]) if np.isfinite(float(r["batch_size"])) else None,
            latency_s=float(r["latency_s"]) if np.isfinite(float(r["latency_s"])) else None,
            why=r["why_left_out"],
        )
        for _, r in out.iterrows()
    ]


def input_line(
    files: str,
    pts: pd.DataFrame,
    latency_runs: pd.DataFrame | None = None,
    every: pd.DataFrame | None = None,
    conflicted: list[dict] | None = None,
) -> str:
    """What was read and what each point is compared with, from the data and parameters only, and
    each vLLM `bench latency` run read but left out of the roofline, with why (`latency_runs`). The
    generation results counted are the placed ones (`pts`) and those `analysis.bandwidth.reduce` set
    aside (`every`, the table the sweep note lists), so the line and that table agree, with how many
    each reason set aside (`set_aside`), and those kept with no bytes per token said apart, as having no
    place under the roofline (`n_unsized`); the generation results the conflict screen set aside
    (`analysis.prefill.conflicted`) are counted apart, so the count is of those that can be used."""
    left_out = _left_out(latency_runs)
    n_conflicted = sum(len(g["lines"]) for g in conflicted or [] if g["kind"] == "generation")
    if pts.empty:
        return _say("input_line", files=files, n=0, left_out=left_out)
    sizes = pts["params_b"].dropna().round(1)
    devs = [
        (dev, g["peak_gb_s"].iloc[0], src)
        for (dev, src), g in pts.groupby(["device", "peak_source"], dropna=False, sort=False)
        if src != "unknown"
    ]
    return _say(
        "input_line",
        files=files,
        n=len(pts) + (int((~every["kept"].astype(bool)).sum()) if every is not None and len(every) else 0),
        n_placed=len(pts),
        n_unsized=int(pts["bytes_per_token"].isna().sum()) if "bytes_per_token" in pts else 0,
        set_aside=set_aside(every),
        n_vllm=int((pts["rate_kind"] == "lower bound").sum()) if "rate_kind" in pts else 0,
        size_low=sizes.min() if sizes.nunique() > 1 else None,
        size_high=sizes.max() if sizes.nunique() > 1 else None,
        devices=devs,
        n_unknown=int((pts["peak_source"] == "unknown").sum()),
        left_out=left_out,
        conflicted=n_conflicted,
    )


def set_aside(every: pd.DataFrame | None) -> list[tuple[int, str]]:
    """[(count, reason)] of the generation results `analysis.bandwidth.reduce` did not place, by its
    reason ("depth > 0", "slower settings", "another engine, build or configuration"; the engine
    each names is the table's), most first, then by reason."""
    if every is None or not len(every) or "why_dropped" not in every:
        return []
    why = every.loc[~every["kept"].astype(bool), "why_dropped"].astype(str).str.split(":").str[0]
    return sorted(((int(n), reason) for reason, n in why.value_counts().items()), key=lambda x: (-x[0], x[1]))


def latency_note(runs: pd.DataFrame) -> str | None:
    """What the page says of the input's vLLM `bench latency` runs: how their rate is read, and each
    run left out with why (None when the input has none)."""
    if runs is None or runs.empty:
        return None
    out = runs[runs["why_left_out"] != ""]
    left_out = [
        (repr(r["run"] if isinstance(r["run"], str) and r["run"] else f"line {int(r['line'])}"), int(r["line"]), why)
        for (_, r), why in zip(out.iterrows(), out["why_left_out"], strict=True)
    ]
    return _say(
        "latency_note",
        used=int((runs["why_left_out"] == "").sum()),
        lower_bound=bandwidth.LOWER_BOUND,
        left_out=left_out,
    )


def request_note(pts: pd.DataFrame, prompt: pd.DataFrame | None = None) -> str | None:
    """What the page says of each result that is llama.cpp's timings of one request: one rate, no
    repetitions and no spread, and, partly offloaded, that no GPU's roof alone bounds it; `prompt`, the
    prompt-processing points, whose requests' prompts are named as one request's too."""
    if pts is None or pts.empty or "one_request" not in pts:
        return None
    req = pts[pts["one_request"].eq(True)]
    if req.empty:
        return None
    asked = prompt[prompt["one_request"].eq(True)] if prompt is not None and "one_request" in prompt else None
    gen_line = {r["request"]: int(r["line"]) for _, r in req.iterrows() if pd.notna(r.get("request"))}
    prompts = []
    for _, r in asked.iterrows() if asked is not None else []:
        of = (
            gen_line.get(r.get("request"))
            if pd.notna(r.get("request"))
            else (int(req["line"].iloc[0]) if len(req) == 1 else None)
        )
        prompts.append(
            {
                "line": int(r["line"]),
                "rate": float(r["rate"]),
                "same": of is not None and len(req) == 1,  # the prompt of the one request described
                "of_line": of,  # the line of its request's generation, when that is described
                "label": None if pd.isna(r.get("caption")) else str(r["caption"]),
            }
        )
    items = [
        {
            "line": int(r["line"]),
            "rate": float(r["rate"]),
            "n_gen": None if pd.isna(r.get("test")) else str(r["test"])[2:] or None,
            "n_prompt": None if pd.isna(r.get("n_prompt")) else int(r["n_prompt"]),
            "ngl": None if pd.isna(r.get("ngl")) else int(r["ngl"]),
            "n_layers": None if pd.isna(r.get("n_layers")) else int(r["n_layers"]),
            "partial": r["offload"] == "partial",
            "unsure": r["offload"] == "partial" and bool(r.get("offload_unsure")),
            "ollama": r.get("timings") == ollama_verbose.FORMAT,
            "printer": _printer(r.get("timings")),
        }
        for _, r in req.iterrows()
    ]
    return _say("request_note", requests=items, prompts=prompts)


def _printer(timings) -> str | None:
    """The program other than llama.cpp and Ollama whose prefix the timing lines carry (`bigdl-llm timings`),
    else None."""
    from benchbook.ingest.llama_timings import FORMATS

    if not isinstance(timings, str) or timings in FORMATS or timings == ollama_verbose.FORMAT:
        return None
    return timings


def throughput_note(runs: pd.DataFrame) -> str:
    """What the page says of the input's vLLM `bench throughput` runs (batched, not single-stream):
    their rates and the weight bytes per token amortised over the batch; empty when there are none."""
    if runs is None or runs.empty:
        return ""
    table = hardware.hardware_table()
    bw = pd.to_numeric(table["memory_bandwidth_gb_s"], errors="coerce")
    fastest = [table.loc[bw.idxmax(), "gpu"], float(bw.max())] if bw.notna().any() else None
    rows = []
    for _, r in runs.iterrows():
        d = {k: (None if isinstance(v, float) and not np.isfinite(v) else v) for k, v in r.items()}
        d["name"] = repr(r["run"]) if isinstance(r["run"], str) and r["run"] else f"at line {int(r['line'])}"
        rows.append(d)
    return _say("throughput_note", runs=rows, fastest=fastest)


def lesson_sentence(pts: pd.DataFrame) -> str:
    """The ceiling worked in this input's numbers: the smallest dense model fully on its device (else
    the first placed result), its bytes per token, its device's ceiling and the share measured."""
    p = placed(pts)
    if p.empty:
        return _say("lesson", placed=False)
    dense = p[(p["architecture"] == "dense") & (p["offload"] == "full")]
    r = (dense if len(dense) else p).sort_values("bytes_per_token").iloc[0]
    gb = float(r["bytes_per_token"]) / 1e9
    ceiling = env.ceiling(float(r["peak_gb_s"]), gb)
    return _say(
        "lesson",
        placed=True,
        label=bandwidth.label(r),
        file_gib=r["file_gib"] if r["bytes_source"].startswith("file size (dense") else None,
        how=r["bytes_source"],
        gb=gb,
        device=r["device"],
        peak=float(r["peak_gb_s"]),
        ceiling=ceiling,
        rate=float(r["rate"]),
        share=env.share(float(r["rate"]), ceiling),
    )


#: Each figure's caption when it is drawn, and what it says when it is not.
CAPTIONS = {
    "ceiling": (
        "Generation rate (error bars: the ± printed by the tool) against the bytes read per token, under the line "
        "rate = peak bandwidth / bytes of each device, and half of it; log-log. No point can sit above its "
        "device's line: the nearer the line, the more of the memory's bandwidth the run used.",
        "Not drawn: no result has both a known device peak and a known size.",
    ),
    "fraction": (
        "Achieved bandwidth (bytes per token x tokens per second) as a share of its device's peak, one bar per "
        "placed result; error bars from the printed ± of the rate.",
        "Not drawn: no result has both a known device peak and a known size.",
    ),
    "roofline": (
        "The placed results of the device with the most of them on its roofline (2 FLOP per active parameter per "
        "token): every one sits on the sloped, bandwidth side, far left of the ridge.",
        "Not drawn: no device of this input has both peaks (bandwidth and compute) to draw a roofline.",
    ),
}


def caption(name: str, drawn: bool) -> str:
    """The caption of figure `name`, or the sentence saying why it was not drawn."""
    return CAPTIONS[name][0 if drawn else 1]


def coverage_note(
    n: int,
    models: int | None = 1,
    one_device: bool = True,
    named_several: bool = False,
    set_aside: bool = False,
    requests: bool = False,
    drafted: int = 0,
) -> str | None:
    """What the chapter says up front when the input cannot support a comparison of models: `n` results
    placed, of the `models` the input's runs name (one placed result is not one model in the input; None
    where some run names no model);
    `one_device`: every generation row ran on one device (`analysis.bandwidth.one_device`);
    `named_several`: some row's own `dev` column names more than one device; `set_aside`: the conflict
    screen set rows aside (`analysis.prefill.conflicted`), whose models the count cannot see; `requests`: the
    results are llama.cpp's timings of requests, which print no split mode; `drafted`: requests whose decode
    a drafter made, which the input holds and the chapter does not place."""
    if n not in (0, 1):
        return None
    return _say(
        "coverage_note",
        n=n,
        models=models or 0,
        unnamed=models is None,
        one_device=one_device,
        named_several=named_several,
        set_aside=set_aside,
        requests=requests,
        drafted=drafted,
    )


def drafted_note(drafted: list[dict]) -> str | None:
    """The requests whose decode a drafter made (`analysis.bandwidth.drafted`), each by its line: held by the
    input, not placed."""
    return _say("drafted_note", items=drafted) if drafted else None


def stopped_note(stopped: list[str]) -> str | None:
    """The parsers' notes of a run that failed after its last row (`ingest.llama_bench.failed_after`)."""
    return _say("stopped_note", items=[m.removeprefix("warning: ") for m in stopped]) if stopped else None


def sweep_note(swept: dict, n_dropped: int) -> str:
    """One paragraph on the rows the chapter did not place and the rule that chose them."""
    if not n_dropped:
        return ""
    return _say("sweep_note", swept=swept, n_dropped=n_dropped, rule=bandwidth.REDUCE_RULE)


#: The settings the sweep table can show, in its column order.
#: The run tables' headers for llama-bench's settings and rates, in a reader's words.
COLUMN_LABELS = {
    "power_limit_w": "power limit (W)",
    "n_cpu_moe": "MoE layers on CPU",
    "n_ubatch": "micro-batch",
    "fa": "flash attention",
    "extra_settings": "other settings",
    "rate": "tok/s",
    "rate_std": "± (tok/s)",
}
SWEEP_SETTINGS = [
    "model_key",
    "engine",
    "mode",
    "gpu",
    "test",
    "power_limit_w",
    "threads",
    "ngl",
    "n_cpu_moe",
    "n_ubatch",
    "fa",
    "extra_settings",
]


def sweep_constants(allrows: pd.DataFrame) -> str:
    """The settings every generation result shares, said once above the table instead of in a column."""
    same = [c for c in SWEEP_SETTINGS[1:] if c in allrows.columns and allrows[c].notna().all()]
    same = [c for c in same if allrows[c].nunique() == 1]
    if "mode_said" in allrows.columns and not allrows["mode_said"].fillna(False).astype(bool).all():
        same = [c for c in same if c != "mode"]  # a mode no row's output tells is the analysis's default, no fact
    words = {"gpu": "device", "ngl": "GPU layers", "fa": "flash attention", "extra_settings": "other settings"}
    return "Every row: " + "; ".join(f"{words.get(c, c)} {allrows[c].iat[0]}" for c in same) + "." if same else ""


def sweep_table(allrows: pd.DataFrame) -> pd.DataFrame:
    """Every generation result, with the settings that vary (those shared are in `sweep_constants`)
    and why it was kept or not. A mode no row's output tells (the analysis's default) is left empty."""
    if "mode_said" in allrows.columns and "mode" in allrows.columns:
        allrows = allrows.assign(mode=allrows["mode"].where(allrows["mode_said"].fillna(False).astype(bool)))
    cols = [c for c in SWEEP_SETTINGS if c in allrows.columns and allrows[c].notna().any()]
    cols = [c for c in cols if c == "model_key" or allrows[c].nunique(dropna=False) > 1]
    t = allrows[cols + ["rate", "rate_std", "kept", "why_dropped"]].copy()
    if "power_limit_w" in t:  # no power heading: the card ran at its default limit
        t["power_limit_w"] = t["power_limit_w"].map(lambda w: "default" if pd.isna(w) else f"{w:.0f}")
    t["why_dropped"] = t["why_dropped"].replace("", None)
    if "model_key" in t:  # the figures' short name: no .gguf, no shard suffix (-00001-of-00003)
        t["model_key"] = t["model_key"].map(lambda m: bandwidth.label({"model_file": m}) if isinstance(m, str) else m)
    return t.rename(columns={**COLUMN_LABELS, "model_key": "model", "why_dropped": "why not placed"})


def bytes_table(pts: pd.DataFrame) -> pd.DataFrame:
    """Bytes read per token per model, with the parameter counts and how the bytes were counted."""
    show = pts.assign(label=[bandwidth.label(r) for _, r in pts.iterrows()], gb_per_token=pts["bytes_per_token"] / 1e9)
    cols = ["label", "architecture", "file_gib", "params_b", "active_params_b", "gb_per_token", "bytes_source"]
    return show[cols].rename(
        columns={
            "file_gib": "file (GiB)",
            "params_b": "params (B)",
            "active_params_b": "active params (B)",
            "gb_per_token": "GB read / token",
            "bytes_source": "how counted",
        }
    )


def placed(pts: pd.DataFrame) -> pd.DataFrame:
    """The points that have a fraction of a known peak."""
    return pts[pts["fraction_of_peak"].notna()] if len(pts) else pts


def main_device(pts: pd.DataFrame) -> str | None:
    """The device with the most placed points (the roofline figure is drawn for it)."""
    p = placed(pts)
    return str(p["device"].value_counts().index[0]) if len(p) else None


# ---------------------------------------------------------------------------------------------
# Figures


def _marker(r) -> tuple[str, int, str]:
    if r["offload"] == "partial":
        return "X", 3, f"{r['architecture']}, partly offloaded"
    if r["offload"] == "cpu":
        return "D", 2, f"{r['architecture']}, CPU only"
    return ("s", 1, "moe, all on the device") if r["architecture"] == "moe" else ("o", 0, "dense, all on the device")


def plot_ceiling(ax, pts: pd.DataFrame) -> None:
    """Generation rate (± the printed std) vs GB read per token (log-log), under each device's line
    rate = peak bandwidth / bytes."""
    p = placed(pts)
    x = np.logspace(
        np.log10(max(p["bytes_per_token"].min() / 1e9 / 2, 0.05)), np.log10(p["bytes_per_token"].max() / 1e9 * 2), 100
    )
    for i, ((dev, bw), _) in enumerate(p.groupby(["device", "peak_gb_s"], sort=False)):
        ax.plot(x, bw / x, color="black", lw=2, ls=["-", "-.", ":"][i % 3], label=f"{bw:,.0f} GB/s ceiling ({dev})")
        ax.plot(x, 0.5 * bw / x, color="grey", ls="--", lw=1, label="50% of that peak" if i == 0 else None)
    seen = set()
    for _, r in p.iterrows():
        marker, c, lab = _marker(r)
        ax.errorbar(
            r["bytes_per_token"] / 1e9,
            r["rate"],
            yerr=0 if pd.isna(r["rate_std"]) else r["rate_std"],
            fmt=marker,
            ms=8,
            color=color(c),
            zorder=3,
            label=lab if lab not in seen else None,
        )
        seen.add(lab)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.margins(x=0.2)
    ax.set_xlabel("bytes read per generated token (GB)")
    ax.set_ylabel("generation rate (tok/s)")


def label_points(ax, pts: pd.DataFrame) -> list[str]:
    """Each placed model named beside its point where there is room; returns the names left out (the
    bytes table above the figure lists every model)."""
    p = placed(pts)
    return labels.place(ax, [(r["bytes_per_token"] / 1e9, r["rate"], bandwidth.label(r)) for _, r in p.iterrows()])


def plot_fraction(ax, pts: pd.DataFrame) -> None:
    """Achieved bandwidth as a percentage of its device's peak, one bar per model (± from the
    printed std of the rate)."""
    p = placed(pts).sort_values("fraction_of_peak")
    colors = [color(_marker(r)[1]) for _, r in p.iterrows()]
    err = 100 * p["fraction_of_peak"] * (p["rate_std"] / p["rate"]).fillna(0)
    ax.barh([bandwidth.label(r) for _, r in p.iterrows()], 100 * p["fraction_of_peak"], xerr=err, color=colors)
    ax.axvline(100, color="black", lw=1)
    ax.set_xlabel("achieved bandwidth (% of the device's peak)")
    ax.set_xlim(0, max(105, 100 * p["fraction_of_peak"].max() * 1.1))


def ceiling_figure(pts: pd.DataFrame):
    """`plot_ceiling` as a Figure (a message when nothing can be placed)."""
    import matplotlib.pyplot as plt

    if placed(pts).empty:
        return message_figure(NO_RESULTS)
    fig, ax = plt.subplots(figsize=(8, 5.5))
    plot_ceiling(ax, pts)
    ax.set_title("Generation rate vs bytes per token, under the bandwidth ceiling")
    handles, names = ax.get_legend_handles_labels()
    fig.legend(handles, names, loc="lower center", ncols=2, fontsize=8, bbox_to_anchor=(0.5, 0.0))
    fig.tight_layout(rect=(0, 0.04 + 0.035 * ((len(names) + 1) // 2), 1, 1))
    label_points(ax, pts)
    return fig


def fraction_figure(pts: pd.DataFrame):
    """`plot_fraction` as a Figure, one bar per model (a message when nothing can be placed)."""
    import matplotlib.pyplot as plt

    n = len(placed(pts))
    if not n:
        return message_figure(NO_RESULTS)
    fig, ax = plt.subplots(figsize=(7.5, max(2.5, 0.8 + 0.45 * n)))
    plot_fraction(ax, pts)
    ax.set_title("Achieved bandwidth as a share of peak")
    tight(fig)
    return fig


def roofline_device(pts: pd.DataFrame) -> str | None:
    """The device whose roofline the chapter draws: the one with the most placed points, when it has
    a compute peak as well (None otherwise: no roofline to draw)."""
    dev = main_device(pts)
    p = placed(pts)
    p = p[(p["device"] == dev) & p["intensity_flop_per_byte"].notna()] if dev else p.iloc[0:0]
    return dev if len(p) and pd.notna(p["peak_tflops"].iloc[0]) else None


def roofline_figure(pts: pd.DataFrame):
    """The placed points of the main device on its roofline (a message when it has no compute peak)."""
    import matplotlib.pyplot as plt

    dev = roofline_device(pts)
    if dev is None:
        return message_figure("no device with both peaks (bandwidth and compute) to draw a roofline")
    p = placed(pts)
    p = p[(p["device"] == dev) & p["intensity_flop_per_byte"].notna()]
    g = hardware.custom(dev, float(p["peak_gb_s"].iloc[0]), float(p["peak_tflops"].iloc[0]))
    fig, ax = plt.subplots(figsize=(8, 5))
    plot_roofline(ax, g, None, xlim=(0.5, 1000))
    # each point in its kind's colour and marker, as in the ceiling and share figures (a colour per model
    # here gave one model two colours on one page)
    kinds = pd.DataFrame([_marker(r) for _, r in p.iterrows()], columns=["marker", "colour", "kind"], index=p.index)
    for (marker, c, kind), g_ in p.groupby([kinds["marker"], kinds["colour"], kinds["kind"]], sort=False):
        ax.scatter(
            g_["intensity_flop_per_byte"], g_["achieved_tflops"], marker=marker, color=color(c), zorder=3, label=kind
        )
    ax.legend(fontsize=8)
    ax.set_title(f"Generation on the {dev} roofline\n(2 FLOP per active parameter per token)")
    tight(fig)
    return fig


# ---------------------------------------------------------------------------------------------
# Prompt processing and the settings a run sweeps


def prefill_intro(
    pp: pd.DataFrame, n_claims: int, unparsed: list[dict] | None = None, conflicted: list[dict] | None = None
) -> str:
    """What the prompt-processing section measures, on this input; where its only pp records do not
    parse, their tests and lines (a result the input holds, not an absent one); how many pp results
    the conflict screen set aside (`analysis.prefill.conflicted`), so the count is of those used; which
    are llama.cpp's requests or llama-sweep-bench's rows, not llama-bench tests."""
    n_set_aside = sum(len(g["lines"]) for g in conflicted or [] if g["kind"] == "prompt-processing")
    requests = int(pp["one_request"].eq(True).sum()) if "one_request" in pp else 0
    swept = int(pp["table_line"].notna().sum()) if "table_line" in pp else 0  # llama-sweep-bench's rows
    return _say(
        "prefill_intro",
        swept=swept,
        n=len(pp),
        models=n_claims,
        unparsed=list(unparsed or []),
        conflicted=n_set_aside,
        requests=requests,
    )


def conflict_note(groups: list[dict]) -> str:
    """The results the output prints more than once with different rates, none of them used, with
    their lines (`analysis.prefill.conflicted`): results the input holds, said beside the count."""
    return _say("conflict_note", groups=groups)


def sweep_sentences(found: list[dict], constant: list[tuple]) -> str:
    """The settings every result shares (`analysis.prefill.constants`), then each sweep of one
    setting (`analysis.prefill.sweeps`) as one bullet, its rate per value."""
    lines = [_say("setting_sweep", **s) for s in found]
    swept = "\n".join(f"- {t}" for t in lines if t) or _say("no_sweep")
    return "\n\n".join(t for t in (_say("settings_constant", settings=constant), swept) if t)


def prefill_table(pp: pd.DataFrame) -> pd.DataFrame:
    """Every prompt-processing rate with its settings that vary, FLOP/s and share of the dense peak."""
    cols = [c for c in SWEEP_SETTINGS if c in pp.columns and pp[c].notna().any()]
    cols = [c for c in cols if c not in ("model_key", "test") and pp[c].astype("string").nunique(dropna=False) > 1]
    t = pp[["label", *cols, "test", "rate", "rate_std", "tflops", "share", "line"]].copy()
    t["share"] = t["share"].map(lambda v: f"{v:.1%}" if pd.notna(v) else "not stated")
    return t.rename(
        columns={
            **COLUMN_LABELS,
            "label": "model",
            "gpu": "device",
            "tflops": "TFLOP/s (2 x params x tok/s)",
            "share": "share of the dense peak",
        }
    )
