"""Back-of-envelope exercises in each chapter's own numbers: the question and its worked solution
are filled from the evidence of the chapter's shown claims when the page is built, so that they
stay true on any input. An exercise whose claim is not shown says which claim it needs instead.

Each builder takes the chapter's ledger (a Ledger or its dict) and returns Exercise objects; the
chapter glues `exercises_md` (MyST: a folded solution under each question).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from benchbook.analysis import envelope as env
from benchbook.presentation.bottom_line import _claims


@dataclass
class Exercise:
    question: str
    steps: list[str] = field(default_factory=list)
    answer: str = ""

    def markdown(self, n: int) -> str:
        body = "\n\n".join([*self.steps, f"**Answer:** {self.answer}"])
        return f"**Exercise {n}.** {self.question}\n\n:::{{admonition}} Solution {n}\n:class: dropdown\n\n{body}\n:::\n"


def _shown(ledger) -> dict[str, dict]:
    return {c["id"]: c for c in _claims(ledger) if c["status"] == "shown"}


def _lacking(what: str, ids: list[str]) -> Exercise:
    need = " or ".join(f"`{i}`" for i in ids)
    return Exercise(
        f"({what}) This input does not give the numbers this exercise needs: its claim {need} is not shown "
        "(the claims ledger says why).",
        [],
        "none for this input.",
    )


def bandwidth_roofline(ledger) -> list[Exercise]:
    shown = _shown(ledger)
    dense = [
        c
        for cid, c in sorted(shown.items())
        if cid.startswith("bw_")
        and cid[3:].isdigit()
        and c["evidence"].get("architecture") == "dense"
        and c["evidence"].get("offload") in (None, "full")
    ]
    if not dense:
        return [_lacking("the ceiling", ["bw_N"]), _lacking("the ridge", ["bound_N"])]
    ev = min(dense, key=lambda c: c["evidence"]["gb_per_token"])["evidence"]
    gb, peak, rate, label = ev["gb_per_token"], ev["peak"], ev["rate"], ev["label"]
    ceil = env.ceiling(peak, gb)
    s = env.share(rate, ceil)
    out = [
        Exercise(
            f"`{label}` reads {gb:.2f} GB per generated token, and the {ev['device']} streams at most "
            f"{peak:,.0f} GB/s. What is the ceiling in tokens/s, and what share of it is the measured "
            f"{rate:,.2f} tok/s?",
            [
                f"Ceiling = peak bandwidth / bytes per token = {peak:,.0f} / {gb:.2f} = {ceil:,.0f} tok/s.",
                f"Share = {rate:,.2f} / {ceil:,.0f} = {s:.1%}.",
            ],
            f"a ceiling of {ceil:,.0f} tok/s, of which the run reaches {s:.1%}.",
        )
    ]
    bound = next(
        (c["evidence"] for c in shown.values() if c["id"].startswith("bound_") and c["evidence"].get("label") == label),
        None,
    )
    if bound is None or not ev.get("active_params_b"):
        out.append(_lacking("the ridge", [f"bound_N for {label}"]))
        return out
    i = env.intensity(ev["active_params_b"], gb)
    r = bound["ridge"]
    out.append(
        Exercise(
            f"Each token does about 2 FLOPs per parameter ({ev['active_params_b']:.2f} billion of them) for the "
            f"{gb:.2f} GB it reads. What is its arithmetic intensity, and how far is it from the "
            f"{ev['device']}'s ridge point of {r:,.0f} FLOP/byte? What limits it?",
            [
                f"Intensity = 2 x {ev['active_params_b']:.2f} / {gb:.2f} = {i:.2f} FLOP/byte.",
                f"{r:,.0f} / {i:.2f} = {r / i:,.0f}: the point sits that many times left of the ridge.",
            ],
            f"{i:.2f} FLOP/byte, {r / i:,.0f} times below the ridge: memory bandwidth limits it, not compute.",
        )
    )
    return out


def batch_saturation(ledger) -> list[Exercise]:
    from benchbook.analysis.batch import BYTES_PER_PARAM, critical_batch

    shown = _shown(ledger)
    out = []
    knee, bound = shown.get("knee", {}).get("evidence"), shown.get("bound_small", {}).get("evidence")
    bpw = BYTES_PER_PARAM.get((bound or {}).get("dtype"))
    if knee and bound and bound.get("ridge") and bpw and bound.get("dtype") == knee.get("dtype"):
        b_star = critical_batch(bound["ridge"], bpw)
        out.append(
            Exercise(
                f"A decode step reads each weight once ({bpw:g} bytes in {bound['dtype']}) and does 2 FLOPs with it per "
                f"sequence in the batch. The {bound['device']}'s ridge is {bound['ridge']:,.0f} FLOP/byte. Predict the "
                f"batch at which the step stops being limited by memory bandwidth, then compare it with the batch at "
                f"which {knee['series']} saturates in this input.",
                [
                    f"Intensity at batch B = 2 x B / {bpw:g} FLOP/byte; it reaches the ridge when "
                    f"B* = {bound['ridge']:,.0f} x {bpw:g} / 2 = {b_star:,.0f} sequences.",
                    f"Measured: the curve saturates at batch {knee['x']:,}, {knee['x'] / b_star:.1f}x the prediction.",
                ],
                f"B* = {b_star:,.0f} sequences by the roofline; the data saturate at batch {knee['x']:,} "
                f"({knee['x'] / b_star:.1f}x B*): "
                + (
                    "the roofline's floor sets where batching stops paying."
                    if 0.5 <= knee["x"] / b_star <= 2
                    else "the measured steps cost more than the floor (see the lesson), so the curve bends where "
                    "their fixed and per-sequence costs cross, not at B*."
                ),
            )
        )
    else:
        out.append(_lacking("the critical batch", ["knee", "bound_small"]))
    ev = shown.get("latency_flat", {}).get("evidence")
    if ev and ev.get("first_tok_s") and ev.get("last_tok_s"):
        pred = ev["first_tok_s"] * ev["last"] / ev["first"]
        out.append(
            Exercise(
                f"From batch {ev['first']} to {ev['last']} one call takes {ev['low']:.2f} to {ev['high']:.2f} s: the step "
                f"time hardly moves. At batch {ev['first']} the run gives {ev['first_tok_s']:,.2f} tok/s. Predict its "
                f"throughput at batch {ev['last']} if the step time stayed fixed, then compare with the measured "
                f"{ev['last_tok_s']:,.2f} tok/s.",
                [
                    f"A fixed step time makes throughput proportional to the batch: {ev['first_tok_s']:,.2f} x "
                    f"{ev['last']} / {ev['first']} = {pred:,.0f} tok/s.",
                    f"Measured / predicted = {ev['last_tok_s']:,.2f} / {pred:,.0f} = {ev['last_tok_s'] / pred:.1%}.",
                ],
                f"{pred:,.0f} tok/s predicted; the run reaches {ev['last_tok_s'] / pred:.1%} of it: each added sequence "
                "rides on a step that is paid for anyway.",
            )
        )
    else:
        out.append(_lacking("the linear regime", ["latency_flat"]))
    return out


def serving_saturation(ledger) -> list[Exercise]:
    shown = _shown(ledger)
    out = []
    ev = (shown.get("underfilled") or {}).get("evidence") or {}
    if ev.get("rate") and ev.get("latency_s") and ev.get("cap"):
        held = ev["rate"] * ev["latency_s"]
        out.append(
            Exercise(
                f"Run `{ev['run']}` finished {ev['rate']:,.2f} requests per second, and a request took "
                f"{ev['latency_s']:,.2f} s on average, under a cap of {ev['cap']:,.0f}. Predict how many requests it "
                "held in flight on average, and what share of its cap that is; then compare with the Little's-law table.",
                [
                    f"Little's law: L = rate x mean latency = {ev['rate']:,.2f} x {ev['latency_s']:,.2f} = {held:,.1f} requests.",
                    f"Share of the cap = {held:,.1f} / {ev['cap']:,.0f} = {held / ev['cap']:.1%}.",
                ],
                f"{held:,.1f} requests, {held / ev['cap']:.1%} of the cap of {ev['cap']:,.0f}: a cap is a ceiling, not the load "
                "the server saw.",
            )
        )
    else:
        out.append(_lacking("Little's law", ["underfilled"]))
    ev = (shown.get("knee") or {}).get("evidence") or {}
    if ev.get("predicted_in_flight") and ev.get("w0_s") and ev.get("mu"):
        n_star = ev["predicted_in_flight"]
        held = ev.get("knee_in_flight")
        compare = (
            f"The elasticity rule puts the knee at {ev['variable']} {ev['x']:,g}, where the server held {held:,.0f} "
            f"requests in flight: {held / n_star:.0%} of L*."
            if held
            else f"The elasticity rule puts the knee at {ev['variable']} {ev['x']:,g}."
        )
        out.append(
            Exercise(
                f"At the lowest load (run `{ev['w0_run']}`) a request takes {ev['w0_s']:.2f} s; the most requests the "
                f"server finished is {ev['mu']:,.2f} per second (run `{ev['mu_run']}`). Predict how many requests in "
                "flight saturate it, then compare with the knee the elasticity rule finds.",
                [
                    f"Below the knee no request waits, so rate = L / W0; the rate cannot pass μ. The two meet at "
                    f"L* = μ x W0 = {ev['mu']:,.2f} x {ev['w0_s']:.2f} = {n_star:,.0f} requests.",
                    compare,
                ],
                f"L* = {n_star:,.0f} requests in flight. " + compare,
            )
        )
    else:
        out.append(_lacking("the knee by Little's law", ["knee"]))
    return out


def tp_scaling(ledger) -> list[Exercise]:
    shown = _shown(ledger)
    out = []
    ev = shown.get("decode_speedup", {}).get("evidence")
    if ev:
        sp = ev["a"] / ev["b"]
        eff = sp / ev["best_tp"] * ev["ref_tp"]
        out.append(
            Exercise(
                f"At batch {ev['batch_size']}, decode takes {ev['a']:.2f} ms per token at TP {ev['ref_tp']} and "
                f"{ev['b']:.2f} ms at TP {ev['best_tp']}. What are the speed-up and the parallel efficiency?",
                [
                    f"Speed-up = {ev['a']:.2f} / {ev['b']:.2f} = {sp:.2f}x.",
                    f"Efficiency = speed-up / (GPUs added as a multiple) = {sp:.2f} / "
                    f"{ev['best_tp'] / ev['ref_tp']:g} = {eff:.2f}.",
                ],
                f"{sp:.2f}x faster with {ev['best_tp'] / ev['ref_tp']:g}x the GPUs: an efficiency of {eff:.2f}.",
            )
        )
    else:
        out.append(_lacking("speed-up", ["decode_speedup"]))
    ev = shown.get("prefill_efficiency_falls", {}).get("evidence")
    if ev and ev.get("last_x"):
        sp = ev["last_y"] * ev["last_x"] / ev["ref_tp"]
        out.append(
            Exercise(
                f"Prefill's parallel efficiency at batch {ev['batch_size']} and TP {ev['last_x']} is "
                f"{ev['last_y']:.3f}. What speed-up over TP {ev['ref_tp']} is that, and how many GPUs' worth of "
                "work do the GPUs deliver?",
                [f"Speed-up = efficiency x TP = {ev['last_y']:.3f} x {ev['last_x']} = {sp:.2f}x."],
                f"{sp:.2f}x: {ev['last_x']} GPUs do the work of {sp:.2f}.",
            )
        )
    else:
        out.append(_lacking("efficiency", ["prefill_efficiency_falls"]))
    return out


def quantization_regimes(ledger) -> list[Exercise]:
    shown = _shown(ledger)
    ev = shown.get("decode_bandwidth", {}).get("evidence")
    if not ev:
        return [_lacking("ceiling", ["decode_bandwidth"]), _lacking("8-bit ceiling", ["decode_bandwidth"])]
    gb = ev["bytes_per_token"] / 1e9
    ceil = env.ceiling(ev["peak"], gb)
    rate = ev["gb_s"] / gb
    s = env.share(rate, ceil)
    half = env.ceiling(ev["peak"], gb / 2)
    out = [
        Exercise(
            f"At batch 1, `{ev['scheme']}` ({ev['active_params_b']:.2f} billion parameters, {gb:.2f} GB per token "
            f"in 16 bits) decodes at {ev['gb_s']:,.0f} GB/s on the {ev['device']} ({ev['peak']:,.0f} GB/s peak). "
            "What are its ceiling and its rate in tok/s?",
            [
                f"Ceiling = {ev['peak']:,.0f} / {gb:.2f} = {ceil:,.1f} tok/s.",
                f"Rate = {ev['gb_s']:,.0f} / {gb:.2f} = {rate:,.1f} tok/s, {s:.1%} of the ceiling.",
            ],
            f"a ceiling of {ceil:,.1f} tok/s; the run decodes {rate:,.1f} tok/s ({s:.1%}).",
        ),
        Exercise(
            f"A w8a16 scheme stores each of those weights in 1 byte instead of 2. What is its bandwidth "
            f"ceiling, and what rate would it reach at the same {s:.1%} share?",
            [
                f"Bytes per token = {gb:.2f} / 2 = {gb / 2:.2f} GB; ceiling = {ev['peak']:,.0f} / {gb / 2:.2f} = "
                f"{half:,.1f} tok/s.",
                f"At {s:.1%}: {half:,.1f} x {s:.3f} = {half * s:,.1f} tok/s, twice the 16-bit rate.",
            ],
            f"a ceiling of {half:,.1f} tok/s and about {half * s:,.1f} tok/s: at most 2x. Compare the "
            "chapter's measured gain of the w8a16 scheme at batch 1: unpacking the 8-bit weights costs some of it.",
        ),
    ]
    return out


def perf_per_watt(ledger) -> list[Exercise]:
    shown = _shown(ledger)
    out = []
    top, best = (shown.get(f"energy_{k}_tg", {}).get("evidence") for k in ("top", "best"))
    if top and best:
        jt, jb = env.joules_per_token(top["power_w"], top["rate"]), env.joules_per_token(best["power_w"], best["rate"])
        out.append(
            Exercise(
                f"{top['test']} runs at {top['rate']:,.2f} tok/s under a {top['limit_w']:.0f} W limit and "
                f"{best['rate']:,.2f} tok/s under {best['limit_w']:.0f} W. If the card draws its limit, what does "
                "a token cost at each, and what is the saving?",
                [
                    f"At {top['limit_w']:.0f} W: {top['power_w']:.0f} / {top['rate']:,.2f} = {jt:.3f} J/token.",
                    f"At {best['limit_w']:.0f} W: {best['power_w']:.0f} / {best['rate']:,.2f} = {jb:.3f} J/token.",
                    f"Ratio = {jb:.3f} / {jt:.3f} = {jb / jt:.1%}.",
                ],
                f"{jt:.3f} against {jb:.3f} J/token: the lower limit needs {jb / jt:.1%} of the energy per token.",
            )
        )
    else:
        out.append(_lacking("energy per token", ["energy_top_tg", "energy_best_tg"]))
    ev = shown.get("sweet_spot_tg", {}).get("evidence") or shown.get("sweet_spot_pp", {}).get("evidence")
    if ev:
        top_w = ev["x"] + ev["saving_w"]
        ratio = (ev["x"] / top_w) / ev["retained"]
        out.append(
            Exercise(
                f"At its sweet spot, {ev['x']:.0f} W, {ev['test']} keeps {ev['retained']:.1%} of its peak rate "
                f"(reached at a {top_w:.0f} W limit). If the card draws its limit, what share of the energy per "
                "token at the top limit does a token cost there?",
                [
                    f"Energy per token scales as power / rate: ({ev['x']:.0f} / {top_w:.0f}) / {ev['retained']:.3f} "
                    f"= {ratio:.1%}."
                ],
                f"{ratio:.1%} of the energy per token, for {1 - ev['retained']:.1%} less speed.",
            )
        )
    else:
        out.append(_lacking("sweet spot", ["sweet_spot_tg", "sweet_spot_pp"]))
    return out


def attention_kernels(ledger) -> list[Exercise]:
    shown = _shown(ledger)
    out = []
    ev = shown.get("flex_sparsest", {}).get("evidence")
    if ev and ev.get("density"):
        ideal = 1 / ev["density"]
        out.append(
            Exercise(
                f"The {ev['mask']} block mask keeps {ev['density']:.2%} of the blocks. If a kernel skipped every "
                f"masked block at the dense kernel's speed per block, how much faster could it be, and what share of "
                f"that is FlexAttention's measured {ev['ratio']:.1f}x?",
                [
                    f"Ideal gain = 1 / density = 1 / {ev['density']:.4f} = {ideal:.1f}x.",
                    f"Share = {ev['ratio']:.1f} / {ideal:.1f} = {ev['ratio'] / ideal:.0%}.",
                ],
                f"at most {ideal:.1f}x; FlexAttention gets {ev['ratio'] / ideal:.0%} of it.",
            )
        )
    else:
        out.append(_lacking("skipping", ["flex_sparsest"]))
    ev = shown.get("best_bound", {}).get("evidence")
    if ev:
        gb_s = ev["achieved_tflops"] * 1000 / ev["intensity"]
        out.append(
            Exercise(
                f"The fastest kernel does {ev['achieved_tflops']:,.1f} TFLOP/s at an arithmetic intensity of "
                f"{ev['intensity']:,.0f} FLOP/byte; the {ev['device']}'s ridge point is {ev['ridge']:,.0f} FLOP/byte. "
                "How much memory bandwidth does it use, and which roof limits it?",
                [
                    f"Bandwidth = FLOP/s / intensity = {ev['achieved_tflops']:,.1f} x 1000 / {ev['intensity']:,.0f} = "
                    f"{gb_s:,.0f} GB/s.",
                    f"Intensity / ridge = {ev['intensity']:,.0f} / {ev['ridge']:,.0f} = "
                    f"{ev['intensity'] / ev['ridge']:.1f}: right of the ridge.",
                ],
                f"{gb_s:,.0f} GB/s, a small part of the bandwidth: compute limits it, at "
                f"{ev['compute_fraction']:.0%} of the peak.",
            )
        )
    else:
        out.append(_lacking("the roof", ["best_bound"]))
    return out


def _longest_chain(steps: list[dict]) -> list[dict]:
    """The longest run of shown steps between neighbouring runs: only an unbroken chain of ratios
    multiplies to its last run against its first (a step within the noise is not shown)."""
    best, cur = [], []
    for c in steps:
        cur = cur + [c] if cur and int(c["id"][5:]) == int(cur[-1]["id"][5:]) + 1 else [c]
        best = cur if len(cur) > len(best) else best
    return best


def tracking(ledger) -> list[Exercise]:
    shown = _shown(ledger)
    steps = sorted(
        (c for cid, c in shown.items() if cid.startswith("step_") and cid[5:].isdigit()), key=lambda c: int(c["id"][5:])
    )
    out = []
    if steps:
        ev = steps[0]["evidence"]
        change = ev["a"] / ev["b"] - 1
        out.append(
            Exercise(
                f"Run `{ev['run']}` gives {ev['a']:,.2f} for {ev['metric']} against {ev['b']:,.2f} for "
                f"`{ev['previous_run']}`, whose runs spread by {ev['noise']:.1%}. What is the change, and how many "
                "spreads is it?",
                [
                    f"Ratio = {ev['a']:,.2f} / {ev['b']:,.2f} = {ev['a'] / ev['b']:.3f}, a change of {change:+.1%}.",
                    f"{abs(change):.3f} / {ev['noise']:.4f} = {abs(change) / ev['noise']:.1f} spreads.",
                ],
                f"{change:+.1%}, {abs(change) / ev['noise']:.1f} times the runs' spread.",
            )
        )
    else:
        out.append(_lacking("a step", ["step_1"]))
    chain = _longest_chain(steps)
    if len(chain) >= 2:
        ratios = [c["evidence"]["ratio"] for c in chain]
        total = env.product(ratios)
        first, last = chain[0]["evidence"]["previous_run"], chain[-1]["evidence"]["run"]
        out.append(
            Exercise(
                f"Multiply the {len(chain)} step-to-step ratios the chapter shows from `{first}` to `{last}` to get "
                "the last of those runs against the first. What is the net change?",
                [" x ".join(f"{r:.3f}" for r in ratios) + f" = {total:.3f}."],
                f"{total:.3f}, a net change of {total - 1:+.1%}.",
            )
        )
    else:
        out.append(_lacking("the net change", ["step_1", "step_2"]))
    return out


BUILDERS = {
    "bandwidth_roofline": bandwidth_roofline,
    "batch_saturation": batch_saturation,
    "serving_saturation": serving_saturation,
    "tp_scaling": tp_scaling,
    "quantization_regimes": quantization_regimes,
    "perf_per_watt": perf_per_watt,
    "attention_kernels": attention_kernels,
    "tracking": tracking,
}


def markdown(ledger) -> str:
    """The chapter's back-of-envelope exercises as MyST, solutions folded."""
    from benchbook.presentation.bottom_line import _chapter

    try:
        exs = BUILDERS[_chapter(ledger)](ledger)
    except (KeyError, TypeError, ZeroDivisionError) as exc:  # evidence of another shape than the seeds'
        lack = Exercise(f"This input's evidence lacks a value this exercise needs ({exc}).", [], "none for this input.")
        exs = [lack, lack]
    return "\n".join(e.markdown(i) for i, e in enumerate(exs, 1))


def glue_exercises(ledger) -> None:
    """Glue the exercises as `envelope_exercises` (hidden), for a `{glue:md}` directive."""
    from IPython.display import Markdown
    from myst_nb import glue

    glue("envelope_exercises", Markdown(markdown(ledger)), display=False)
