"""Back-of-envelope exercises in each chapter's own numbers: the question and its worked solution
are filled from the evidence of the chapter's shown claims when the page is built, so that they
stay true on any input. An exercise whose claim is not shown says which claim it needs instead.

Each builder takes the chapter's ledger (a Ledger or its dict) and returns Exercise objects; the
chapter glues `exercises_md` (MyST: a folded solution under each question).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from benchbook.analysis import envelope as env
from benchbook.analysis import roofline, tp
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
    from benchbook.analysis.batch import BYTES_PER_PARAM

    shown = _shown(ledger)
    out = []
    knee, bound = shown.get("knee", {}).get("evidence"), shown.get("bound_small", {}).get("evidence")
    bpw = BYTES_PER_PARAM.get((bound or {}).get("dtype"))
    if knee and bound and bound.get("ridge") and bpw and bound.get("dtype") == knee.get("dtype"):
        b_star = roofline.critical_batch(bound["ridge"], bpw)
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
                (
                    f"From batch {ev['first']} to {ev['last']} one decode step takes {ev['low'] * 1e3:.2f} to "
                    f"{ev['high'] * 1e3:.2f} ms: the step "
                    if ev.get("timed") == "decode step"
                    else f"From batch {ev['first']} to {ev['last']} one call takes {ev['low']:.2f} to {ev['high']:.2f} s: the step "
                )
                + f"time hardly moves. At batch {ev['first']} the run gives {ev['first_tok_s']:,.2f} tok/s. Predict its "
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
                f"L* = {n_star:,.0f} requests in flight"
                + (f"; the knee held {held / n_star:.0%} of it." if held else f"; the knee is at {ev['x']:,g}."),
            )
        )
    else:
        out.append(_lacking("the knee by Little's law", ["knee"]))
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
    """Predict, then compare: the bytes a decode step reads at each precision and the rate they
    allow; the batch at which weight-only int8 stops gaining, against the measured crossover. An
    exercise whose numbers this input lacks is left out."""
    shown = _shown(ledger)
    out = []
    ev = shown.get("decode_bandwidth", {}).get("evidence")
    if ev and ev.get("baseline_tok_s") and ev.get("step_gb"):
        b, p, bs = ev["baseline"], ev["active_params_b"], ev["batch_size"]
        gb_b, gb_s = ev["baseline_step_gb"], ev["step_gb"]
        ceil_b, ceil_s = env.ceiling(ev["peak"], gb_b) * bs, env.ceiling(ev["peak"], gb_s) * bs
        rate_b, rate_s = ev["baseline_tok_s"], ev["tok_s"]
        out.append(
            Exercise(
                f"In {ev['regime']} (batch {bs}), every decode step reads each of the model's {p:.2f} billion "
                f"weights once. Predict how many GB one step reads in `{b}` ({ev['baseline_bytes_per_weight']:g} "
                f"bytes per weight) and in `{ev['scheme']}` ({ev['bytes_per_weight']:g} byte per weight), and the "
                f"decode rate each allows on the {ev['device']} ({ev['peak']:,.0f} GB/s). Then compare with the "
                f"measured {rate_b:,.1f} and {rate_s:,.1f} tok/s.",
                [
                    f"`{b}`: {p:.2f} x 10^9 weights x {ev['baseline_bytes_per_weight']:g} bytes = {gb_b:.2f} GB per "
                    f"step; {ev['peak']:,.0f} GB/s / {gb_b:.2f} GB x batch {bs} = {ceil_b:,.1f} tok/s.",
                    f"`{ev['scheme']}`: {p:.2f} x 10^9 x {ev['bytes_per_weight']:g} byte = {gb_s:.2f} GB per step; "
                    f"{ev['peak']:,.0f} / {gb_s:.2f} x {bs} = {ceil_s:,.1f} tok/s.",
                    f"Measured: {rate_b:,.1f} / {ceil_b:,.1f} = {env.share(rate_b, ceil_b):.1%} and {rate_s:,.1f} / "
                    f"{ceil_s:,.1f} = {env.share(rate_s, ceil_s):.1%} of those ceilings; halving the bytes made the "
                    f"step {rate_s / rate_b:.2f}x as fast, not 2x.",
                ],
                f"{gb_b:.2f} GB and {gb_s:.2f} GB per step, ceilings of {ceil_b:,.1f} and {ceil_s:,.1f} tok/s; the "
                f"runs reach {env.share(rate_b, ceil_b):.1%} and {env.share(rate_s, ceil_s):.1%} of them, a gain of "
                f"{rate_s / rate_b:.2f}x.",
            )
        )
    ev = shown.get("w8a16_decode_trend", {}).get("evidence")
    if ev and ev.get("ridge") and ev.get("tflops") and ev.get("bandwidth_gb_s"):
        r = roofline.ridge(ev["tflops"], ev["bandwidth_gb_s"])
        cross = ev.get("crossover_batch")
        measured = (
            f"Measured: the gain falls from {ev['y_first']:.2f}x at batch {ev['x_first']} to {ev['y_last']:.2f}x at "
            f"batch {ev['x_last']}, "
            + (
                f"crossing 1x at about batch {cross:.0f}: {r / cross:.1f}x earlier than the roofline allows, so the "
                "weight-only kernel's own cost decides, not the device's roofs."
                if cross
                else "without crossing 1x."
            )
        )
        out.append(
            Exercise(
                f"`{ev['scheme']}` stores 8-bit weights and multiplies them in 16 bits. On the {ev['device']} "
                f"({ev['tflops']:,.0f} TFLOP/s, {ev['bandwidth_gb_s']:,.0f} GB/s), predict from the roofline up to "
                f"which batch its decode step can run 2x as fast as `{ev['baseline']}`, and from which batch it can "
                "gain nothing. Then compare with the batch at which its measured gain turns into a loss.",
                [
                    f"Ridge = {ev['tflops']:,.0f} x 1000 / {ev['bandwidth_gb_s']:,.0f} = {r:.0f} FLOP/byte.",
                    f"8-bit weights: 2 x B FLOP/byte reaches the ridge at B = {r:.0f} / 2 = {r / 2:.0f}; up to there "
                    "the step is bandwidth-bound and half the bytes make it 2x as fast.",
                    f"bf16: B FLOP/byte reaches the ridge at B = {r:.0f}; from there both are compute-bound on the "
                    "same 16-bit tensor cores, and w8a16 gains nothing.",
                    measured,
                ],
                f"2x up to batch {r / 2:.0f}, nothing from batch {r:.0f}"
                + (f"; the runs turn into a loss near batch {cross:.0f}." if cross else "."),
            )
        )
    return out


def _measured_floor(shown: dict) -> Exercise | None:
    """The DRAM floor of a measured configuration's weights against its measured energy per output
    token (the first floor_N claim that states both)."""
    from benchbook.analysis.power import DRAM_PJ_PER_BIT

    ev = next(
        (
            c["evidence"]
            for cid, c in sorted(shown.items())
            if cid.startswith("floor_") and c["evidence"].get("weights_gb") and c["evidence"].get("a")
        ),
        None,
    )
    if ev is None:
        return None
    floor = env.dram_floor(ev["weights_gb"], DRAM_PJ_PER_BIT)
    ratio = ev["a"] / floor
    why = (
        "each token cost more than one read of its weights: the arithmetic, the caches and the power drawn "
        "regardless come on top"
        if ratio >= 1
        else "below the cost of one read per token: several sequences shared each read of the weights"
    )
    return Exercise(
        f"`{ev['run']}` reads {ev['weights_gb']:.3g} GB of weights per decode step (as this page's floor counts "
        "them), and moving one bit out of DRAM "
        f"costs about {DRAM_PJ_PER_BIT:g} pJ. Predict the least energy one read costs, then compare it with the "
        f"measured {ev['a']:.3g} J per output token.",
        [
            f"One read = {ev['weights_gb']:.3g} x 10^9 bytes x 8 bits x {DRAM_PJ_PER_BIT:g} x 10^-12 J = {floor:.3g} J.",
            f"{ev['a']:.3g} / {floor:.3g} = {ratio:.2g}.",
        ],
        f"about {floor:.2g} J per read; the measured figure is {ratio:.2g} times that: {why}.",
    )


def perf_per_watt(ledger) -> list[Exercise]:
    shown = _shown(ledger)
    out = []
    ev = shown.get("dram_floor", {}).get("evidence")
    if ev and ev["ratio"] <= 1:
        floor = env.dram_floor(ev["weights_gb"], ev["pj_per_bit"])
        said = "at most" if ev["upper_bound"] else "about"
        out.append(
            Exercise(
                f"At batch 1 each {ev['test']} token reads the model's {ev['weights_gb']:.3g} GB of weights once, "
                f"and moving one bit out of DRAM costs about {ev['pj_per_bit']:g} pJ. Predict the least energy a "
                f"token can cost, then compare it with the {said} {ev['b']:.3g} J per token this input gives at "
                f"{ev['limit_w']:.0f} W.",
                [
                    f"Floor = {ev['weights_gb']:.3g} x 10^9 bytes x 8 bits x {ev['pj_per_bit']:g} x 10^-12 J "
                    f"= {floor:.3g} J per token.",
                    f"{ev['b']:.3g} / {floor:.3g} = {ev['b'] / floor:.1f}.",
                ],
                f"about {floor:.2g} J per token; at {ev['limit_w']:.0f} W a token costs {said} {ev['b'] / floor:.1f} "
                "times that: the weights' DRAM traffic is a floor, and the arithmetic, the caches and the power "
                "the card draws regardless come on top.",
            )
        )
    elif measured := _measured_floor(shown):
        out.append(measured)
    else:
        out.append(_lacking("the energy floor", ["dram_floor", "floor_N"]))
    top = shown.get("flat_top_tg", {}).get("evidence")
    if top and ev and ev.get("peak_gb_s"):
        rate = max(top["ys"])
        bw = ev["weights_gb"] * rate
        s = env.share(bw, ev["peak_gb_s"])
        out.append(
            Exercise(
                f"{top['test']} holds about {rate:,.1f} tok/s from {top['to_w']:.0f} W down to {top['from_w']:.0f} W, "
                f"and each token reads {ev['weights_gb']:.3g} GB. Predict the bandwidth that takes and its share of "
                f"the {ev['device']}'s {ev['peak_gb_s']:,.0f} GB/s. Would a cap that lowers the core clock slow it?",
                [
                    f"Bandwidth = {ev['weights_gb']:.3g} GB x {rate:,.1f} tok/s = {bw:,.0f} GB/s.",
                    f"Share = {bw:,.0f} / {ev['peak_gb_s']:,.0f} = {s:.0%}.",
                ],
                f"{bw:,.0f} GB/s, {s:.0%} of the peak: the step waits on memory, which the cap does not slow, so it "
                f"keeps its rate until the core clock falls too low to keep memory busy: in this input, below "
                f"{top['from_w']:.0f} W.",
            )
        )
    else:
        out.append(_lacking("the bandwidth under the cap", ["flat_top_tg", "dram_floor"]))
    return out


def attention_kernels(ledger) -> list[Exercise]:
    """Predict, then compare: what skipping the masked tiles alone would give; the FLOPs of a causal
    pass and the TFLOP/s the times really give against those the tool prints. An exercise whose
    numbers this input lacks is left out."""
    shown = _shown(ledger)
    out = []
    ev = shown.get("flex_sparsest", {}).get("evidence")
    if ev and ev.get("density"):
        ideal = 1 / ev["density"]
        out.append(
            Exercise(
                f"The {ev['mask']} block mask keeps {ev['density']:.2%} of the 128 x 128 tiles. Predict how much "
                "faster than SDPA + mask (which computes every tile) a kernel would be if it skipped every empty "
                f"tile at SDPA's speed per tile. Then compare with FlexAttention's measured {ev['ratio']:.1f}x.",
                [
                    f"Ideal gain = 1 / density = 1 / {ev['density']:.4f} = {ideal:.1f}x.",
                    f"Measured / ideal = {ev['ratio']:.1f} / {ideal:.1f} = {ev['ratio'] / ideal:.0%}: "
                    + (
                        "FlexAttention is also faster per computed tile."
                        if ev["ratio"] > ideal
                        else "FlexAttention computes each tile more slowly than SDPA."
                    ),
                ],
                f"at most {ideal:.1f}x from skipping alone; FlexAttention gets {ev['ratio'] / ideal:.0%} of it.",
            )
        )
    ev = shown.get("flex_vs_fa2_causal", {}).get("evidence")
    if ev and ev.get("seq_len") and ev.get("sdpa_ms") and ev.get("density"):
        b, h, s_, d = ev["b_size"], ev["heads"], ev["seq_len"], ev["head_dim"]
        dense = 4 * b * h * s_**2 * d
        fa2 = dense / 2 / (ev["b"] / 1e3) / 1e12
        sdpa = dense / (ev["sdpa_ms"] / 1e3) / 1e12
        credited = ev["density"] * dense / (ev["sdpa_ms"] / 1e3) / 1e12
        out.append(
            Exercise(
                f"The causal section runs B = {b}, H = {h}, S = {s_:,}, D = {d}. Predict the FLOPs of a dense "
                "forward pass and of its causal half. Then compute the TFLOP/s really reached by FA2 (causal, "
                f"{ev['b']:.2f} ms) and by SDPA + mask (every tile, {ev['sdpa_ms']:.2f} ms), and what the tool prints "
                f"for SDPA + mask ({ev['sdpa_printed']:,.1f} TF/s), which it credits with the density "
                f"({ev['density']:.4f}) of the dense FLOPs.",
                [
                    f"Dense = 4 x B x H x S^2 x D = 4 x {b} x {h} x {s_:,}^2 x {d} = {dense / 1e12:.2f} x 10^12 FLOP; "
                    f"causal = half = {dense / 2e12:.2f} x 10^12.",
                    f"FA2: {dense / 2e12:.2f} x 10^12 / {ev['b'] / 1e3:.5f} s = {fa2:,.0f} TFLOP/s.",
                    f"SDPA + mask: {dense / 1e12:.2f} x 10^12 / {ev['sdpa_ms'] / 1e3:.5f} s = {sdpa:,.0f} TFLOP/s "
                    f"performed; credited {ev['density']:.4f} x {dense / 1e12:.2f} x 10^12 / {ev['sdpa_ms'] / 1e3:.5f} s "
                    f"= {credited:,.1f} TF/s, as printed.",
                ],
                f"{dense / 1e12:.2f} and {dense / 2e12:.2f} x 10^12 FLOP; FA2 reaches {fa2:,.0f} TFLOP/s, SDPA + mask "
                f"performs {sdpa:,.0f} but is printed at {credited:,.1f}: {sdpa / credited:.2f}x understated.",
            )
        )
    return out


def tracking(ledger) -> list[Exercise]:
    from math import comb

    claims = {c["id"]: c for c in _claims(ledger)}
    shown = _shown(ledger)
    steps = sorted(
        (c for cid, c in shown.items() if cid.startswith("step_") and cid[5:].isdigit()), key=lambda c: int(c["id"][5:])
    )
    out = []
    ev = (claims.get("changes") or {}).get("evidence")
    if ev and ev.get("n", 0) >= 4:
        n, alpha = ev["n"], ev["alpha"]
        orders = comb(n, n // 2)
        p = 2 / orders
        can = "can" if p < alpha else "cannot"
        out.append(
            Exercise(
                f"This series has {n} runs. Before reading the changes, predict the smallest p-value the permutation "
                f"test can give on {n} runs, and whether any change can be shown at alpha {alpha:g}.",
                [
                    f"The most even split puts {n // 2} runs first: C({n}, {n // 2}) = {orders:,} ways to choose them.",
                    f"The observed order ties with every order of the same runs and with its mirror: p >= 2 / {orders:,}"
                    f" = {p:.2g}.",
                ],
                f"p >= {p:.2g}, {'below' if p < alpha else 'not below'} alpha {alpha:g}: a change {can} be shown at "
                "that level, whatever the values.",
            )
        )
    else:
        out.append(_lacking("the smallest p-value", ["changes"]))
    if steps:
        ev = steps[0]["evidence"]
        change = ev["a"] / ev["b"] - 1
        out.append(
            Exercise(
                f"Run `{ev['run']}` gives {ev['a']:,.2f} for {ev['metric']} against {ev['b']:,.2f} for "
                f"`{ev['previous_run']}`, whose runs spread by {ev['noise']:.1%}. Predict whether the step is beyond "
                "the noise: what is the change, and how many spreads is it?",
                [
                    f"Ratio = {ev['a']:,.2f} / {ev['b']:,.2f} = {ev['a'] / ev['b']:.3f}, a change of {change:+.1%}.",
                    f"{abs(change):.3f} / {ev['noise']:.4f} = {abs(change) / ev['noise']:.1f} spreads.",
                ],
                f"{change:+.1%}, {abs(change) / ev['noise']:.1f} times the runs' spread.",
            )
        )
    else:
        out.append(_lacking("a step", ["step_1"]))
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


#: What a page says where every exercise of its chapter needs numbers its input lacks.
NONE_FOR_THIS_INPUT = "This input lacks the numbers these exercises are worked in (the claims ledger says which)."


def markdown(ledger) -> str:
    """The chapter's back-of-envelope exercises as MyST, solutions folded."""
    from benchbook.presentation.bottom_line import _chapter

    try:
        exs = BUILDERS[_chapter(ledger)](ledger)
    except (KeyError, TypeError, ZeroDivisionError):  # evidence of another shape than the seeds'
        exs = []
    exs = [e for e in exs if not e.lacking]  # an exercise uses this input's numbers or is left out
    if not exs:
        return NONE_FOR_THIS_INPUT
    return "\n".join(e.markdown(i) for i, e in enumerate(exs, 1))


def glue_exercises(ledger) -> None:
    """Glue the exercises as `envelope_exercises` (hidden), for a `{glue:md}` directive."""
    from IPython.display import Markdown
    from myst_nb import glue

    glue("envelope_exercises", Markdown(markdown(ledger)), display=False)
