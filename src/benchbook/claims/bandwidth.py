"""The bandwidth roofline chapter's verdicts: per model, the fraction of the device's peak bandwidth
the weight streaming reaches (`fraction_of_peak`) and what limits it (`bound`); across models,
whether larger dense models come closer to the peak (`scaling`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.analysis import bandwidth, roofline
from benchbook.claims import Claim, make, reasons
from benchbook.claims.rules import NOT_COMPUTE, relative_noise
from benchbook.nouns import counted

#: Points a size trend needs.
TREND_MIN_POINTS = 3

#: llama-bench's default repetitions (`-r 5`): a printed mean is the mean of that many runs.
REPS = 5
#: The chapter's noise rule, for the rules' text.
NOISE = (
    "noise: 2 standard errors of the rate, its printed standard deviation / sqrt(repetitions) (the command's -r, "
    "else llama-bench's default 5), combined in quadrature for two rates"
)


def rate_noise(p: pd.Series, q: pd.Series | None = None) -> float | None:
    """The relative band one rate (or, with `q`, the ratio of two) is judged in: 2 combined standard
    errors (NOISE), each over the repetitions its command line asked for (`-r`, `n_reps`), else
    llama-bench's default. None when no standard deviation is printed."""
    rows = [r for r in (p, q) if r is not None]
    sds = [_num(r.get("rate_std")) for r in rows]
    if all(v is None for v in sds):
        return None
    reps = [_num(r.get("n_reps")) or REPS for r in rows]
    ses = [0.0 if v is None else v / n**0.5 for v, n in zip(sds, reps, strict=True)]
    return relative_noise(*(ses + [0.0])[:2], _num(p.get("rate")))


def _num(v):
    return None if v is None or pd.isna(v) else float(v)


def suspects(p: pd.Series) -> list[str]:
    """What would most likely explain a fraction above 100 % for this point (no commas inside an
    item: the page lists them)."""
    out = []
    src = p.get("peak_source")
    if src == "detected":
        out.append(f"the device ({p['device']} was named in the input and another device has another peak)")
    elif src == "parameter":
        out.append(f"the device given as a parameter ({p['device']}) may not be the one the run used")
    vllm = p.get("rate_kind") == "lower bound"
    if p.get("offload") == "cpu" and p.get("sockets_status") != "stated":  # stated: the machine's own count
        n = int(p["sockets"]) if _num(p.get("sockets")) else 1
        out.append(
            f"more CPU sockets than the {n} assumed (a multi-socket machine spreads its threads and pages over "
            "every socket and their memory bandwidths add: pass peak_bandwidth_gb_s)"
        )
    elif not _num(p.get("in_turn")):  # a layer split over several GPUs reads them in turn: no bandwidths add
        out.append(
            "several GPUs (a tensor-parallel vLLM run splits the weights and their bandwidths add)"
            if vllm
            else f"several GPUs (a {bandwidth.split_mode(p)} split reads every GPU at once and their bandwidths add)"
            if bandwidth.split_mode(p) in bandwidth.CONCURRENT_MODES
            else "several GPUs (llama-bench splits the layers over every visible GPU by default; with a row split "
            "their bandwidths add)"
        )
    if vllm and p.get("precision_source") == "assumed":
        out.append("a wrong bytes per weight (bf16 is assumed for `--dtype auto`: a quantized checkpoint reads fewer)")
    elif vllm:
        where = {"name": "model's name", "checkpoint": "model table's checkpoint"}.get(
            p.get("precision_source"), "output"
        )
        out.append(f"a wrong bytes per weight (the weights' precision comes from the {where})")
    if p.get("architecture") == "dense":
        out.append("an MoE model counted as dense (its name matched no MoE pattern so all its weights were counted)")
    elif p.get("architecture") == "ple":
        out.append(
            f"the effective-parameter count taken for this model ({_num(p.get('active_params_b'))}B: its per-layer "
            "embedding rows counted as looked up, one row a token, not read whole)"
        )
    else:
        out.append(f"the active-parameter count assumed for this MoE model ({_num(p.get('active_params_b'))}B)")
    if p.get("may_fit_in_cache"):
        out.append(
            f"weights small enough to stay in the device's {_num(p.get('llc_mb')):g} MB last-level cache between tokens"
        )
    elif p.get("llc_unknown"):
        out.append(
            "weights that may stay in the device's last-level cache between tokens (LLC unknown: the table has no figure)"
        )
    out.append("a unit mistaken (per-GPU against total or tokens against sequences)")
    return out


def fraction(p: pd.Series, claim_id: str) -> Claim:
    """Achieved weight-streaming bandwidth / the device's peak for one model."""
    ev = {
        "fraction": _num(p.get("fraction_of_peak")),
        "peak": _num(p.get("peak_gb_s")),
        "unit": "GB/s",
        "device": p.get("device") if p.get("peak_source") != "unknown" else None,
        "peak_source": p.get("peak_source"),
        "streaming": True,
        "bytes_per_token": _num(p.get("bytes_per_token")),
        "gb_per_token": _num(p.get("bytes_per_token")) / 1e9 if _num(p.get("bytes_per_token")) else None,
        "active_params_b": _num(p.get("active_params_b")),
        "params_b": _num(p.get("params_b")),
        "architecture": p.get("architecture"),
        "size_source": p.get("size_source"),
        "model": p.get("model"),
        "label": bandwidth.label(p),
        "test": p.get("test"),
        "rate": _num(p.get("rate")),
        "achieved_gb_s": _num(p.get("bandwidth_gb_s")),
        "mode": p.get("mode"),
        "host_cpu": p.get("cpu") if p.get("mode") == "unknown" and isinstance(p.get("cpu"), str) else None,
        "offload": p.get("offload"),
        "offload_why": p.get("offload_why") or None,
        "printed_device": p.get("gpu") if isinstance(p.get("gpu"), str) else None,
        "may_fit_in_cache": bool(p.get("may_fit_in_cache")),
        "llc_unknown": bool(p.get("llc_unknown")),
        "llc_mb": _num(p.get("llc_mb")),
        "sockets": int(p["sockets"]) if _num(p.get("sockets")) else 1,
        "threads": _num(p.get("threads")),
        # one socket's hardware threads, from the hardware table (the run's sockets are inferred from it)
        "threads_per_socket": _num(p.get("cpu_threads")) / int(p["sockets"])
        if _num(p.get("cpu_threads")) and _num(p.get("sockets"))
        else None,
        # what the file says of the machine's sockets (`bandwidth.sockets_said`, the absence rule)
        **{k: p.get(k) if isinstance(p.get(k), str) else _num(p.get(k)) for k in bandwidth.SOCKETS_SAID},
        "line": int(p["line"]),
        "suspects": suspects(p),
        "in_turn": int(_num(p.get("in_turn"))) if _num(p.get("in_turn")) else None,
        "two_devices": TWO_DEVICES["gpus_unstated"]
        if _gpus_unstated(p)
        else TWO_DEVICES["rpc_spanned"]
        if _rpc_spanned(p)
        else None,
        "titled_line": _num(p.get("title_line")),  # the document title that sized the model
        # `-ser Kmin,t` on an MoE row: fewer experts a token than the model routes, so fewer bytes than counted
        "experts_reduced": list(bandwidth.experts_reduced(p) or ()) if p.get("architecture") == "moe" else [],
    }
    if p.get("rate_kind") == "lower bound":  # vLLM latency: output_len / latency, prefill included
        ev.update(rate_lower_bound=True, latency_s=_num(p.get("latency_s")), output_len=_num(p.get("output_len")))
    return make(claim_id, "fraction_of_peak", "bytes per token x rate / peak bandwidth; above 1 is implausible", ev)


def _gpus_unstated(p: pd.Series) -> bool:
    """A row split over GPUs the input does not count (`bandwidth.gpus_unstated`), measured against the device
    the input names; a device given as a parameter is the reader's statement of what ran."""
    return p.get("peak_source") == "detected" and bandwidth.gpus_unstated(p)


def _rpc_spanned(p: pd.Series) -> bool:
    """A row whose layers beyond its GPU sit on RPC servers' devices (`bandwidth.rpc_spanned`; NaN in a table
    whose other rows lack the column)."""
    v = p.get("rpc_spanned")
    return isinstance(v, (bool, np.bool_)) and bool(v)


def bound(p: pd.Series, claim_id: str, threshold: float) -> Claim:
    """What limits one model's generation: memory bandwidth, compute, or neither (overhead). A
    partly offloaded run streams over two buses, so no single roof applies: withheld."""
    ev = {
        "verdict": None,
        "bandwidth_fraction": _num(p.get("fraction_of_peak")),
        "compute_fraction": _num(p.get("compute_fraction")),
        "intensity": _num(p.get("intensity_flop_per_byte")),
        "ridge": _num(p.get("ridge")),
        "threshold": threshold,
        "noise": rate_noise(p),
        "lowest_ridge": roofline.lowest_ridge()[0],
        "lowest_ridge_device": roofline.lowest_ridge()[1],
        "label": bandwidth.label(p),
        "device": p.get("device") if p.get("peak_source") != "unknown" else None,
        "mode": p.get("mode"),
        "host_cpu": p.get("cpu") if p.get("mode") == "unknown" and isinstance(p.get("cpu"), str) else None,
        "line": int(p["line"]),
    }
    rule = (
        "fractions of the two roofs against the threshold, intensity against the ridge; with no known device, an "
        "intensity below the lowest ridge of any device in the hardware table is not compute-bound; fragile when "
        "the deciding fraction is within the " + NOISE + " of the threshold"
    )
    c = make(claim_id, "bound", rule, ev)
    why = _bound_withheld(p, c)
    if isinstance(why, Claim):
        return why
    if why is None:
        return c
    key, values = why
    c.evidence.update(values)
    return c.withhold(key)


def _bound_withheld(p: pd.Series, c: Claim) -> tuple[str, dict] | Claim | None:
    """Why the bound verdict `c` is withheld, as a key of the chapter's `reasons:` for `bound_*` (its
    wording is in notebooks/bandwidth_roofline.claims.yml) and the values it needs; a partly offloaded
    model's verdict from arithmetic where it has one; None where the verdict stands."""
    if p.get("architecture") == "moe" and _num(p.get("active_params_b")) is None:  # the first thing it lacks
        return "moe_active_unknown", {}
    if _gpus_unstated(p):  # a row split over GPUs the input does not count: no roof to weigh against
        return "gpus_unstated", {}
    if p.get("offload") == "partial" and c.status != "implausible":
        split = offload_split(p, c.id)
        if split is not None:
            return split
        return ("offload_unsure", {"ngl": int(p["ngl"])}) if p.get("offload_unsure") else ("offloaded", {})
    if (
        p.get("architecture") == "moe"
        and str(p.get("bytes_source") or "").startswith("file size x")
        and bandwidth.experts_smaller(p)
        and c.status == "shown"
        and c.evidence["verdict"] == "overhead"
    ):
        return "experts_smaller", {"file_bits": bandwidth.file_bits_per_param(p)}
    if p.get("offload") == "cpu" and c.status == "shown" and c.evidence["verdict"] in (NOT_COMPUTE, "overhead"):
        cpu = _cpu_compute_unknown(p)
        if cpu:
            return cpu
    if p.get("rate_kind") == "lower bound" and c.status == "shown" and c.evidence["verdict"] != "memory-bandwidth":
        return "rate_lower_bound", {}
    mb = {"mb_per_token": _num(p.get("bytes_per_token")) / 1e6} if _num(p.get("bytes_per_token")) else {}
    if p.get("may_fit_in_cache") and c.status == "shown":
        return "fits_in_cache", {**mb, "llc_mb": _num(p.get("llc_mb"))}
    if p.get("llc_unknown") and c.status == "shown":
        return "llc_unknown", mb
    return None


def _cpu_compute_unknown(p: pd.Series) -> tuple[str, dict] | None:
    """Why a CPU-only run's compute roof is not known (a key of the chapter's `reasons:` and its
    values), or None where it is: the hardware table's compute peak of a CPU is every hardware thread
    busy, so a run on fewer threads (or on a CPU the table lacks) has a lower roof, and a small share
    of the table's peak, or an intensity below every device's ridge, does not show that compute does
    not limit it (one core may not keep up with DRAM)."""
    threads, chip = _num(p.get("threads")), _num(p.get("cpu_threads"))
    named = p.get("device") if isinstance(p.get("device"), str) and p.get("device").strip() else None
    values = {"threads": int(threads) if threads else None, "cpu": named, "cpu_threads": int(chip) if chip else None}
    if p.get("peak_source") == "unknown" and named:  # named, but not a row of the table
        return "cpu_not_in_table", values
    if p.get("peak_source") == "unknown" or not p.get("device"):
        return "cpu_unnamed", values
    if not chip:
        return "cpu_threads_unknown", values
    if not threads or threads < chip:
        return "cpu_fewer_threads", values
    return None


def offload_split(p: pd.Series, claim_id: str) -> Claim | None:
    """A partly offloaded model's verdict from arithmetic: the time its on-GPU share of the weights
    (at most `gpu_bytes_per_token`) needs at the GPU's peak bandwidth, against the measured time per
    token. Shown when the token takes longer beyond the noise: the part on the host sets the pace.
    None when the split or the GPU's peak is not known."""
    gpu_b, peak, rate = _num(p.get("gpu_bytes_per_token")), _num(p.get("peak_gb_s")), _num(p.get("rate"))
    if gpu_b is None or not peak or not rate or p.get("peak_source") in (None, "unknown"):
        return None
    token_ms, gpu_ms = 1000 / rate, gpu_b / (peak * 1e9) * 1000
    ev = {
        "a": token_ms,
        "b": gpu_ms,
        "ratio": token_ms / gpu_ms if gpu_ms else None,
        "noise": rate_noise(p),
        "gpu_gb": gpu_b / 1e9,
        "gb_per_token": _num(p.get("bytes_per_token")) / 1e9 if _num(p.get("bytes_per_token")) else None,
        "offload_why": p.get("offload_why") or None,
        "label": bandwidth.label(p),
        "device": p.get("device"),
        "peak": peak,
    }
    rule = (
        "comparison: measured time per token / the time the on-GPU share of the weights (at most) needs at the "
        "GPU's peak bandwidth; beyond the " + NOISE + ", the part on the host sets the pace"
    )
    c = make(claim_id, "comparison", rule, ev)
    if c.shown and token_ms < gpu_ms:
        return c.withhold("the token takes less time than the GPU's share alone needs at its peak: the split is wrong")
    return c


def size_trend(pts: pd.DataFrame) -> Claim:
    """Among dense models fully on one device, the fraction of peak rises with the bytes per token (measured
    decode rates only)."""
    # a share above 100 % is not a result (beyond physics: `fraction`'s implausible), so no point of a trend
    d = pts[(pts["architecture"] == "dense") & (pts["offload"] == "full") & (pts["fraction_of_peak"] <= 1)]
    if "rate_kind" in d:  # a lower-bound rate (vLLM latency, prefill included) is no point of a trend
        d = d[d["rate_kind"] != "lower bound"]
    if "may_fit_in_cache" in d:
        d = d[~d["may_fit_in_cache"].astype(bool)]
    if "llc_unknown" in d:  # nor one whose cache residence cannot be judged
        d = d[~d["llc_unknown"].astype(bool)]
    if len(d):
        main = d["device"].value_counts().index[0]
        d = d[d["device"] == main].sort_values("bytes_per_token")
    rows = [r for _, r in d.iterrows()]
    ev = {
        "xs": d["bytes_per_token"].tolist(),
        "ys": d["fraction_of_peak"].tolist(),
        "direction": "rises",
        "tolerance": 0.0,
        "noise": [rate_noise(a, b) for a, b in zip(rows, rows[1:], strict=False)],
        "min_points": TREND_MIN_POINTS,
        "point_is": "a measured decode rate of a dense model fully on one device, with a known share of its peak",
        "labels": [bandwidth.label(r) for _, r in d.iterrows()],
        "device": str(d["device"].iloc[0]) if len(d) else None,
        "low": _num(d["fraction_of_peak"].iloc[0]) if len(d) else None,
        "high": _num(d["fraction_of_peak"].iloc[-1]) if len(d) else None,
    }
    rule = "fraction of peak rises with bytes per token (dense, fully on one device), each step beyond the " + NOISE
    return make("bw_size_trend", "scaling", rule, ev)


def build(pts: pd.DataFrame, threshold: float) -> list[Claim]:
    """Every claim of the chapter, in page order (unworded: `presentation.bandwidth.word` adds text)."""
    out = []
    for i, (_, p) in enumerate(pts.iterrows(), start=1):
        out.append(fraction(p, f"bw_{i}"))
    for i, (_, p) in enumerate(pts.iterrows(), start=1):
        out.append(bound(p, f"bound_{i}", threshold))
    out.append(size_trend(pts))
    return out


#: Why a prefill rate's share of a compute peak is withheld where the rate mixes two devices
#: (`analysis.prefill.points`' `no_share`).
TWO_DEVICES = {
    "offloaded": (
        "with -ngl 0 a GPU build keeps the weights in host memory, but ggml still runs the matrix products of a "
        "batch of 32 tokens or more on the GPU, copying the weights over, so neither the CPU's nor the GPU's peak "
        "bounds this rate"
    ),
    "partial": "the model is partly offloaded, so the rate mixes the GPU's and the host's compute",
    # also a decode's share (`fraction`): a row split over GPUs the input does not count (`bandwidth.gpus_unstated`)
    "gpus_unstated": (
        "a split of every layer over the GPUs (-sm row, tensor or graph) reads and computes on every GPU it spans "
        "at once, so their peaks add, and this page "
        "ties no count of those GPUs to the run (no `dev` list, no GPU listing, no one count in the text)"
    ),
    # a row whose file is larger than the GPUs it lists, every layer offloaded, the RPC backend beside them
    # (`bandwidth.rpc_spanned`)
    "rpc_spanned": (
        "every layer is offloaded (-ngl 99) and the file is larger than the memory of the GPU it lists, with "
        "llama.cpp's RPC backend beside it, so the layers beyond that GPU sit on the devices of RPC servers, which "
        "the input does not count, and no one device's peak bounds the run"
    ),
}


def _below_ridge(p: pd.Series) -> str:
    """Why a pass over few prompt tokens is set against no compute peak (`analysis.prefill.pass_intensity`)."""
    sized = pd.notna(p.get("model_size_gib")) and p.get("model_size_gib") is not None
    return reasons.say(
        "prompt_below_ridge",
        tokens=counted(p["tokens_per_pass"], "prompt token"),
        intensity=f"{p['max_intensity']:.3g}",
        per_weight="the file size over the parameters"
        if sized
        else "at least 1 bit a weight, the fewest any format stores",
        device=p.get("device"),
        ridge=f"{p['ridge']:.3g}",
    )


def prefill(p: pd.Series, claim_id: str, model_said: dict | None = None) -> Claim:
    """One prompt-processing rate as FLOP/s (2 x active params x tok/s) against the device's dense peak.
    `model_said`: the file's statement of its model (`analysis.serving.fact_said`); with no size, a line
    that names a model the rows were not tied to is named, never "the output prints none"."""
    known = p.get("peak_source") not in (None, "unknown")
    said = model_said or {}
    sign = said.get("model_status") == "unread" and pd.isna(p.get("tflops"))
    ev = {
        "fraction": _num(p.get("share")),
        "peak": _num(p.get("peak_tflops")),
        "unit": "TFLOP/s",
        "peak_precision": p.get("peak_precision"),
        "device": p.get("device") if known else None,
        "peak_source": p.get("peak_source"),
        "printed_device": p.get("device") if not known and isinstance(p.get("device"), str) else None,
        "compute": True,
        "two_devices": TWO_DEVICES.get(p.get("no_share")) if p.get("no_share") else None,
        "below_ridge": _below_ridge(p) if p.get("no_share") == "below_ridge" else None,
        "label": p.get("label"),
        "test": p.get("test"),
        "n_prompt": _num(p.get("n_prompt")),
        "n_depth": _num(p.get("n_depth")),
        "rate": _num(p.get("rate")),
        "rate_std": _num(p.get("rate_std")),
        "achieved_tflops": _num(p.get("tflops")),
        "active_params_b": _num(p.get("active_params_b")),
        "params_b": _num(p.get("params_b")),
        "architecture": p.get("architecture"),
        "size_source": p.get("size_source"),
        "mode": p.get("mode"),
        "host_cpu": p.get("cpu") if p.get("mode") == "unknown" and isinstance(p.get("cpu"), str) else None,
        "line": int(p["line"]),
        "model_sign_line": said.get("model_line") if sign else None,
        # the document title that sized the model (`analysis.bandwidth.title_size`)
        "titled_line": _num(p.get("title_line")),
    }
    beyond = p.get("beyond_every")  # no device peak known: above every listed device's highest peak
    if isinstance(beyond, list):
        ev.update(beyond_every_device=beyond[0], beyond_every_peak=_num(beyond[1]))
    rule = (
        "2 x active params x prompt tok/s / the device's dense peak (prefill is compute-bound); above 1 is implausible;"
        " with no device known, above every listed device's highest dense peak at any precision is implausible"
    )
    return make(claim_id, "fraction_of_peak", rule, ev)


def prefill_claims(fastest: pd.DataFrame, models_said: dict | None = None) -> list[Claim]:
    """Per model and device, its fastest prompt processing (`analysis.prefill.fastest`) against the compute roof;
    `models_said`: per file name (a row's `source`), its statement of the model (`prefill`'s `model_said`)."""
    said = models_said or {}
    out = [prefill(p, f"pp_{i}", said.get(p.get("source"))) for i, (_, p) in enumerate(fastest.iterrows(), start=1)]
    beyond = [c for c in out if c.status == "implausible" and "beyond_every_peak" not in c.evidence]
    for c in beyond[1:]:  # the likely causes are said with the first warning, not again with each
        c.evidence["warned_before"] = beyond[0].evidence.get("label") or True
    return out
