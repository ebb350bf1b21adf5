"""Back-of-envelope exercises in each chapter's own numbers, so that they stay true on any input.

Python decides which exercise applies and computes its numbers from the evidence of the chapter's
claims (named values, a unit in the name where the value has one); the wording (question, solution
steps, answer) lives beside the chapter under `exercises:` in `notebooks/<chapter>.claims.yml`,
rendered by `presentation.wording`, where a teacher edits it without opening Python. Each asks for a
prediction and compares it with the data. An exercise whose claims are not shown, or whose wording
needs a value the input lacks, is left out of the page: it never borrows the book's numbers.

Each builder takes the chapter's ledger (a Ledger or its dict) and returns Exercise objects; the
chapter glues them as `envelope_exercises` (MyST: a folded solution under each question).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb, factorial, log

from benchbook.analysis import envelope as env
from benchbook.analysis import quant, roofline, tp
from benchbook.presentation import wording
from benchbook.presentation.bottom_line import _chapter, _claims

#: The package wording that frames every chapter's exercises (labels, and the page's sentence when none applies).
FRAME = "report"


@dataclass
class Exercise:
    """One exercise: its entry under `exercises:` in the chapter's wording file and the values its
    templates print. `needs` names the claims it lacks when it does not apply to the input."""

    chapter: str
    name: str = ""
    values: dict = field(default_factory=dict)
    needs: list[str] = field(default_factory=list)

    @property
    def lacking(self) -> bool:
        return bool(self.needs)

    def text(self) -> tuple[str, list[str], str]:
        """Question, solution steps and answer, as the chapter's wording file words them."""
        return wording.exercise(self.chapter, self.name, self.values)

    @property
    def question(self) -> str:
        return self.text()[0]

    @property
    def steps(self) -> list[str]:
        return self.text()[1]

    @property
    def answer(self) -> str:
        return self.text()[2]

    def markdown(self, n: int) -> str:
        question, steps, answer = self.text()
        label = wording.sentence(FRAME, "exercise_label", n=n)
        solution = wording.sentence(FRAME, "solution_label", n=n)
        body = "\n\n".join([*steps, f"{wording.sentence(FRAME, 'answer_label')} {answer}"])
        return f"{label} {question}\n\n:::{{admonition}} {solution}\n:class: dropdown\n\n{body}\n:::\n"


def as_printed(value: float, places: int) -> float:
    """`value` as a solution prints it (`places` decimals): a step that computes from numbers it prints
    computes from these, so the reader's arithmetic on the page lands on the page's result (25.07 from
    278.95 x 3.82 / 42.51, not the 25.08 that the unrounded bytes give)."""
    return round(float(value), places)


def _shown(ledger) -> dict[str, dict]:
    return {c["id"]: c for c in _claims(ledger) if c["status"] == "shown"}


def _lacking(chapter: str, ids: list[str]) -> Exercise:
    """An exercise this input cannot work: the ids of the shown claims it needs (a page leaves it out)."""
    return Exercise(chapter, needs=ids)


def bandwidth_roofline(ledger) -> list[Exercise]:
    ch = "bandwidth_roofline"
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
        return [_lacking(ch, ["bw_N"]), _lacking(ch, ["bound_N"])]
    small = min(dense, key=lambda e: e["gb_per_token"])
    big = max((e for e in dense if e["device"] == small["device"]), key=lambda e: e["gb_per_token"])
    out = []
    if big["gb_per_token"] > small["gb_per_token"]:
        # from the factors the step prints: the rate to 2 decimals, the bytes per token to 2
        guess = as_printed(small["rate"], 2) * as_printed(small["gb_per_token"], 2) / as_printed(big["gb_per_token"], 2)
        out.append(
            Exercise(
                ch,
                "equal_share",
                {
                    "device": small["device"],
                    "small_label": small["label"],
                    "small_gb": small["gb_per_token"],
                    "small_tok_s": small["rate"],
                    "small_share": env.share(small["rate"], env.ceiling(small["peak"], small["gb_per_token"])),
                    "big_label": big["label"],
                    "big_gb": big["gb_per_token"],
                    "big_tok_s": big["rate"],
                    "big_share": env.share(big["rate"], env.ceiling(big["peak"], big["gb_per_token"])),
                    "predicted_tok_s": guess,
                    "measured_over_predicted": as_printed(big["rate"], 2) / as_printed(guess, 2),
                    "closer": big["rate"] > guess,
                },
            )
        )
    else:  # one model: its ceiling is the lesson's worked example, not an exercise
        out.append(_lacking(ch, ["bw_N"]))  # of two dense models
    # the critical batch of the largest of them (the smallest is the foundations page's worked example)
    ev, bound = next(
        (
            (e, c["evidence"])
            for e in (big, small)
            for c in shown.values()
            if c["id"].startswith("bound_") and c["evidence"].get("label") == e["label"] and c["evidence"].get("ridge")
        ),
        (small, None),
    )
    if bound is None or not ev.get("active_params_b"):
        out.append(_lacking(ch, ["bound_N"]))
        return out
    gb, r = ev["gb_per_token"], bound["ridge"]
    i = env.intensity(ev["active_params_b"], gb)
    achieved = 2 * ev["active_params_b"] * ev["rate"] / 1e3  # TFLOP/s: 2 FLOPs per weight per token
    peak = r * ev["peak"] / 1e3  # TFLOP/s: the ridge times the bandwidth roof
    out.append(
        Exercise(
            ch,
            "critical_batch",
            {
                "label": ev["label"],
                "device": ev["device"],
                "params_b": ev["active_params_b"],
                "gb": gb,
                "ridge_flop_per_byte": r,
                "intensity_flop_per_byte": i,
                "critical_batch": r / i,
                "tok_s": ev["rate"],
                "achieved_tflops": achieved,
                "peak_tflops": peak,
                "compute_share": achieved / peak,
            },
        )
    )
    return out


def batch_saturation(ledger) -> list[Exercise]:
    from benchbook.analysis.batch import BYTES_PER_PARAM

    ch = "batch_saturation"
    shown = _shown(ledger)
    out = []
    knee = shown.get("knee", {}).get("evidence") or {}
    bw = shown.get("bandwidth_small", {}).get("evidence") or {}
    fl = shown.get("compute_large", {}).get("evidence") or {}
    bound = shown.get("bound_small", {}).get("evidence") or {}
    bpw = BYTES_PER_PARAM.get(bw.get("dtype"))
    same = knee.get("series") and knee.get("series") == bw.get("series") == fl.get("series")
    if same and knee.get("knee_tok_s") and bw.get("peak") and bw.get("active_params_b") and fl.get("peak") and bpw:
        # the lesson works B* and the floor at batch 1; the exercise takes the floor past B*, at the
        # batch where the series saturates: max(weights / bandwidth, B x 2 x parameters / peak)
        x, params = knee["x"], bw["active_params_b"]
        weights_ms = bw["weight_gb"] / bw["peak"] * 1e3
        tflop = x * 2 * params / 1e3
        flops_ms = tflop / fl["peak"] * 1e3
        step_ms = x / knee["knee_tok_s"] * 1e3
        floor_ms = max(weights_ms, flops_ms)
        out.append(
            Exercise(
                ch,
                "saturation_floor",
                {
                    "series": knee["series"],
                    "device": bw["device"],
                    "devices": bw.get("devices"),
                    "batch": x,
                    "weight_gb": bw["weight_gb"],
                    "bandwidth_gb_s": bw["peak"],
                    "params_b": params,
                    "peak_tflops": fl["peak"],
                    "weights_ms": weights_ms,
                    "tflop": tflop,
                    "flops_ms": flops_ms,
                    "floor_ms": floor_ms,
                    "compute_sets_it": flops_ms > weights_ms,
                    "critical_batch": roofline.critical_batch(bound["ridge"], bpw) if bound.get("ridge") else None,
                    "tok_s": knee["knee_tok_s"],
                    "step_ms": step_ms,
                    "over_floor": step_ms / floor_ms,
                },
            )
        )
    else:
        out.append(_lacking(ch, ["knee", "bandwidth_small", "compute_large"]))
    ev = shown.get("latency_flat", {}).get("evidence")
    if ev and ev.get("first_tok_s") and ev.get("ys") and bw.get("active_params_b") and fl.get("peak"):
        # the bottom line says the step time holds; the exercise bounds what the added sequences' FLOPs
        # could cost were none hidden under the weight reads (below B* the roofline hides them all),
        # against what the call grew
        t_first, t_last = ev["ys"][0], ev["ys"][-1]
        tokens = round(ev["first_tok_s"] * t_first / ev["first"])  # new tokens per call (1 for a timed step)
        us = 2 * bw["active_params_b"] * 1e9 / (fl["peak"] * 1e12) * 1e6
        added = ev["last"] - ev["first"]
        predicted_ms = added * tokens * us / 1e3
        measured_ms = (t_last - t_first) * 1e3
        b_star = roofline.critical_batch(bound["ridge"], bpw) if bound.get("ridge") and bpw else None
        out.append(
            Exercise(
                ch,
                "linear_regime",
                {
                    "first_batch": ev["first"],
                    "last_batch": ev["last"],
                    "decode_step": ev.get("timed") == "decode step",
                    "low_s": ev["low"],
                    "high_s": ev["high"],
                    "low_ms": ev["low"] * 1e3,
                    "high_ms": ev["high"] * 1e3,
                    "t_first": t_first,
                    "t_last": t_last,
                    "t_first_ms": t_first * 1e3,
                    "t_last_ms": t_last * 1e3,
                    "tokens": tokens,
                    "params_b": bw["active_params_b"],
                    "gflop": 2 * bw["active_params_b"],
                    "device": fl.get("device") or bw.get("device"),
                    "peak_tflops": fl["peak"],
                    "us_per_token": us,
                    "added": added,
                    "predicted_ms": predicted_ms,
                    "measured_ms": measured_ms,
                    "measured_over_predicted": measured_ms / predicted_ms if predicted_ms else 0.0,
                    "measured_share": measured_ms / (t_first * 1e3),
                    "critical_batch": b_star,
                    "below": bool(b_star) and ev["last"] < b_star,
                },
            )
        )
    else:
        out.append(_lacking(ch, ["latency_flat", "bandwidth_small", "compute_large"]))
    b_star = roofline.critical_batch(bound["ridge"], bpw) if bound.get("ridge") and bpw else None
    out.append(_measured_turn(ev or {}, b_star, bound.get("device")))
    return out


def _measured_turn(ev: dict, b_star: float | None = None, device: str | None = None) -> Exercise:
    """The lesson's max() in the run's own times, no device needed: the flat step the batch shares, and
    the line through the first two batches past it (a part the batch shares plus a cost each sequence
    adds). Where the line meets the flat step is the run's counterpart of B*; the line carried to the
    largest batch predicts its throughput. Needs three batch sizes past the flat range, a growing step
    and a positive shared part (a line through zero or below is no fixed cost to amortise). Where the
    input names a device, the answer sets the turn against its B*."""
    from benchbook.claims.batch import FLAT_TOLERANCE

    ch = "batch_saturation"
    xs, ys, tok_s = ev.get("past_xs") or [], ev.get("past_ys") or [], ev.get("past_tok_s") or []
    if len(xs) < 3 or not ev.get("ys"):
        return _lacking(ch, ["latency_flat"])  # with three batch sizes past its flat range
    (b1, b2), (t1, t2) = xs[:2], ys[:2]
    per_seq = (t2 - t1) / (b2 - b1)  # s per call (or step) each added sequence costs
    shared = t1 - b1 * per_seq
    if per_seq <= 0 or shared <= 0:
        return _lacking(ch, ["latency_flat"])
    t_flat, last, t_last = ev["ys"][-1], xs[-1], ys[-1]
    tokens = round(tok_s[-1] * t_last / last)  # new tokens per sequence per call (1 for a timed step)
    turn = (t_flat - shared) / per_seq
    predicted = shared + per_seq * last
    predicted_tok_s = tokens * last / predicted
    top = (t_last - ys[-2]) / (last - xs[-2])
    ratio = tok_s[-1] / predicted_tok_s
    step = ev.get("timed") == "decode step"
    scale = 1e3 if step else 1.0  # a timed step in ms, a call in s
    return Exercise(
        ch,
        "measured_turn",
        {
            "decode_step": step,
            "unit": "ms" if step else "s",
            "last_flat": ev["last"],
            "t_flat": t_flat * scale,
            "b1": b1,
            "b2": b2,
            "t1": t1 * scale,
            "t2": t2 * scale,
            "per_seq_ms": per_seq * 1e3,
            "own1": b1 * per_seq * scale,
            "shared": shared * scale,
            "turn": turn,
            "where": "between" if ev["last"] < turn <= b1 else ("before" if turn <= ev["last"] else "after"),
            "tokens": tokens,
            "ceiling_tok_s": tokens / per_seq,
            "last": last,
            "own_last": per_seq * last * scale,
            "predicted": predicted * scale,
            "predicted_tok_s": predicted_tok_s,
            "tok_s": tok_s[-1],
            "measured_over_predicted": ratio,
            "top_ms": top * 1e3,
            "tolerance": FLAT_TOLERANCE,
            "verdict": "holds" if abs(ratio - 1) <= FLAT_TOLERANCE else ("short" if ratio < 1 else "beats"),
            "critical_batch": b_star if device else None,
            "device": device,
        },
    )


def serving_saturation(ledger) -> list[Exercise]:
    ch = "serving_saturation"
    shown = _shown(ledger)
    out = []
    ev = (shown.get("underfilled") or {}).get("evidence") or {}
    if ev.get("rate") and ev.get("latency_s") and ev.get("cap"):
        held = ev["rate"] * ev["latency_s"]
        out.append(
            Exercise(
                ch,
                "littles_law",
                {
                    "run": ev["run"],
                    "rate_per_s": ev["rate"],
                    "latency_s": ev["latency_s"],
                    "cap": ev["cap"],
                    "estimated": bool(ev.get("estimated")),
                    "full_latency_s": ev["cap"] / ev["rate"],  # Little's law, W = L / rate, with the cap full
                    "in_flight": held,
                    "share_of_cap": held / ev["cap"],
                },
            )
        )
    else:
        out.append(_lacking(ch, ["underfilled"]))
    ev = (shown.get("knee") or {}).get("evidence") or {}
    held, rate = ev.get("knee_in_flight"), ev.get("knee_rate")
    if held and rate and ev.get("w0_s") and ev.get("predicted_in_flight"):
        # the lesson works L* = mu x W0; the exercise predicts what it does not: the knee's rate with no wait
        no_wait = held / ev["w0_s"]
        out.append(
            Exercise(
                ch,
                "knee",
                {
                    "w0_run": ev["w0_run"],
                    "w0_s": ev["w0_s"],
                    "variable": ev["variable"],
                    "knee_x": ev["x"],
                    "knee_in_flight": held,
                    "no_wait_rate": no_wait,
                    "knee_rate": rate,
                    "share_of_no_wait": rate / no_wait,
                    "knee_latency_s": held / rate,  # Little's law, W = L / rate
                    "latency_over_w0": held / rate / ev["w0_s"],
                    "predicted_in_flight": ev["predicted_in_flight"],
                },
            )
        )
    else:
        out.append(_lacking(ch, ["knee"]))
    return out


def tp_scaling(ledger) -> list[Exercise]:
    ch = "tp_scaling"
    shown = _shown(ledger)
    ev = shown.get("decode_turn", {}).get("evidence") or {}
    out = []
    if ev.get("after") == "slower" and ev.get("layers"):
        link_name, link = tp.LINKS[0]
        # the lesson counts the smallest batch that got slower past its turn: the exercise takes the
        # largest other one where there is one, so that it predicts rather than repeats the lesson
        other = [
            c["evidence"]
            for cid, c in shown.items()
            if cid.startswith("decode_turn_")
            and c["evidence"].get("after") == "slower"
            and c["evidence"].get("batch_size") != ev["batch_size"]
        ]
        at = max(other, key=lambda e: e["batch_size"]) if other else ev
        n, bs = at["max_tp"], at["batch_size"]
        b = tp.allreduce_budget(ev["layers"], ev["hidden"], bs, n, link)
        grew_us = (at["max_ms"] - at["turn_ms"]) * 1000
        us = b["bandwidth_ms"] * 1000
        out.append(
            Exercise(
                ch,
                "allreduce",
                {
                    "batch": bs,
                    "lesson_batch": ev["batch_size"],
                    "layers": ev["layers"],
                    "hidden": ev["hidden"],
                    "tp": n,
                    "tp_minus_1": n - 1,
                    "link": link_name,
                    "link_gb_s": link,
                    "turn_tp": at["turn_tp"],
                    "turn_ms": at["turn_ms"],
                    "max_ms": at["max_ms"],
                    "allreduces": b["allreduces"],
                    "bytes_each": b["bytes_each"],
                    "bytes_sent": b["bytes_sent"],
                    "kb_sent": b["bytes_sent"] / 1000,
                    "allreduce_us": us,
                    "grew_us": grew_us,
                    "grew_over_allreduce": grew_us / us,
                    "latency_not_bytes": grew_us >= 10 * us,
                },
            )
        )
    else:
        out.append(_lacking(ch, ["decode_turn"]))  # slower past its turn, layers known
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
        out.append(
            Exercise(
                ch,
                "turn",
                {
                    "ref_tp": x["ref_tp"],
                    "small_batch": x["batch_size"],
                    "small_ms": x["ref_ms"],
                    "small_turn_tp": x["turn_tp"],
                    "big_batch": y["batch_size"],
                    "big_ms": y["ref_ms"],
                    "big_turn_tp": y["turn_tp"],
                    "a_grows": grow,
                    "n_grows": grow**0.5,
                    "predicted_tp": x["turn_tp"] * grow**0.5,
                },
            )
        )
    else:
        out.append(_lacking(ch, ["decode_turn"]))  # a turn at two batch sizes
    return out


def quantization_regimes(ledger) -> list[Exercise]:
    """Predict, then compare: the bytes a decode step reads at each precision and the rate they
    allow; the batch at which weight-only int8 stops gaining, against the measured crossover."""
    ch = "quantization_regimes"
    shown = _shown(ledger)
    out = []
    ev = shown.get("decode_bandwidth", {}).get("evidence")
    if ev and ev.get("baseline_tok_s") and ev.get("step_gb"):
        bs, p = ev["batch_size"], ev["active_params_b"]
        # the bytes one step reads: every weight once, at its precision's bytes (as the steps work it)
        gb_b, gb_s = p * ev["baseline_bytes_per_weight"], p * ev["bytes_per_weight"]
        ceil_b, ceil_s = env.ceiling(ev["peak"], gb_b) * bs, env.ceiling(ev["peak"], gb_s) * bs
        rate_b, rate_s = ev["baseline_tok_s"], ev["tok_s"]
        out.append(
            Exercise(
                ch,
                "bytes_per_step",
                {
                    "regime": ev["regime"],
                    "batch": bs,
                    "params_b": p,
                    "device": ev["device"],
                    "peak_gb_s": ev["peak"],
                    "baseline": ev["baseline"],
                    "baseline_bytes_per_weight": ev["baseline_bytes_per_weight"],
                    "baseline_gb": gb_b,
                    "baseline_ceiling_tok_s": ceil_b,
                    "baseline_tok_s": rate_b,
                    "baseline_share": env.share(rate_b, ceil_b),
                    "scheme": ev["scheme"],
                    "bytes_per_weight": ev["bytes_per_weight"],
                    "gb": gb_s,
                    "ceiling_tok_s": ceil_s,
                    "tok_s": rate_s,
                    "share": env.share(rate_s, ceil_s),
                    "bytes_ratio": ev["baseline_bytes_per_weight"] / ev["bytes_per_weight"],
                    "gain": rate_s / rate_b,
                },
            )
        )
    ev = shown.get("w8a16_decode_trend", {}).get("evidence")
    if ev and ev.get("ridge") and ev.get("tflops") and ev.get("bandwidth_gb_s"):
        r = roofline.ridge(ev["tflops"], ev["bandwidth_gb_s"])
        cross = ev.get("crossover_batch")
        # the roofline's gain of 8-bit over 16-bit weights, both multiplied in 16 bits, at the largest
        # batch measured (the lesson's derivation)
        predicted = float(quant.ideal_speedups(ev["x_last"], ev["tflops"], None, ev["bandwidth_gb_s"])["w8a16"])
        out.append(
            Exercise(
                ch,
                "weight_only_turn",
                {
                    "scheme": ev["scheme"],
                    "baseline": ev["baseline"],
                    "device": ev["device"],
                    "tflops": ev["tflops"],
                    "bandwidth_gb_s": ev["bandwidth_gb_s"],
                    "ridge_flop_per_byte": r,
                    "batch_8bit": roofline.critical_batch(r, 1.0),
                    "batch_16bit": roofline.critical_batch(r, 2.0),
                    "first_batch": ev["x_first"],
                    "first_gain": ev["y_first"],
                    "last_batch": ev["x_last"],
                    "last_gain": ev["y_last"],
                    "crossover_batch": cross,
                    "predicted_gain": predicted,
                    "measured_over_predicted": ev["y_last"] / predicted,
                },
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
    return Exercise(
        "perf_per_watt",
        "measured_floor",
        {
            "run": ev["run"],
            "weights_gb": ev["weights_gb"],
            "pj_per_bit": DRAM_PJ_PER_BIT,
            "floor_j": floor,
            "measured_j": ev["a"],
            "measured_over_floor": ev["a"] / floor,
            "above_floor": ev["a"] >= floor,
        },
    )


def perf_per_watt(ledger) -> list[Exercise]:
    ch = "perf_per_watt"
    shown = _shown(ledger)
    out = []
    ev = shown.get("dram_floor", {}).get("evidence")
    if ev and ev["ratio"] <= 1 and ev.get("peak_gb_s"):
        # the floor is the lesson's (its claim works it): the exercise predicts what it draws at the
        # bandwidth ceiling, a power the page does not state, against the limit
        floor = env.dram_floor(ev["weights_gb"], ev["pj_per_bit"])
        ceiling = ev["peak_gb_s"] / ev["weights_gb"]
        out.append(
            Exercise(
                ch,
                "energy_floor",
                {
                    "test": ev["test"],
                    "device": ev["device"],
                    "weights_gb": ev["weights_gb"],
                    "pj_per_bit": ev["pj_per_bit"],
                    "floor_j": floor,
                    "peak_gb_s": ev["peak_gb_s"],
                    "ceiling_tok_s": ceiling,
                    "reads_w": ceiling * floor,
                    "limit_w": ev["limit_w"],
                    "upper_bound": ev["upper_bound"],
                    "share": ceiling * floor / ev["limit_w"],
                    "left_w": ev["limit_w"] - ceiling * floor,
                },
            )
        )
    elif measured := _measured_floor(shown):
        out.append(measured)
    else:
        out.append(_lacking(ch, ["dram_floor", "floor_N"]))
    top = shown.get("flat_top_tg", {}).get("evidence") or {}
    caps = dict(zip(top.get("xs", []), top.get("ys", []), strict=False))  # the flat top's rate per power limit
    pp = shown.get("retained_quote_pp", {}).get("evidence") or {}
    ends = (pp.get("limit_w"), pp.get("peak_limit_w")) == (top.get("from_w"), top.get("to_w"))
    if top.get("to_w") in caps and top.get("from_w") in caps and ends:
        rate, low = caps[top["to_w"]], caps[top["from_w"]]
        # the lesson's illustrative card: a sixth of its top draw static, the rest as the cube of the clock
        static = top["to_w"] / 6
        clock = ((top["from_w"] - static) / (top["to_w"] - static)) ** (1 / 3)
        predicted = clock * pp["b"]
        out.append(
            Exercise(
                ch,
                "rate_under_cap",
                {
                    "test": top["test"],
                    "pp": pp["test"],
                    "from_w": top["from_w"],
                    "to_w": top["to_w"],
                    "tok_s": rate,
                    "capped_tok_s": low,
                    "capped_over_predicted": low / rate,
                    "pp_top": pp["b"],
                    "pp_capped": pp["a"],
                    "static_w": static,
                    "dynamic_capped_w": top["from_w"] - static,
                    "dynamic_top_w": top["to_w"] - static,
                    "clock": clock,
                    "pp_predicted": predicted,
                    "pp_over_predicted": pp["a"] / predicted,
                    "pp_near": abs(pp["a"] / predicted - 1) <= 0.02,
                    "pp_above": pp["a"] > predicted,
                },
            )
        )
    else:
        out.append(_lacking(ch, ["flat_top_tg", "retained_quote_pp"]))
    return out


def attention_kernels(ledger) -> list[Exercise]:
    """Predict, then compare: what skipping the masked tiles alone would give on the next sparsest
    mask; and SDPA + mask's time and printed TF/s on the causal mask had it computed as fast as FA2
    (the lesson works the FLOPs; the prediction splits SDPA's loss into its wasted tiles and its speed)."""
    ch = "attention_kernels"
    shown = _shown(ledger)
    out = []
    ev = shown.get("skip_sparsest", {}).get("evidence") or {}
    if ev.get("ratio") and ev.get("next_density") and ev.get("next_gain"):
        # the page works the sparsest mask's share of its ideal; the exercise carries it to the next mask,
        # each step from the factors it prints (the density to 4 decimals, the share to 3, gains to 2)
        next_ideal = as_printed(1 / as_printed(ev["next_density"], 4), 2)
        predicted = as_printed(as_printed(ev["ratio"], 3) * next_ideal, 2)
        next_gain = as_printed(ev["next_gain"], 2)
        out.append(
            Exercise(
                ch,
                "skipping",
                {
                    "mask": ev["mask"],
                    "density": ev["density"],
                    "ideal_gain": ev["b"],
                    "measured_gain": ev["a"],
                    "share": ev["ratio"],
                    "next_mask": ev["next_mask"],
                    "next_density": ev["next_density"],
                    "next_ideal": next_ideal,
                    "predicted_gain": predicted,
                    "next_gain": ev["next_gain"],
                    "next_over_predicted": next_gain / predicted,
                    "next_share": next_gain / next_ideal,
                    "holds": abs(next_gain / predicted - 1) <= 0.1,
                },
            )
        )
    else:
        out.append(_lacking(ch, ["skip_sparsest"]))
    ev = shown.get("flex_vs_fa2_causal", {}).get("evidence")
    if ev and ev.get("seq_len") and ev.get("sdpa_ms") and ev.get("density"):
        b, h, s_, d = ev["b_size"], ev["heads"], ev["seq_len"], ev["head_dim"]
        dense = 4 * b * h * s_**2 * d
        fa2 = dense / 2 / (ev["b"] / 1e3)  # FLOP/s FA2 performs on the causal half
        predicted_s = dense / fa2  # SDPA + mask's dense work at FA2's speed
        slower = (ev["sdpa_ms"] / 1e3) / predicted_s
        out.append(
            Exercise(
                ch,
                "causal_flops",
                {
                    "b": b,
                    "h": h,
                    "s": s_,
                    "d": d,
                    "dense_tflop": dense / 1e12,
                    "causal_tflop": dense / 2e12,
                    "fa2_ms": ev["b"],
                    "fa2_s": ev["b"] / 1e3,
                    "fa2_tflops": fa2 / 1e12,
                    "predicted_ms": predicted_s * 1e3,
                    "predicted_s": predicted_s,
                    "predicted_printed": ev["density"] * dense / predicted_s / 1e12,
                    "sdpa_ms": ev["sdpa_ms"],
                    "printed_tflops": ev["sdpa_printed"],
                    "density": ev["density"],
                    "slower": slower,
                    "holds": slower <= 1.1,
                },
            )
        )
    return out


def tracking(ledger) -> list[Exercise]:
    ch = "tracking"
    claims = {c["id"]: c for c in _claims(ledger)}
    # steps the page rules on by its noise: shown beyond the runs' spread, or withheld within it
    steps = [
        c
        for cid, c in sorted(claims.items())
        if cid.startswith("step_")
        and cid[5:].isdigit()
        and c["evidence"].get("noise")
        and c["evidence"].get("b")
        and c["evidence"]["a"] != c["evidence"]["b"]
        and (c["status"] == "shown" or c["evidence"].get("direction") == "within noise")
    ]
    out = []
    ev = (claims.get("changes") or {}).get("evidence") or {}
    m, a = ev.get("segment_runs"), ev.get("before_runs")
    if m and a and ev.get("p_value") and 2 * a != m:
        # the lesson works the even split's floor, 2 / C(n, n/2); the change found splits unevenly, and
        # its floor is 2 a! b! / m!: the same a values first in any order, or last (the mirror)
        same, total = factorial(a) * factorial(m - a), factorial(m)
        out.append(
            Exercise(
                ch,
                "split_p",
                {
                    "run": ev["run"],
                    "runs": m,
                    "before": a,
                    "after": m - a,
                    "half": m // 2,
                    "even_p": 2 / comb(m, m // 2),
                    "same": same,
                    "tied": 2 * same,
                    "total": total,
                    "orders": comb(m, a),
                    "split_p": 2 * same / total,
                    "found_p": ev["p_value"],
                    "at_floor": ev["p_value"] <= 2 * same / total * (1 + 1e-9),
                    "alpha": ev["alpha"],
                },
            )
        )
    else:
        out.append(_lacking(ch, ["changes"]))
    if steps:  # the hardest call: the step nearest the noise line, in spreads on a log scale
        pick = min(
            steps, key=lambda c: abs(log(abs(c["evidence"]["a"] / c["evidence"]["b"] - 1) / c["evidence"]["noise"]))
        )
        ev = pick["evidence"]
        change = ev["a"] / ev["b"] - 1
        out.append(
            Exercise(
                ch,
                "step",
                {
                    "run": ev["run"],
                    "previous_run": ev["previous_run"],
                    "metric": ev["metric"],
                    "value": ev["a"],
                    "previous_value": ev["b"],
                    "noise": ev["noise"],
                    "ratio": ev["a"] / ev["b"],
                    "change": change,
                    "abs_change": abs(change),
                    "spreads": abs(change) / ev["noise"],
                    "beyond": pick["status"] == "shown",
                },
            )
        )
    else:
        out.append(_lacking(ch, ["step_N"]))
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


def applicable(ledger) -> list[Exercise]:
    """The chapter's exercises this input gives the numbers for, in page order."""
    try:
        exs = BUILDERS[_chapter(ledger)](ledger)
    except (KeyError, TypeError, ZeroDivisionError):  # evidence of another shape than the seeds'
        return []
    out = []
    for e in exs:
        if e.lacking:
            continue
        try:
            e.text()
        except wording.MissingValue:  # its wording needs a value this input lacks
            continue
        out.append(e)
    return out


def markdown(ledger) -> str:
    """The chapter's back-of-envelope exercises as MyST, solutions folded; an exercise uses this
    input's numbers or is left out. The sentence that says how to work them leads only exercises
    that are there: over none it would promise what the page then does not give."""
    exs = applicable(ledger)
    if not exs:
        return wording.sentence(FRAME, "no_exercises")
    lead = wording.sentence(FRAME, "exercises_lead")
    return "\n".join([f"{lead}\n", *(e.markdown(i) for i, e in enumerate(exs, 1))])


def glue_exercises(ledger) -> None:
    """Glue the exercises as `envelope_exercises` (hidden), for a `{glue:md}` directive."""
    from benchbook.presentation import outputs

    outputs.glue("envelope_exercises", markdown(ledger), markdown=True)
