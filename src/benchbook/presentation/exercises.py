"""Back-of-envelope exercises in each chapter's own numbers: the question and its worked solution
are filled from the evidence of the chapter's shown claims when the page is built, so that they
stay true on any input. An exercise whose claim is not shown says which claim it needs instead.

Each builder takes the chapter's ledger (a Ledger or its dict) and returns Exercise objects; the
chapter glues `exercises_md` (MyST: a folded solution under each question).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from benchbook.analysis import envelope as env
from benchbook.analysis import tp
from benchbook.presentation.bottom_line import _claims


@dataclass
class Exercise:
    question: str
    steps: list[str] = field(default_factory=list)
    answer: str = ""
    #: the input lacks the numbers it needs: a page leaves it out
    lacking: bool = False

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
        lacking=True,
    )


def bandwidth_roofline(ledger) -> list[Exercise]:
    shown = _shown(ledger)
    dense = [
        c["evidence"]
        for cid, c in sorted(shown.items())
        if cid.startswith("bw_")
        and cid[3:].isdigit()
        and c["evidence"].get("architecture") == "dense"
        and c["evidence"].get("offload") in (None, "full")
    ]
    if not dense:
        return [_lacking("the ceiling", ["bw_N"]), _lacking("the critical batch", ["bound_N"])]
    small = min(dense, key=lambda e: e["gb_per_token"])
    big = max((e for e in dense if e["device"] == small["device"]), key=lambda e: e["gb_per_token"])
    out = []
    if big["gb_per_token"] > small["gb_per_token"]:
        guess = small["rate"] * small["gb_per_token"] / big["gb_per_token"]
        s_small = env.share(small["rate"], env.ceiling(small["peak"], small["gb_per_token"]))
        s_big = env.share(big["rate"], env.ceiling(big["peak"], big["gb_per_token"]))
        out.append(
            Exercise(
                f"`{small['label']}` reads {small['gb_per_token']:.2f} GB per token and generates "
                f"{small['rate']:,.2f} tok/s on the {small['device']}. `{big['label']}` reads "
                f"{big['gb_per_token']:.2f} GB per token on the same device. Predict its rate if it reached the same "
                "share of its ceiling, then compare with what it measured.",
                [
                    "The ceiling is bandwidth / bytes per token, so at an equal share the rate scales as 1 / bytes.",
                    f"Predicted = {small['rate']:,.2f} x {small['gb_per_token']:.2f} / {big['gb_per_token']:.2f} = "
                    f"{guess:,.2f} tok/s.",
                    f"Measured: {big['rate']:,.2f} tok/s, {big['rate'] / guess:.2f} times the prediction: "
                    f"{s_big:.1%} of its ceiling against {s_small:.1%}.",
                ],
                f"{guess:,.2f} tok/s predicted, {big['rate']:,.2f} measured"
                + (
                    ": the bigger model gets closer to its ceiling, because a fixed cost per token weighs less "
                    "in a longer token."
                    if big["rate"] > guess
                    else "."
                ),
            )
        )
    else:  # one model: its ceiling is the lesson's worked example, not an exercise
        out.append(_lacking("two models' rates", ["bw_N for two dense models"]))
    ev = small
    bound = next(
        (
            c["evidence"]
            for c in shown.values()
            if c["id"].startswith("bound_") and c["evidence"].get("label") == ev["label"]
        ),
        None,
    )
    if bound is None or not ev.get("active_params_b") or not bound.get("ridge"):
        out.append(_lacking("the critical batch", [f"bound_N for {ev['label']}"]))
        return out
    gb, r = ev["gb_per_token"], bound["ridge"]
    i = env.intensity(ev["active_params_b"], gb)
    out.append(
        Exercise(
            f"A step of `{ev['label']}` does 2 FLOPs per parameter ({ev['active_params_b']:.2f} billion) for each "
            f"sequence in the batch, and reads its {gb:.2f} GB once whatever the batch. How many sequences must "
            f"share a step before it reaches the {ev['device']}'s ridge of {r:,.0f} FLOP/byte, where compute "
            "starts to limit it?",
            [
                f"Intensity at batch 1 = 2 x {ev['active_params_b']:.2f} / {gb:.2f} = {i:.2f} FLOP/byte; at batch B "
                "it is B times that.",
                f"B = ridge / intensity = {r:,.0f} / {i:.2f} = {r / i:,.0f} sequences.",
            ],
            f"about {r / i:,.0f} sequences per step; at batch 1 memory bandwidth limits it, not compute.",
        )
    )
    return out


def batch_saturation(ledger) -> list[Exercise]:
    shown = _shown(ledger)
    out = []
    ev = shown.get("bandwidth_small", {}).get("evidence")
    if ev:
        bw = env.bandwidth(ev["weight_gb"], ev["step_ms"])
        s = env.share(bw, ev["peak"])
        out.append(
            Exercise(
                f"At batch {ev['batch_size']}, {ev['series']} reads {ev['weight_gb']:.2f} GB of weights per step, "
                f"and a step takes {ev['step_ms']:.1f} ms. What bandwidth is that, and what share of the "
                f"{ev['device']}'s {ev['peak']:,.0f} GB/s?",
                [
                    f"Bandwidth = {ev['weight_gb']:.2f} GB / {ev['step_ms'] / 1000:.4f} s = {bw:,.0f} GB/s.",
                    f"Share = {bw:,.0f} / {ev['peak']:,.0f} = {s:.1%}.",
                ],
                f"{bw:,.0f} GB/s, {s:.1%} of the peak: at batch 1 the step is far from any hardware limit.",
            )
        )
    else:
        out.append(_lacking("bandwidth at batch 1", ["bandwidth_small"]))
    ev = shown.get("knee", {}).get("evidence")
    if ev and ev.get("peak_batch_size"):
        per_seq = ev["peak_tok_s"] / ev["peak_batch_size"]
        first = ev["first_tok_s"] / ev["first_batch_size"]
        out.append(
            Exercise(
                f"{ev['series']} gives {ev['first_tok_s']:,.2f} tok/s at batch {ev['first_batch_size']} and "
                f"{ev['peak_tok_s']:,.2f} tok/s at batch {ev['peak_batch_size']:,}. How much faster is the "
                "whole batch, and how fast does each sequence in it go?",
                [
                    f"Total gain = {ev['peak_tok_s']:,.2f} / {ev['first_tok_s']:,.2f} = "
                    f"{ev['peak_tok_s'] / ev['first_tok_s']:,.0f}x.",
                    f"Per sequence = {ev['peak_tok_s']:,.2f} / {ev['peak_batch_size']:,} = {per_seq:.2f} tok/s, "
                    f"against {first:.2f} at batch {ev['first_batch_size']}: {first / per_seq:.1f}x slower each.",
                ],
                f"{ev['peak_tok_s'] / ev['first_tok_s']:,.0f}x the throughput, while each sequence gets "
                f"{per_seq:.2f} tok/s instead of {first:.2f}.",
            )
        )
    else:
        out.append(_lacking("batch gain", ["knee"]))
    return out


def serving_saturation(ledger) -> list[Exercise]:
    shown = _shown(ledger)
    out = []
    ev = shown.get("knee", {}).get("evidence")
    if ev and ev.get("x") and ev.get("top_x") and ev["top_x"] != ev["x"]:
        e = env.elasticity(ev["x"], ev["knee_tput"], ev["top_x"], ev["top_tput"])
        out.append(
            Exercise(
                f"Output throughput is {ev['knee_tput']:,.1f} tok/s at {ev['variable']} {ev['x']:,.0f} and "
                f"{ev['top_tput']:,.1f} tok/s at {ev['top_x']:,.0f}. What is the elasticity from the one to the other, "
                "and "
                "what share of the top throughput does the knee already give?",
                [
                    f"Relative output gain = ({ev['top_tput']:,.1f} - {ev['knee_tput']:,.1f}) / {ev['knee_tput']:,.1f}"
                    f" = {(ev['top_tput'] - ev['knee_tput']) / ev['knee_tput']:.3f}; relative input gain = "
                    f"({ev['top_x']:,.0f} - {ev['x']:,.0f}) / {ev['x']:,.0f} = {(ev['top_x'] - ev['x']) / ev['x']:.2f}.",
                    f"Elasticity = their ratio = {e:.3f}; share = {ev['knee_tput']:,.1f} / {ev['top_tput']:,.1f} = "
                    f"{ev['knee_tput'] / ev['top_tput']:.1%}.",
                ],
                f"an elasticity of {e:.3f} (each 1 % more load buys {e:.2f} % more output), with "
                f"{ev['knee_tput'] / ev['top_tput']:.1%} of the top throughput already at the knee.",
            )
        )
    else:
        out.append(_lacking("elasticity", ["knee"]))
    ev = shown.get("compute_best", {}).get("evidence")
    act = (shown.get("bandwidth_low", {}).get("evidence") or {}).get("active_params_b")
    if ev and act:
        tok = env.tokens_per_s(ev["achieved"], act)
        out.append(
            Exercise(
                f"The best run does {ev['achieved']:,.1f} TFLOP/s, counting 2 FLOPs per active parameter "
                f"({act:.1f} billion) per prompt or output token. How many tokens per second is that, and what "
                f"share of the {ev['device']}'s {ev['peak']:,.0f} TFLOP/s?",
                [
                    f"Tokens/s = {ev['achieved']:,.1f} x 10^12 / (2 x {act:.1f} x 10^9) = {tok:,.0f}.",
                    f"Share = {ev['achieved']:,.1f} / {ev['peak']:,.0f} = {ev['achieved'] / ev['peak']:.1%}.",
                ],
                f"{tok:,.0f} tokens/s (prompt and output together), {ev['achieved'] / ev['peak']:.1%} of the compute peak.",
            )
        )
    else:
        out.append(_lacking("compute", ["compute_best", "bandwidth_low"]))
    return out


def tp_scaling(ledger) -> list[Exercise]:
    ev = _shown(ledger).get("decode_turn", {}).get("evidence") or {}
    out = []
    if ev.get("after") == "slower" and ev.get("layers"):
        link_name, link = tp.LINKS[0]
        n, bs = ev["max_tp"], ev["batch_size"]
        b = tp.allreduce_budget(ev["layers"], ev["hidden"], bs, n, link)
        grew_us = (ev["max_ms"] - ev["turn_ms"]) * 1000
        us = b["bandwidth_ms"] * 1000
        out.append(
            Exercise(
                f"At batch {bs} the model ({ev['layers']} layers, hidden size {ev['hidden']:,}) sums its partial "
                "results with an all-reduce after the attention and after the MLP of every layer, each of hidden size "
                f"x batch values in 2 bytes. Predict how many bytes each GPU sends for one decode step on TP {n} (a "
                f"ring sends 2(N - 1)/N of each all-reduce), and how long that takes over {link_name} ({link:g} GB/s). "
                f"Then compare with the data: decode took {ev['turn_ms']:.2f} ms per token on TP {ev['turn_tp']} and "
                f"{ev['max_ms']:.2f} ms on TP {n}.",
                [
                    f"All-reduces per step = 2 x {ev['layers']} = {b['allreduces']}; each sums {ev['hidden']:,} x {bs} x 2 "
                    f"= {b['bytes_each']:,.0f} bytes.",
                    f"Sent per GPU = {b['allreduces']} x 2 x {n - 1}/{n} x {b['bytes_each']:,.0f} = "
                    f"{b['bytes_sent']:,.0f} bytes; over {link:g} GB/s that is {us:.1f} µs.",
                    f"The step grew by {ev['max_ms']:.2f} - {ev['turn_ms']:.2f} ms = {grew_us:,.0f} µs, "
                    f"{grew_us / us:,.0f} times the bytes' time.",
                ],
                f"{b['bytes_sent'] / 1000:,.1f} kB and {us:.1f} µs per step; the step grew by {grew_us:,.0f} µs"
                + (": what an added GPU costs here is latency, not bytes." if grew_us >= 10 * us else "."),
            )
        )
    else:
        out.append(_lacking("all-reduce bytes", ["decode_turn (slower past its turn, model layers known)"]))
    turned = [t for t in ev.get("per_batch", []) if t["after"] in ("slower", "flat")]
    # from a turn past the smallest TP (a turn at the smallest only bounds the optimum from above)
    pair = [
        (x, y)
        for x in turned
        for y in turned
        if y["batch_size"] > x["batch_size"] and y["ref_tp"] == x["ref_tp"] and x["turn_tp"] > x["ref_tp"]
    ]
    if pair:  # the widest span of batch sizes
        x, y = max(pair, key=lambda q: q[1]["batch_size"] / q[0]["batch_size"])
        grow = y["ref_ms"] / x["ref_ms"]
        guess = x["turn_tp"] * grow**0.5
        out.append(
            Exercise(
                f"The scaling model's step is a / N + b x (N - 1) + c. Where is it shortest? On TP {x['ref_tp']} the "
                f"step takes {x['ref_ms']:.2f} ms at batch {x['batch_size']} and {y['ref_ms']:.2f} ms at batch "
                f"{y['batch_size']}. If the work that splits, a, grows in that proportion while an added GPU's cost b "
                f"stays, where should decode stop getting faster at batch {y['batch_size']}, given TP {x['turn_tp']} "
                f"at batch {x['batch_size']}? Compare with the data.",
                [
                    "The derivative -a / N^2 + b is zero at N = square root of (a / b).",
                    f"a grows {y['ref_ms']:.2f} / {x['ref_ms']:.2f} = {grow:.2f} times, so N grows square root of "
                    f"{grow:.2f} = {grow**0.5:.2f} times: {x['turn_tp']} x {grow**0.5:.2f} = {guess:.1f} GPUs.",
                    f"Measured: decode stops getting faster at TP {y['turn_tp']} at batch {y['batch_size']}.",
                ],
                f"about {guess:.1f} GPUs; the data turns at TP {y['turn_tp']}.",
            )
        )
    else:
        out.append(_lacking("where it turns", ["decode_turn (a turn at two batch sizes)"]))
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
    exs = [e for e in exs if not e.lacking]  # an exercise uses this input's numbers or is left out
    if not exs:
        return "This input does not give the numbers these exercises need; the claims ledger says which are missing."
    return "\n".join(e.markdown(i) for i, e in enumerate(exs, 1))


def glue_exercises(ledger) -> None:
    """Glue the exercises as `envelope_exercises` (hidden), for a `{glue:md}` directive."""
    from IPython.display import Markdown
    from myst_nb import glue

    glue("envelope_exercises", Markdown(markdown(ledger)), display=False)
