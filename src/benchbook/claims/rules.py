"""The rules: one function per claim kind, from evidence to (status, reason).

Each rule reads only the claim's evidence (its thresholds included), so a ledger written today can
be re-judged tomorrow and a physicist can change a rule here without reading any chapter.
Some kinds also derive a field (the bound's verdict, the winner set, a trend's direction) that the
evidence must repeat; `derive` computes it and `check` compares.
"""

from __future__ import annotations

import math
import re

from benchbook.claims import KINDS, reasons
from benchbook.nouns import counted

#: What usually explains a figure beyond a physical peak; a claim may name its own suspects.
DEFAULT_SUSPECTS = (
    "the wrong device (its peak is not this run's)",
    "an unknown tensor-parallel degree or GPU count",
    "an MoE model counted as dense, or the wrong model size",
    "a unit mistaken (per-GPU vs total, tokens vs sequences)",
)

#: Words that must never reach a page inside a sentence.
MISSING_WORDS = re.compile(r"(?<![\w/])(?:nan|NaN|None|inf|n/a)(?:x|%)?(?![\w/])|:\s*none\b|\bnone;")


def _num(ev: dict, key: str) -> float | None:
    v = ev.get(key)
    if isinstance(v, bool) or v is None:
        return None
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def _missing(ev: dict, keys) -> list[str]:
    return [k for k in keys if ev.get(k) is None or (isinstance(ev.get(k), float) and not math.isfinite(ev[k]))]


#: How a missing evidence field reads in a sentence.
def _missing_reason(keys, ev: dict | None = None) -> str:
    """What the input lacks, in words; where the runs are of several models (`models` in `ev`), the size
    (and the bytes per token it gives) is not missing: the roofline sizes one model only, said so; where
    the runs' model is a served name beside one checkpoint the file names (`checkpoint`: [name, line]),
    that line is named, never "the input does not give the model's size"; so is a line that sizes some model
    (`params_status` stated or unread, `analysis.serving.fact_said`) where no size is tied to the runs."""
    keys, tail = list(keys), ""
    if ((ev or {}).get("models") or 0) > 1 and "active_params_b" in keys:
        keys = [k for k in keys if k not in ("active_params_b", "bytes_per_token")]
        tail = reasons.say("missing_models", models=ev["models"])
    elif (ev or {}).get("checkpoint") and "active_params_b" in keys:  # a served name beside a checkpoint
        keys = [k for k in keys if k not in ("active_params_b", "bytes_per_token")]
        name, line = ev["checkpoint"]
        tail = reasons.say("missing_checkpoint", name=name, line=line)
    elif (ev or {}).get("params_status") in ("stated", "unread") and "active_params_b" in keys:
        # the file sizes a model somewhere (another tool's `params` column, a sentence): named, no absence
        keys = [k for k in keys if k not in ("active_params_b", "bytes_per_token")]
        tail = reasons.say(
            "missing_size_untied", line=ev["params_line"], text=ev.get("params_words") or ev["params_text"]
        )
    said = [reasons.say(f"missing_{k}") if reasons.has(f"missing_{k}") else k.replace("_", " ") for k in keys]
    given = reasons.say("missing_given", said=_names(said))
    return "; ".join(x for x in (given if keys else "", tail) if x)


def _and_missing(rest, ev: dict) -> str:
    return f"; and {why}" if rest and (why := _missing_reason(rest, ev)) else ""


def _suspects(ev: dict) -> str:
    s = ev.get("suspects") or list(DEFAULT_SUSPECTS)
    return "; ".join(s)


#: Per kind, the evidence fields that hold a figure the input itself measured (a rate times the bytes
#: each token reads, an energy per request): a claim withheld as a verdict (no peak to take a share
#: of, no tokens to divide by) still states that figure.
MEASURED = {
    "fraction_of_peak": ("achieved", "achieved_gb_s", "achieved_tflops"),
    "energy_bound": ("j_per_request", "energy_j"),
    "scaling": ("measured_y", "best_y"),
}


def states_figure(claim: dict) -> bool:
    """A withheld claim whose sentence still gives what the input measured (`MEASURED`): a page that
    has no shown verdict answers with it. An energy above the board's power (`over_board`) is no
    measurement of the run, and a claim withheld for want of a measured point has none."""
    ev = claim.get("evidence") or {}
    if claim.get("status") != "withheld" or ev.get("over_board") or ev.get("no_point"):
        return False
    return any(_num(ev, key) is not None for key in MEASURED.get(claim.get("kind"), ()))


# --- the noise rule: one for every comparison, trend, ranking, winner and threshold -------------

#: What `versus` says of two values.
ABOVE, BELOW, WITHIN = "above", "below", "within noise"


def relative_noise(sd_a, sd_b, b, k: float = 2.0) -> float | None:
    """The relative band two measured values are judged in: k combined standard deviations over
    |b| (None when b is missing or zero; a missing standard deviation counts as 0)."""
    try:
        b = abs(float(b))
    except (TypeError, ValueError):
        return None
    if not math.isfinite(b) or b == 0:
        return None
    sds = [0.0 if v is None or not math.isfinite(float(v)) else float(v) for v in (sd_a, sd_b)]
    return k * math.hypot(*sds) / b


def versus(a, b, noise=None) -> str | None:
    """`a` against `b` by a page's noise rule: "above" or "below" when a / b - 1 is beyond the
    relative `noise` (a step inside the noise is not a step), else "within noise"; None when a side
    is missing or b is 0. Without a noise figure any difference counts."""
    a, b = _num({"v": a}, "v"), _num({"v": b}, "v")
    if a is None or b is None or b == 0:
        return None
    rel = (a - b) / abs(b)
    band = _num({"v": noise}, "v") or 0.0
    if rel > band:
        return ABOVE
    if rel < -band:
        return BELOW
    return WITHIN


def margin(value, threshold, noise=None) -> dict:
    """How far a value sits from the threshold its verdict turns on, value / threshold - 1, and
    whether that margin is inside the value's relative `noise` (`fragile`: the verdict could flip
    within the measurement's own spread). Empty when either is missing."""
    v, t = _num({"v": value}, "v"), _num({"v": threshold}, "v")
    if v is None or t is None or t == 0:
        return {}
    m = v / t - 1
    return {"margin": m, "fragile": bool(abs(m) <= (_num({"v": noise}, "v") or 0.0))}


# --- one rule per kind -------------------------------------------------------------------------


def fraction_of_peak(ev: dict) -> tuple[str, str]:
    """Shown when measured / peak is known and at most 1 (plus a stated tolerance); beyond it the
    figure is a warning about an assumption, never a result."""
    if ev.get("no_point"):  # nothing measured: what else is missing is beside the point
        return "withheld", NO_POINT
    miss = _missing(ev, ("fraction", "peak", "device"))
    if ev.get("streaming"):
        miss += _missing(ev, ("active_params_b", "bytes_per_token"))
        if (
            "bytes_per_token" in miss
            and "in_flight" in ev
            and ev["in_flight"] is None
            and "active_params_b" not in miss
        ):
            # the weights are known; what the bytes per token lack is the requests sharing each read
            miss = [("in_flight" if k == "bytes_per_token" else k) for k in miss]
    if ev.get("compute"):  # FLOP/s = 2 x params x tok/s: without the size there is no measurement
        miss = _missing(ev, ("active_params_b",)) or miss
    if ev.get("two_devices"):  # the rate mixes two devices: neither one's peak bounds it
        return "withheld", ev["two_devices"]
    if ev.get("below_ridge"):  # a pass over so few tokens is bound by the memory, not the compute
        return "withheld", ev["below_ridge"]
    if _num(ev, "beyond_every_peak") and (_num(ev, "achieved_tflops") or 0.0) > _num(ev, "beyond_every_peak"):
        # no device known, but more than any device's highest peak at any precision: beyond physics, whatever ran it
        return "implausible", (
            f"{_num(ev, 'achieved_tflops'):.4g} TFLOP/s is beyond every device the hardware table lists (the highest "
            f"dense peak at any precision: {ev.get('beyond_every_device')}'s {_num(ev, 'beyond_every_peak'):.4g}); "
            f"likely: {_suspects(ev)}"
        )
    if _no_device(ev):  # no device at all: say which parameter names one
        rest = [k for k in miss if k not in ("fraction", "peak", "device")]
        return "withheld", no_device_reason(ev) + _and_missing(rest, ev)
    if "peak" in miss and any(_num(ev, k) is not None for k in ("achieved_gb_s", "achieved_tflops", "achieved")):
        miss = [k for k in miss if k != "fraction"]  # measured / peak: the measurement is there, the peak is not
    if {"device", "peak"} & set(miss) and ev.get("printed_device"):
        # a device the input prints (llama-bench's gpu_info) is stated, never "not given": only its peak is unknown
        rest = [k for k in miss if k not in ("fraction", "peak", "device")]
        return "withheld", reasons.say("printed_device", device=ev["printed_device"]) + _and_missing(rest, ev)
    if miss:
        return "withheld", _missing_reason(miss, ev)
    frac = _num(ev, "fraction")
    if frac < 0:
        return "withheld", "a negative fraction of a peak is not a measurement"
    if frac > 1.0 + (_num(ev, "tolerance") or 0.0):
        return "implausible", f"{frac:.0%} of the peak is beyond physics; likely: {_suspects(ev)}"
    return "shown", ""


#: Why a share of a peak is not stated where the input has no point to measure (a batch sweep with no
#: batch size that has a result): not the model's size, nor the device, whatever they are.
NO_POINT = reasons.say("no_point")

#: Why a share of a peak (or a limit read from it) is not stated when no device is known: a page
#: about someone else's run assumes none.
NO_DEVICE = reasons.say("no_device")


def _names(items: list, last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c' (`last`: the word before the last)."""
    return ", ".join(items[:-1]) + f" {last} " + items[-1] if len(items) > 1 else "".join(items)


def no_device_reason(ev: dict) -> str:
    """Why no device is used, after looking at the whole file (`analysis.roofline.named`, in the
    evidence as `device_family` / `device_family_line` / `device_family_rows`, `device_unlisted` /
    `device_unlisted_line`, `device_asked_line` or `device_sign_line`; `device_split`: runs over several GPUs
    split in a way not stated; `role`, `role_line`: one role's server of a disaggregated run,
    `analysis.serving.role_said`; `layout` and its line, sign and device: an xPyD layout whose servers state
    no parallelism, `analysis.serving.layout_said`): a family of table rows the file names, a device
    the file names that the table lacks, or the line that speaks of one unread, is named, never
    called absent; `device_arch`: a device the file names whose compute capability a run's printed
    `compute_cap` contradicts. A run whose mode is unknown (`analysis.bandwidth.run_mode`) names its host CPU
    (`host_cpu`) but not the device that ran the model. The words are `reasons.yml`'s."""
    if ev.get("mode") == "unknown" and ev.get("host_cpu"):
        return reasons.say("host_cpu", host_cpu=ev["host_cpu"], line=ev.get("line"))
    if ev.get("role_servers"):  # one server of each role, of different sizes: counted, no one count per server
        servers = [reasons.say("role_server", role=r, line=ln, devices=n) for r, ln, n in ev["role_servers"]]
        total = sum(n for *_, n in ev["role_servers"])
        return reasons.say("role_servers", servers=_names(servers), total=total)
    if ev.get("role"):
        return reasons.say("role", role=ev["role"], role_line=ev.get("role_line"))
    if ev.get("layout"):  # `analysis.serving.layout_said`: an xPyD layout whose servers state no parallelism
        sign = ev.get("layout_sign")
        said = reasons.say("layout_unread", sign=sign) if sign else reasons.say("layout_unsaid")
        return reasons.say(
            "layout", device=ev.get("layout_device"), layout=ev["layout"], layout_line=ev.get("layout_line"), said=said
        )
    if ev.get("device_split"):
        # the absence rule (`analysis.batch.split_said`): a line that speaks of a split is named
        unread = ev.get("split_status") == "unread"
        said = (
            reasons.say("split_unread", split_line=ev.get("split_line"), split_text=ev.get("split_text"))
            if unread
            else reasons.say("split_unsaid")
        )
        return reasons.say("device_split", gpus=_names(list(ev["device_split"])), said=said)
    if ev.get("device_unfit"):  # `analysis.serving.unfit_said`: weights one named device cannot hold, no count
        unfit = {k: ev.get(f"unfit_{k}") for k in ("weights", "memory", "fewest")}
        return reasons.say("device_unfit", device=ev["device_unfit"], **unfit)
    if ev.get("device_compared"):  # `analysis.serving.compared_spans`: servers listed together, which ran unsaid
        counts = _names(list(dict.fromkeys(str(n) for n, _ in ev["compared_spans"])), "or")
        lines = _names([str(ln) for _, ln in ev["compared_spans"]])
        return reasons.say("device_compared", device=ev["device_compared"], counts=counts, lines=lines)
    if ev.get("device_spans"):  # `analysis.serving.spans_said`: a device named, no one count of it the runs'
        counts = _names([str(n) for n in ev["device_spans_counts"]], "or")
        return reasons.say("device_spans", device=ev["device_spans"], counts=counts)
    if ev.get("device_several"):
        case = "several_apart" if ev.get("device_several_apart") else "several_which"
        return reasons.say(case, names=ev["device_several"], where=ev.get("device_several_where"))
    if ev.get("device_family"):
        rows = _names(list(ev["device_family_rows"]), "or")  # `hardware.family`: two rows or more, whose peaks differ
        return reasons.say("device_family", family=ev["device_family"], line=ev.get("device_family_line"), rows=rows)
    if ev.get("device_unlisted"):
        return reasons.say("device_unlisted", device=ev["device_unlisted"], line=ev.get("device_unlisted_line"))
    if ev.get("device_arch"):
        return reasons.say("device_arch_ask", said=device_arch_said(ev))
    if ev.get("device_asked_line"):
        return reasons.say("device_asked", line=ev["device_asked_line"])
    if ev.get("device_sign_line"):
        return reasons.say("device_sign", line=ev["device_sign_line"])
    return NO_DEVICE


def device_arch_said(ev: dict) -> str:
    """A device the file names whose architecture a run's printed compute_cap contradicts, as
    `reasons.yml` words it (the reason above)."""
    return reasons.say(
        "device_arch",
        device=ev["device_arch"],
        line=ev.get("device_arch_line"),
        sm=ev.get("device_arch_sm"),
        cap_line=ev.get("device_arch_cap_line"),
        cap=ev.get("device_arch_cap"),
    )


def _no_device(ev: dict) -> bool:
    """The evidence names its device as none (a `device` of None, no peak source)."""
    return "device" in ev and ev["device"] is None and not ev.get("peak_source")


#: The verdict that holds for every device: an intensity below the lowest ridge of any device
#: (`lowest_ridge` in the evidence) cannot be compute-bound, whichever device ran it.
NOT_COMPUTE = "not compute"


def bound_verdict(ev: dict) -> str:
    """memory-bandwidth, compute, overhead or unknown, from the fractions of the two peaks and the
    intensity against the ridge. Both roofs far away means neither explains the speed: a fixed cost
    per step (framework, launches, synchronisation), i.e. overhead. Where the peaks name no limit
    (unknown), an intensity below every device's ridge still says one thing: not compute
    (NOT_COMPUTE)."""
    inten, lowest = _num(ev, "intensity"), _num(ev, "lowest_ridge")
    v = _peak_verdict(ev)
    if v == "unknown" and _num(ev, "threshold") is not None and None not in (inten, lowest) and inten < lowest:
        return NOT_COMPUTE
    return v


def _peak_verdict(ev: dict) -> str:
    bw, cf = _num(ev, "bandwidth_fraction"), _num(ev, "compute_fraction")
    th = _num(ev, "threshold")
    inten, ridge = _num(ev, "intensity"), _num(ev, "ridge")
    if th is None or (bw is None and cf is None):
        return "unknown"
    right_of_ridge = None if inten is None or ridge is None else inten > ridge
    if bw is not None and bw >= th and right_of_ridge is not True:
        return "memory-bandwidth"
    if cf is not None and cf >= th and right_of_ridge is True:
        return "compute"
    if bw is not None and cf is not None and bw < th and cf < th:
        return "overhead"
    return "unknown"


def bound_margin(ev: dict) -> dict:
    """The margin of a bound's verdict to its threshold: the fraction that decides it (bandwidth
    for memory-bandwidth, compute for compute, the nearer of the two for overhead) against the
    threshold, fragile inside the evidence's relative `noise`."""
    verdict = bound_verdict(ev)
    bw, cf = _num(ev, "bandwidth_fraction"), _num(ev, "compute_fraction")
    deciding = {"memory-bandwidth": bw, "compute": cf, "overhead": max(bw or 0.0, cf or 0.0)}.get(verdict)
    got = margin(deciding, _num(ev, "threshold"), _num(ev, "noise"))
    return {"margin": got.get("margin"), "fragile": got.get("fragile", False)}


def bound(ev: dict) -> tuple[str, str]:
    if ev.get("no_point"):  # nothing measured: no fraction of either peak to weigh
        return "withheld", NO_POINT
    for key in ("bandwidth_fraction", "compute_fraction"):
        v = _num(ev, key)
        if v is not None and v > 1.0:
            return "implausible", f"{key} {v:.0%} is beyond physics; likely: {_suspects(ev)}"
    th = _num(ev, "threshold")
    if th is None or not 0 < th <= 1:
        return "withheld", "no valid threshold (a fraction in (0, 1])"
    v = bound_verdict(ev)
    if v == "unknown" and _no_device(ev):
        return "withheld", no_device_reason(ev)
    if v == "unknown":
        return "withheld", "neither peak fraction is large enough, or known, to name the limit"
    return "shown", ""


def winner_set(ev: dict) -> list[str]:
    """The best candidate and every other whose test against it gives p >= alpha (not
    distinguishable from the best at that level)."""
    alpha = _num(ev, "alpha")
    best = ev.get("best")
    p = ev.get("p_values") or {}
    out = [best] if best is not None else []
    for c in ev.get("candidates") or []:
        if c == best:
            continue
        pv = p.get(c)
        if pv is not None and alpha is not None and pv >= alpha:
            out.append(c)
    return out


def winner(ev: dict) -> tuple[str, str]:
    alpha = _num(ev, "alpha")
    if alpha is None or not 0 < alpha < 1:
        return "withheld", "no valid significance level alpha in (0, 1)"
    cands = ev.get("candidates") or []
    if len(cands) < 2:
        return "withheld", "fewer than two candidates measured"
    if ev.get("best") not in cands:
        return "withheld", "no best candidate"
    p = ev.get("p_values") or {}
    untested = [c for c in cands if c != ev["best"] and p.get(c) is None]
    if untested:
        return "withheld", f"too few repeated runs to test {', '.join(map(str, untested))} against the best"
    return "shown", ""


def knee(ev: dict) -> tuple[str, str]:
    """A knee (or sweet spot) needs enough points and a rule whose strength clears its minimum."""
    n, min_n = _num(ev, "n_points"), _num(ev, "min_points")
    if n is None or min_n is None or n < min_n:
        n = int(n or 0)
        have = f"{n if n else 'no'} point{'s' if n != 1 else ''}"
        return "withheld", reasons.say("knee_few", have=have, need=int(min_n or 4))
    if ev.get("x") is None:
        return "withheld", reasons.say("knee_none")
    s, min_s = _num(ev, "strength"), _num(ev, "min_strength")
    if s is None or min_s is None or s < min_s:
        return "withheld", reasons.say("knee_gentle")
    noise = _num(ev, "strength_noise") or 0.0  # the part of the bend the measurements' noise could make
    if s - noise < min_s:
        return "withheld", reasons.say("knee_noise", strength=s, noise=noise, left=max(s - noise, 0), need=min_s)
    return "shown", ""


def step_bands(ev: dict, n_steps: int) -> list[float]:
    """The band each step of a trend is judged in: the larger of the claim's `tolerance` (a practical
    threshold) and its `noise`, a relative figure for every step or a list, one per step in x order."""
    tol = _num(ev, "tolerance") or 0.0
    noise = ev.get("noise")
    per = noise if isinstance(noise, (list, tuple)) else [noise] * n_steps
    per = list(per) + [None] * (n_steps - len(per))
    return [max(tol, _num({"v": v}, "v") or 0.0) for v in per[:n_steps]]


def trend(ev: dict) -> str:
    """falls, rises, flat or mixed: every step (in x order) beyond its band (`step_bands`: the noise
    rule, so a step inside the noise is not a step) one way, or every step inside it."""
    xs, ys = ev.get("xs") or [], ev.get("ys") or []
    pts = sorted((x, y) for x, y in zip(xs, ys, strict=False) if x is not None and y is not None)
    steps = [(b[1] - a[1]) / abs(a[1]) if a[1] else (b[1] - a[1]) for a, b in zip(pts, pts[1:], strict=False)]
    if not steps:
        return "mixed"
    bands = step_bands(ev, len(steps))
    if ev.get("judged") == "ends":
        return _trend_ends(ev, pts, steps, bands)
    if all(s < -t for s, t in zip(steps, bands, strict=True)):
        return "falls"
    if all(s > t for s, t in zip(steps, bands, strict=True)):
        return "rises"
    if all(abs(s) <= t for s, t in zip(steps, bands, strict=True)):
        return "flat"
    return "mixed"


def _trend_ends(ev: dict, pts, steps: list[float], bands: list[float]) -> str:
    """A trend judged over its whole range (evidence `judged: "ends"`): falls (rises) when the last
    value is below (above) the first beyond the two ends' noise combined (`point_noise`, one
    relative figure per point, never below the tolerance), and no step goes the other way beyond
    its band; flat when the ends and every step are inside their bands. A step inside its noise then
    does not break the trend, a step against it does."""
    tol = _num(ev, "tolerance") or 0.0
    pn = [_num({"v": v}, "v") or 0.0 for v in (ev.get("point_noise") or [])]
    end_band = max(tol, math.hypot(pn[0], pn[-1]) if len(pn) == len(pts) else 0.0)
    total = (pts[-1][1] - pts[0][1]) / abs(pts[0][1]) if pts[0][1] else pts[-1][1] - pts[0][1]
    if total < -end_band and not any(s > t for s, t in zip(steps, bands, strict=True)):
        return "falls"
    if total > end_band and not any(s < -t for s, t in zip(steps, bands, strict=True)):
        return "rises"
    if abs(total) <= end_band and all(abs(s) <= t for s, t in zip(steps, bands, strict=True)):
        return "flat"
    return "mixed"


def scaling(ev: dict) -> tuple[str, str]:
    xs = [x for x, y in zip(ev.get("xs") or [], ev.get("ys") or [], strict=False) if x is not None and y is not None]
    min_n = _num(ev, "min_points") or 3
    shared = sorted({x for x in xs if xs.count(x) > 1})
    if shared:  # values at one x are not steps (sorted by value, they would always "rise")
        k, at = len(set(xs)), ", ".join(f"{x:g}" for x in shared)
        return "withheld", reasons.say("trend_shared", n=len(xs), k=k, s="s" if k != 1 else "", at=at)
    if len(xs) < min_n:
        what = f" ({ev['point_is']})" if ev.get("point_is") else ""  # what the trend counts as a point
        return "withheld", reasons.say("trend_few", points=counted(len(xs), "point"), what=what, need=int(min_n))
    got = trend(ev)
    if got != ev.get("direction"):
        inside = _step_inside_noise(ev) if trend({**ev, "noise": None}) == ev.get("direction") else None
        return "withheld", inside or reasons.say("trend_values", words=TREND_WORDS[got])
    return "shown", ""


def _step_inside_noise(ev: dict) -> str | None:
    """Why a trend that holds on the values fails the noise rule: its first step inside its band."""
    pts = sorted((x, y) for x, y in zip(ev.get("xs") or [], ev.get("ys") or [], strict=False) if None not in (x, y))
    bands = step_bands(ev, len(pts) - 1)
    for (x0, y0), (x1, y1), band in zip(pts, pts[1:], bands, strict=False):
        step = (y1 - y0) / abs(y0) if y0 else y1 - y0
        if abs(step) <= band:
            return reasons.say("trend_step", x0=x0, x1=x1, step=step, band=band)
    return None


#: How each trend reads in a reason ("... because the values go up and down").
TREND_WORDS = {t: reasons.say(f"trend_{t}") for t in ("falls", "rises", "flat", "mixed")}


def anomaly(ev: dict) -> tuple[str, str]:
    n, count = _num(ev, "n"), _num(ev, "count")
    if not n:
        return "withheld", "nothing to check"
    if not count:
        return "withheld", "no instance found"
    return "shown", ""


def recommendation(ev: dict) -> tuple[str, str]:
    if ev.get("per_series"):  # several series: a best load within each series that sweeps a load
        if per_series_chosen(ev):
            return "shown", ""
        return "withheld", "no series that sweeps a load has a best load beyond the noise"
    if ev.get("choice") is None or _num(ev, "value") is None:
        return "withheld", "no option has a value to rank by"
    if ev.get("runner_up") is None or _num(ev, "runner_up_value") in (None, 0.0):
        return "withheld", "only one option has a nonzero value to rank by: nothing to choose between"
    noise = _num(ev, "noise") or 0.0
    if versus(_num(ev, "value"), _num(ev, "runner_up_value"), noise) == WITHIN:
        gap = abs(_num(ev, "value") / _num(ev, "runner_up_value") - 1)
        return "withheld", f"the best and the runner-up differ by {gap:.1%}, inside the noise ({noise:.1%})"
    return "shown", ""


def per_series_chosen(ev: dict) -> list:
    """The series (of `per_series`: one recommendation's evidence per series that sweeps a load) whose
    best load the recommendation rule shows."""
    return [s["series"] for s in ev.get("per_series") or [] if recommendation(s)[0] == "shown"]


def comparison(ev: dict) -> tuple[str, str]:
    a, b = _num(ev, "a"), _num(ev, "b")
    if a is None or b is None or b == 0:
        return "withheld", "one side of the comparison is missing"
    if ev.get("upper_bounds"):
        return "withheld", UPPER_BOUNDS
    noise = _num(ev, "noise")
    if versus(a, b, noise) == WITHIN:
        return "withheld", f"the difference ({a / b - 1:+.1%}) is within the noise ({noise or 0:.1%})"
    return "shown", ""


#: Why two upper bounds are never compared: each value may lie anywhere below its bound.
UPPER_BOUNDS = "both figures are upper bounds, and a ratio of two upper bounds says nothing about which value is lower"


def energy_bound(ev: dict) -> tuple[str, str]:
    j = _num(ev, "joules_per_token")
    if j is None or j <= 0:
        return "withheld", "no energy per token can be formed (power or rate missing)"
    if ev.get("power_source") not in ("limit", "measured"):
        return "withheld", "the power figure's origin is not stated"
    return "shown", ""


RULES = {
    "fraction_of_peak": fraction_of_peak,
    "bound": bound,
    "winner": winner,
    "knee": knee,
    "sweet_spot": knee,
    "scaling": scaling,
    "anomaly": anomaly,
    "recommendation": recommendation,
    "comparison": comparison,
    "energy_bound": energy_bound,
}


def knee_margin(ev: dict) -> dict:
    """A knee's margin: the elasticity of the step the knee starts (`knee_el`) against the threshold,
    fragile inside that step's relative noise (`knee_noise`). A fraction-of-peak knee: its share of the
    peak (`knee_share`) against `fraction`, fragile when that margin, or the margin of the point before
    it (`before_share`, which then could reach the fraction too), is inside `knee_noise`. Empty for a
    knee that states neither."""
    if "knee_el" in ev:
        return margin(ev.get("knee_el"), ev.get("threshold"), ev.get("knee_noise"))
    if "knee_share" not in ev:
        return {}
    got = margin(ev.get("knee_share"), ev.get("fraction"), ev.get("knee_noise"))
    before = margin(ev.get("before_share"), ev.get("fraction"), ev.get("knee_noise"))
    if got and before:
        got.update(before_margin=before["margin"], fragile=got["fragile"] or before["fragile"])
    return got


def slo_margin(ev: dict) -> dict:
    """A recommendation decided by a latency SLO: its deciding percentile (`slo_value`) against the SLO,
    fragile inside `slo_noise`. Empty for one that names no SLO."""
    return margin(ev.get("slo_value"), ev.get("slo"), ev.get("slo_noise")) if "slo_value" in ev else {}


#: Fields a kind's rule derives from the rest of its evidence: each function returns {field: value}.
DERIVED = {
    "bound": lambda ev: {"verdict": bound_verdict(ev), **bound_margin(ev)},
    "winner": lambda ev: {"winners": winner_set(ev)},
    "scaling": lambda ev: {"trend": trend(ev)},
    "comparison": lambda ev: {"direction": versus(ev.get("a"), ev.get("b"), ev.get("noise"))},
    "knee": knee_margin,
    "sweet_spot": lambda ev: (
        margin(ev.get("retained"), ev.get("fraction"), ev.get("retained_noise")) if "retained_noise" in ev else {}
    ),
    "recommendation": lambda ev: {
        **slo_margin(ev),
        **({"chosen": per_series_chosen(ev)} if "per_series" in ev else {}),
    },
}


def judge(kind: str, ev: dict) -> tuple[str, str]:
    """(status, reason) of a claim of `kind` with evidence `ev`."""
    if kind not in RULES:
        raise ValueError(f"unknown claim kind {kind!r}")
    return RULES[kind](ev)


def derive(kind: str, ev: dict) -> dict:
    """The fields a kind's rule derives from the rest of its evidence (e.g. the bound's verdict, its
    margin to the threshold and whether that margin is inside the noise)."""
    return DERIVED[kind](ev) if kind in DERIVED else {}


def check(ledger: dict) -> list[str]:
    """Problems found by re-judging every claim of a ledger from its evidence alone: a status or a
    derived field that does not follow, missing evidence fields, a withheld claim with no reason,
    a missing value printed in a sentence."""
    problems = []
    for c in ledger.get("claims", []):
        cid, kind, ev = c.get("id"), c.get("kind"), c.get("evidence") or {}
        where = f"{ledger.get('chapter', '?')}:{cid}"
        if kind not in RULES:
            problems.append(f"{where}: unknown kind {kind!r}")
            continue
        absent = [k for k in KINDS[kind] if k not in ev]
        if absent:
            problems.append(f"{where}: evidence lacks {', '.join(absent)}")
        status, _ = judge(kind, ev)
        if status != c.get("status") and not (c.get("status") == "withheld" and c.get("reason")):
            problems.append(f"{where}: status {c.get('status')!r} but the rule gives {status!r}")
        for key, value in derive(kind, ev).items():
            if key in ev and ev[key] != value:
                problems.append(f"{where}: {key} {ev[key]!r} but the rule gives {value!r}")
        if c.get("status") != "shown" and not c.get("reason"):
            problems.append(f"{where}: {c.get('status')} with no reason")
        if MISSING_WORDS.search(re.sub(r"`[^`\n]*`", "", c.get("text") or "")):  # code spans quote the input
            problems.append(f"{where}: the sentence prints a missing value: {c.get('text')!r}")
        if not (c.get("text") or "").strip():
            problems.append(f"{where}: no sentence")
    return problems
