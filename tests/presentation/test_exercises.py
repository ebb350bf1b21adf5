"""The back-of-envelope exercises: Python computes their numbers from a ledger's evidence and decides
which apply; their wording comes from the chapter's wording file. Each chapter's exercises are worked
here on a synthetic ledger whose answers are known by hand (the seeds' are recomputed from each
chapter's result in tests/topics)."""

from __future__ import annotations

import ast
import importlib
import inspect
import math
import re
import shutil

import pytest
from test_book_teaching import _claim  # one synthetic claim for both files

from benchbook import config
from benchbook.analysis.power import DRAM_PJ_PER_BIT
from benchbook.chapter import setup
from benchbook.presentation import exercises, wording


def _ledger(chapter, *claims):
    return {"chapter": chapter, "inputs": [], "claims": list(claims)}


def _all(ex) -> str:
    question, steps, answer = ex.text()
    return " ".join([question, *steps, answer])


def _bw(cid, label, gb, rate, params_b):
    return _claim(
        cid,
        gb_per_token=gb,
        peak=1000.0,
        rate=rate,
        label=label,
        device="GPU-X",
        architecture="dense",
        offload="full",
        active_params_b=params_b,
    )


def test_bandwidth_exercises_predict_from_the_smaller_model_and_the_ridge():
    led = _ledger(
        "bandwidth_roofline",
        _bw("bw_1", "big", 2.0, 100.0, 4.0),
        _bw("bw_2", "small", 1.0, 600.0, 2.0),
        _claim("bound_2", label="small", ridge=200.0),
    )
    one, two = exercises.bandwidth_roofline(led)
    # the bigger model predicted from the smaller at an equal share: 600 x 1 / 2 = 300 tok/s; it measured 100
    assert (
        "600.00 x 1.00 / 2.00 = 300.00 tok/s" in one.steps[1] and "20.0% of its ceiling against 60.0%" in one.steps[2]
    )
    assert one.answer == "300.00 tok/s predicted, 100.00 measured."  # it fell short: no fixed-cost story
    # the bigger has no ridge: the critical batch of the smaller, intensity 2 x 2 / 1 = 4 FLOP/byte, 200 / 4 = 50;
    # at batch 1 it does 2 x 2 x 10^9 x 600 = 2.40 x 10^12 FLOP/s of a 200 x 1,000 GB/s = 200 TFLOP/s roof: 1.20%
    assert "4.00 FLOP/byte" in two.steps[0] and "about 50 sequences" in two.answer
    assert "= 2.40 x 10^12 FLOP/s, 1.20% of the 200 TFLOP/s roof" in two.steps[2]
    # with a ridge for the bigger, its own: 2 x 4 / 2 = 4 FLOP/byte, 50 sequences; 0.80 x 10^12 FLOP/s, 0.40%
    both = _ledger("bandwidth_roofline", *led["claims"], _claim("bound_1", label="big", ridge=200.0))
    _, two = exercises.bandwidth_roofline(both)
    assert "`big`" in two.question and "= 0.80 x 10^12 FLOP/s, 0.40% of the 200 TFLOP/s roof" in two.steps[2]
    # the other way: the bigger model beats the prediction (400 > 300), 80% of its ceiling against 60%
    faster = _ledger("bandwidth_roofline", _bw("bw_1", "big", 2.0, 400.0, 4.0), *led["claims"][1:])
    one, _ = exercises.bandwidth_roofline(faster)
    assert "80.0% of its ceiling against 60.0%" in one.steps[2] and "gets closer to its ceiling" in one.answer
    # one dense model only: its ceiling is the lesson's worked example, so the first exercise is left out
    alone = _ledger("bandwidth_roofline", *led["claims"][1:])
    one, two = exercises.bandwidth_roofline(alone)
    assert one.lacking and "about 50 sequences" in two.answer
    assert exercises.markdown(alone).count("**Exercise ") == 1


def _batch_ledger(x, tok_s, dtype="bf16", **latency):
    claims = [
        _claim("knee", x=x, dtype=dtype, series="s", knee_tok_s=tok_s),
        _claim("bound_small", ridge=150.0, dtype=dtype, device="GPU-X", series="s"),
        _claim(
            "bandwidth_small", series="s", dtype=dtype, device="GPU-X", peak=2000.0, weight_gb=2.0, active_params_b=1.0
        ),
        _claim("compute_large", series="s", dtype=dtype, peak=300.0),
    ]
    if latency:
        claims.append(_claim("latency_flat", **latency))
    return _ledger("batch_saturation", *claims)


def test_batch_exercises_work_the_floor_at_the_saturation_batch_and_the_linear_regime():
    flat = dict(
        first=1,
        last=32,
        low=0.020,
        high=0.021,
        ys=[0.020, 0.0205, 0.021],
        timed="decode step",
        first_tok_s=50.0,
        last_tok_s=1200.0,
    )
    one, two, _ = exercises.batch_saturation(_batch_ledger(256, 2560.0, **flat))
    # weights 2 GB / 2,000 GB/s = 1 ms; FLOPs 256 x 2 x 1 billion = 0.512 TFLOP / 300 TFLOP/s = 1.707 ms: the
    # compute sets the floor past B* = 150; measured 256 / 2,560 tok/s = 100 ms, 58.6x the floor
    assert "(past B* = 150)" in one.question and "2 GB / 2,000 GB/s = 1 ms" in one.steps[0]
    assert "256 x 2 x 1 billion = 0.512 TFLOP" in one.steps[1] and "0.512 / 300 = 1.707 ms" in one.steps[1]
    assert "set by the compute" in one.steps[2] and "256 / 2,560.00 tok/s = 100 ms per step, 58.6x" in one.steps[2]
    assert one.answer.startswith("A floor of 1.71 ms (compute), against 100 ms measured, 58.6x:")
    assert "not at a roof" in one.answer
    # not the plug-in 50 x 32 (the box already says the step holds): below B* = 150 x 2 / 2 = 150 the roofline
    # hides the added FLOPs; unhidden, a token of a sequence is 2 x 1 billion FLOP over 300 TFLOP/s = 6.67 µs,
    # one token per timed step (50 tok/s x 0.020 s), so 31 added sequences add at most 31 x 1 x 6.67 µs = 0.207
    # ms; 21 - 20 = 1 ms measured, 4.8x that and 5% of the first step
    assert "one decode step takes 20.00 to 21.00 ms" in two.question and "1 token per step" in two.question
    assert "Up to B* = 150 the roofline hides them under the weight reads" in two.question
    assert "= 2 billion FLOP, over 300 TFLOP/s: 6.67 µs." in two.steps[0]
    assert "31 x 1 x 6.67 µs = 0.207 ms at most." in two.steps[1]
    assert "Measured: 21.00 - 20.00 ms = 1 ms, 4.8 times that." in two.steps[2]
    assert "more than all their FLOPs could add" in two.answer and "only 5% of the 20.00 ms" in two.answer
    # the other ways: a growth within what the FLOPs could cost, none the printed time shows, a sweep past B*
    about = exercises.batch_saturation(_batch_ledger(256, 2560.0, **(flat | {"ys": [0.020, 0.0202]})))[1]
    assert "it grew by no more than the added FLOPs could cost" in about.answer
    none = exercises.batch_saturation(_batch_ledger(256, 2560.0, **(flat | {"ys": [0.020, 0.020]})))[1]
    assert "it did not grow, the added FLOPs hidden under the weight reads" in none.answer
    assert "times that" not in none.steps[2]
    past = exercises.batch_saturation(_batch_ledger(256, 2560.0, **(flat | {"last": 200})))[1]
    assert "Up to B*" not in past.question and past.question.count("Predict the most") == 1
    # the other way: a step within 2x of its floor says the roof sets the bend; the bytes set a batch-8 floor
    near = exercises.batch_saturation(_batch_ledger(256, 256 / 0.003))[0]
    assert "1.8x: the step runs near its roofline" in near.answer
    small = exercises.batch_saturation(_batch_ledger(8, 80.0))[0]
    assert "set by the weights' bytes" in small.steps[2] and "(bandwidth)" in small.answer
    assert exercises.batch_saturation(_batch_ledger(256, 2560.0))[1].lacking


def _turn_ledger(past_ys, timed="generate() call", flat_s=0.80):
    """A flat call (or timed step) to batch 64, then batches 128, 256 and 512 (100 tokens a call, 1 a step)."""
    xs = [128, 256, 512]
    tokens = 1 if timed == "decode step" else 100
    tok_s = [b * tokens / t for b, t in zip(xs, past_ys, strict=True)]
    flat = dict(xs=[1, 64], ys=[flat_s, flat_s], first=1, last=64, low=flat_s, high=flat_s, timed=timed)
    flat.update(past_xs=xs, past_ys=past_ys, past_tok_s=tok_s)
    return _ledger("batch_saturation", _claim("latency_flat", **flat))


def test_the_device_free_exercise_reads_the_turn_and_the_top_off_the_runs_own_times():
    # no device and no model size: only this exercise applies. The line through 128 (1.00 s) and 256 (1.50 s):
    # (1.50 - 1.00) / 128 = 3.91 ms a sequence, shared 1.00 - 128 x 3.906 ms = 0.50 s; it meets the flat 0.80 s
    # at (0.80 - 0.50) / 3.906 ms = 77 sequences, between the last flat batch (64) and the first that grows
    # (128); at 512: 0.50 + 512 x 3.906 ms = 2.50 s, 512 x 100 / 2.50 = 20,480 tok/s, measured the same
    led = _turn_ledger([1.00, 1.50, 2.50])
    *_, ex = exercises.batch_saturation(led)
    assert not ex.lacking and exercises.markdown(led).count("**Exercise ") == 1
    assert "(1.50 - 1.00) s / (256 - 128) = 3.91 ms per call" in ex.steps[0]
    assert "128 x 3.91 ms = 0.50 s is the sequences' own, so the shared part is 1.00 - 0.50 = 0.50 s" in ex.steps[0]
    assert "(0.80 - 0.50) s / 3.91 ms = 77 sequences" in ex.steps[1]
    assert "512 x 3.91 ms = 2.00 s, plus the shared 0.50 s: 2.50 s per call" in ex.steps[2]
    assert "512 x 100 / 2.50 s = 20,480 tok/s (100 tokens per sequence per call)" in ex.steps[2]
    assert unbalanced(_all(ex)) == [] and "B*" not in ex.answer  # no device: no B* to set the turn against
    assert "100 / 3.91 ms = 25,600 tok/s at any batch" in ex.steps[2]
    assert "The run turns there" in ex.answer and "the line holds within 10%" in ex.answer
    # the other ways: the top falls short (each sequence costs (3.50 - 1.50) / 256 = 7.81 ms there), or beats it
    short = exercises.batch_saturation(_turn_ledger([1.00, 1.50, 3.50]))[-1]
    assert "falls short of the line: each added sequence costs 7.81 ms there against 3.91 ms" in short.answer
    beats = exercises.batch_saturation(_turn_ledger([1.00, 1.50, 2.00]))[-1]
    assert "beats the line" in beats.answer
    # a line that meets the flat call below the last flat batch: a jump; above the first that grows: a bend
    jump = exercises.batch_saturation(_turn_ledger([1.40, 1.60, 2.00]))[-1]
    assert "(0.80 - 1.20) s" in jump.steps[1] and "stays flat past that batch" in jump.answer
    bend = exercises.batch_saturation(_turn_ledger([0.70, 1.00, 1.60]))[-1]
    assert "grows before that batch" in bend.answer
    # a timed decode step is worked in ms, one token per step
    step = exercises.batch_saturation(_turn_ledger([0.010, 0.015, 0.025], "decode step", 0.008))[-1]
    assert "(15.00 - 10.00) ms / (256 - 128) = 0.0391 ms per step" in step.steps[0]
    assert "512 x 1 / 25.00 ms = 20,480 tok/s (1 token per sequence per step)" in step.steps[2]
    # left out: two batch sizes past the flat range, a call that does not grow, a line through zero or below
    led2 = _turn_ledger([1.00, 1.50, 2.50])
    led2["claims"][0]["evidence"].update(past_xs=[128, 256], past_ys=[1.0, 1.5], past_tok_s=[12800.0, 17066.7])
    assert exercises.batch_saturation(led2)[-1].lacking
    assert exercises.batch_saturation(_turn_ledger([1.00, 1.00, 2.50]))[-1].lacking
    assert exercises.batch_saturation(_turn_ledger([1.00, 2.00, 4.00]))[-1].lacking


def test_serving_exercises_apply_littles_law():
    led = _ledger(
        "serving_saturation",
        _claim("underfilled", run="c=64", rate=10.0, latency_s=3.0, cap=64),
        _claim(
            "knee",
            w0_run="c=1",
            w0_s=0.5,
            mu=20.0,
            mu_run="c=64",
            predicted_in_flight=10.0,
            variable="max concurrency",
            x=16,
            knee_in_flight=None,
        ),
    )
    one, two = exercises.serving_saturation(led)
    # a prediction, not the section's sum again: with the cap full W = 64 / 10 = 6.4 s, against the 3 s
    # measured: 3 / 6.4 = 46.9%, the share of the cap it held (L = 10 x 3 = 30 requests)
    assert "W = L / rate = 64 / 10 = 6.4 s" in one.steps[0] and "3 / 6.4 = 46.9%" in one.steps[1]
    assert "= 30 requests of its 64" in one.steps[1] and one.answer.startswith("6.4 s with the cap full, against 3 s")
    assert one.question.endswith("the 3 s mean latency the run measured.")
    guessed = _ledger(
        "serving_saturation", _claim("underfilled", run="c=64", rate=10.0, latency_s=3.0, cap=64, estimated=True)
    )
    assert exercises.serving_saturation(guessed)[0].question.endswith("gives (estimated from its TTFT and TPOT).")
    # no in-flight count at the knee: nothing to predict that the lesson (L* = mu x W0) has not worked
    assert two.lacking
    at_knee = led["claims"][1]["evidence"] | {"knee_in_flight": 8.0, "knee_rate": 12.0}
    _, two = exercises.serving_saturation(_ledger("serving_saturation", led["claims"][1] | {"evidence": at_knee}))
    # a prediction the page has not made: with no wait 8 / 0.5 = 16 req/s; it measured 12 (75%), so each
    # request took 8 / 12 = 0.667 s, 1.33 times W0: waiting began before L* = 10
    assert "L* = μ x W0" not in _all(two)
    assert "rate = L / W0 = 8 / 0.5 = 16 req/s" in two.steps[0]
    assert "Measured: 12 req/s, 75% of that" in two.steps[1] and "= 8 / 12 = 0.6667 s, 1.33 times W0" in two.steps[1]
    assert two.answer.startswith("16 req/s with no wait, against 12 measured (75%): requests already wait")
    assert "fewer than L* = 10" in two.answer
    # the other way: a knee that runs at its no-wait rate says so, and names no early wait
    prompt = led["claims"][1]["evidence"] | {"knee_in_flight": 8.0, "knee_rate": 15.9}
    _, two = exercises.serving_saturation(_ledger("serving_saturation", led["claims"][1] | {"evidence": prompt}))
    assert "almost no request waits yet" in two.answer and "already wait" not in two.answer


def test_tp_exercises_work_the_allreduce_bytes_and_the_turn():
    per_batch = [
        {"after": "slower", "batch_size": 1, "ref_tp": 1, "turn_tp": 2, "ref_ms": 20.0},
        {"after": "flat", "batch_size": 16, "ref_tp": 1, "turn_tp": 4, "ref_ms": 80.0},
    ]
    led = _ledger(
        "tp_scaling",
        _claim(
            "decode_turn",
            after="slower",
            layers=24,
            hidden=2048,
            batch_size=1,
            max_tp=4,
            turn_tp=2,
            turn_ms=10.0,
            max_ms=12.0,
            per_batch=per_batch,
        ),
    )
    one, two = exercises.tp_scaling(led)
    # 2 x 24 = 48 all-reduces of 2,048 x 1 x 2 = 4,096 bytes; 48 x 2 x 3/4 x 4,096 = 294,912 bytes per GPU,
    # 9.4 µs over PCIe 4.0 x16 (31.5 GB/s); the step grew 2,000 µs, 214 times that
    assert "2 x 24 = 48" in one.steps[0] and "= 4,096 bytes" in one.steps[0]
    assert "48 x 2 x 3/4 x 4,096 = 294,912 bytes" in one.steps[1] and "9.4 µs" in one.steps[1]
    assert "= 2,000 µs, 214 times" in one.steps[2] and one.answer.endswith("latency, not bytes.")
    # a grows 80 / 20 = 4 times, the optimum square root of 4 = 2 times: TP 2 x 2 = 4
    assert "= 4.00 times" in two.steps[1] and two.answer == "about 4.0 GPUs; the data turns at TP 4."
    # the other way: a step that grew by less than ten times the bytes' time is not said to be latency
    small = _ledger("tp_scaling", _claim("decode_turn", **(led["claims"][0]["evidence"] | {"max_ms": 10.05})))
    one, _ = exercises.tp_scaling(small)
    assert one.answer.endswith("the step grew by 50 µs.")


def test_the_allreduce_exercise_predicts_at_another_batch_than_the_lesson_counts():
    turn = dict(after="slower", layers=24, hidden=2048, batch_size=1, max_tp=4, turn_tp=2, turn_ms=10.0, max_ms=12.0)
    at_4 = dict(after="slower", batch_size=4, turn_tp=2, turn_ms=11.0, max_tp=8, max_ms=12.5)
    led = _ledger("tp_scaling", _claim("decode_turn", **turn, per_batch=[]), _claim("decode_turn_4", **at_4))
    one = exercises.tp_scaling(led)[0]
    # batch 4 on TP 8: 48 all-reduces of 2,048 x 4 x 2 = 16,384 bytes; 48 x 2 x 7/8 x 16,384 = 1,376,256 bytes,
    # 43.7 µs over 31.5 GB/s; the step grew 1,500 µs (11.0 -> 12.5 ms on TP 2 -> TP 8)
    assert one.question.startswith("The lesson above counted the all-reduces of a decode step at batch 1; take batch 4")
    assert "= 16,384 bytes" in one.steps[0] and "48 x 2 x 7/8 x 16,384 = 1,376,256 bytes" in one.steps[1]
    assert "43.7 µs" in one.steps[1] and "= 1,500 µs" in one.steps[2]
    # the other way: only the lesson's batch got slower, so the exercise works that one and says nothing of a lesson
    alone = exercises.tp_scaling(_ledger("tp_scaling", _claim("decode_turn", **turn, per_batch=[])))[0]
    assert alone.question.startswith("At batch 1 the model") and "294,912 bytes" in alone.steps[1]


def test_quantization_exercises_take_the_bytes_from_the_precision():
    led = _ledger(
        "quantization_regimes",
        _claim(
            "decode_bandwidth",
            regime="decode_bound",
            batch_size=1,
            active_params_b=8.0,
            device="GPU-X",
            peak=2000.0,
            baseline="bf16",
            baseline_bytes_per_weight=2.0,
            baseline_step_gb=16.0,
            baseline_tok_s=100.0,
            scheme="w4a16",
            bytes_per_weight=0.5,
            step_gb=4.0,
            tok_s=250.0,
        ),
        _claim(
            "w8a16_decode_trend",
            scheme="w8a16",
            baseline="bf16",
            device="GPU-X",
            tflops=300.0,
            bandwidth_gb_s=2000.0,
            ridge=150.0,
            x_first=1,
            y_first=1.5,
            x_last=64,
            y_last=1.1,
            crossover_batch=None,
        ),
    )
    one, two = exercises.quantization_regimes(led)
    # 8 billion weights: 16.00 GB at 2 bytes, 4.00 GB at 0.5; 2,000 GB/s gives 125.0 and 500.0 tok/s
    assert "8.00 x 10^9 weights x 2 bytes = 16.00 GB per step" in one.steps[0] and "= 125.0 tok/s" in one.steps[0]
    assert "= 4.00 GB per step" in one.steps[1] and "= 500.0 tok/s" in one.steps[1]
    # 100 / 125 = 80.0%, 250 / 500 = 50.0%; a quarter of the bytes, not half: "halving" would be false
    assert "80.0% and 250.0 / 500.0 = 50.0%" in one.steps[2]
    assert "4 times fewer bytes made the step 2.50x as fast, not 4x." in one.steps[2] and "halving" not in _all(one)
    # ridge 300 x 1000 / 2,000 = 150; 8-bit weights reach it at 75, 16-bit at 150; batch 64 is below 75:
    # half the bytes predict 2x, and the runs measured 1.1x, 55% of it
    assert "= 150 FLOP/byte." in two.steps[0] and "B = 150 / 2 = 75" in two.steps[0]
    assert "Batch 64 is below 75" in two.steps[1] and "predict a 2.00x gain" in two.steps[1]
    assert "Measured: 1.10x at batch 64 (from 1.50x at batch 1), 55% of the prediction" in two.steps[2]
    assert two.answer == "2.00x predicted at batch 64; the runs measured 1.10x."
    # the other way: between the two critical batches the gain is ridge / B; past the 16-bit one, 1x
    for x_last, said, gain in [(100, "ridge / B = 150 / 100 = 1.50x", 1.5), (200, "1.00x at best", 1.0)]:
        trend = dict(led["claims"][1]["evidence"], x_last=x_last)
        _, two = exercises.quantization_regimes(
            _ledger("quantization_regimes", led["claims"][0], _claim("w8a16_decode_trend", **trend))
        )
        assert said in two.steps[1] and two.values["predicted_gain"] == pytest.approx(gain)


def test_energy_exercises_put_the_measured_joules_over_the_dram_floor():
    floor = _claim(
        "dram_floor",
        ratio=0.5,
        weights_gb=4.0,
        pj_per_bit=4.0,
        test="tg128",
        upper_bound=False,
        b=0.64,
        limit_w=300.0,
        peak_gb_s=1000.0,
        device="GPU-X",
    )
    top = _claim("flat_top_tg", test="tg128", xs=[200.0, 400.0], ys=[98.0, 100.0], from_w=200.0, to_w=400.0)

    def pp(a):
        return _claim("retained_quote_pp", test="pp512", a=a, b=1000.0, limit_w=200.0, peak_limit_w=400.0)

    one, two = exercises.perf_per_watt(_ledger("perf_per_watt", floor, top, pp(800.0)))
    # the floor (4 GB x 8 bits x 4 pJ = 0.128 J, the claim's) drawn at the bandwidth ceiling, a power the
    # page does not state: 1,000 GB/s / 4 GB = 250 tok/s, x 0.128 J = 32 W, 10.7% of the 300 W limit
    assert "1,000 GB/s / 4 GB = 250 tok/s" in one.steps[0] and "250 tok/s x 0.128 J = 32 W" in one.steps[1]
    assert "32 / 300 = 10.7%" in one.steps[2] and "leave 268 W for all else a token costs" in one.answer
    assert "times that" not in one.answer  # the claim's ratio, said above it, is not worked again
    assert "the 300 W limit at which tg128 costs the least energy" in one.question  # a measured draw
    bound = _claim("dram_floor", **{**floor["evidence"], "upper_bound": True})
    one_bound, _ = exercises.perf_per_watt(_ledger("perf_per_watt", bound, top, pp(800.0)))
    assert "costs the least" not in one_bound.question  # an upper bound ranks no limit
    assert "where this input bounds a tg128 token's energy most tightly" in one_bound.question
    # the other way: a limit the reads at full bandwidth would exceed
    low = _claim("dram_floor", **{**floor["evidence"], "limit_w": 20.0})
    one_low, _ = exercises.perf_per_watt(_ledger("perf_per_watt", low, top, pp(800.0)))
    assert "32 / 20 = 160.0%" in one_low.steps[2] and "cannot reach its bandwidth ceiling" in one_low.answer
    # no device bandwidth: nothing to draw the floor at
    blind = _claim("dram_floor", **{**floor["evidence"], "peak_gb_s": None})
    assert exercises.perf_per_watt(_ledger("perf_per_watt", blind))[0].lacking
    # tg waits on memory: 100 tok/s predicted at 200 W, 98 measured. pp waits on the cores: a sixth of 400 W static
    # (66.7 W), so the clock falls to (133 / 333)^(1/3) = 0.737 and pp to 737 tok/s; 800 measured: above it
    assert "predicted 100.00 tok/s." in two.steps[0]
    assert "(133 / 333)^(1/3) = 0.737 of its top" in two.steps[1] and "0.737 x 1,000.00 = 737 tok/s." in two.steps[1]
    assert "tg128 98.00 tok/s, 98.0% of the prediction; pp512 800.00 tok/s, 108.6% of the prediction" in two.steps[2]
    assert two.answer.startswith("tg128: 100.00 tok/s predicted, 98.00 measured") and "but less than" in two.answer
    # the other ways: a prefill that slowed more than the rule's card, or as much
    _, two = exercises.perf_per_watt(_ledger("perf_per_watt", floor, top, pp(600.0)))
    assert "it slowed more than the rule's card" in two.answer
    _, two = exercises.perf_per_watt(_ledger("perf_per_watt", floor, top, pp(740.0)))
    assert "the cube rule's card is close to this one" in two.answer
    # a flat top without the rate at its ends, or no prefill rate at its limits, is not worked
    gaps = _claim("flat_top_tg", test="tg128", xs=[300.0, 400.0], ys=[98.0, 100.0], from_w=200.0, to_w=400.0)
    _, two = exercises.perf_per_watt(_ledger("perf_per_watt", floor, gaps, pp(800.0)))
    assert two.lacking
    _, two = exercises.perf_per_watt(_ledger("perf_per_watt", floor, top))
    assert two.lacking
    # no batch-1 floor: a measured configuration's J per token against one read of its weights
    read = 4.0e9 * 8 * DRAM_PJ_PER_BIT * 1e-12
    below = _claim("floor_1", run="r", weights_gb=4.0, a=read / 2)
    one, two = exercises.perf_per_watt(_ledger("perf_per_watt", below))
    assert f"= {read:.3g} J." in one.steps[0] and "= 0.5." in one.steps[1]
    assert "several sequences shared each read" in one.answer and two.lacking
    above = _claim("floor_1", run="r", weights_gb=4.0, a=read * 3)
    one, _ = exercises.perf_per_watt(_ledger("perf_per_watt", above))
    assert "= 3." in one.steps[1] and "each token cost more than one read" in one.answer


def test_attention_exercises_count_the_tiles_and_the_flops():
    led = _ledger(
        "attention_kernels",
        _claim(
            "skip_sparsest",
            mask="m",
            density=0.05,
            a=25.0,
            b=20.0,
            ratio=1.25,
            next_mask="w",
            next_density=0.1,
            next_gain=9.0,
        ),
        _claim(
            "flex_vs_fa2_causal",
            b_size=4,
            heads=16,
            seq_len=8192,
            head_dim=128,
            b=5.0,
            sdpa_ms=20.0,
            sdpa_printed=55.0,
            density=0.5,
        ),
    )
    one, two = exercises.attention_kernels(led)
    # m: 25x is 125% of its ideal 20x; on w (density 0.1, ideal 10x) the same share predicts 12.5x; 9x is
    # 0.72 of that: the share is not the kernel's constant
    assert "125% of the 20.0x" in one.question and "1 / 0.1000 = 10.00x" in one.steps[0]
    assert (
        "1.250 x 10.00 = 12.50x" in one.steps[1]
        and "Measured: 9.00x, 0.72 times the prediction (90% of its ideal)" in one.steps[2]
    )
    assert "not a constant of the kernel (125% on m, 90% on w)" in one.answer
    # 4 x 4 x 16 x 8,192^2 x 128 = 2.20 x 10^12 FLOP; FA2 does half in 5 ms: 220 TFLOP/s. At that speed SDPA's
    # dense 2.20e12 take 10 ms (a prediction the page does not make), printed 0.5 x 2.20e12 / 0.01 s = 110 TF/s;
    # measured 20 ms (2x slower per FLOP), printed 55.0
    assert "= 2.20 x 10^12 FLOP." in two.steps[0] and "1.10 x 10^12 / 0.00500 s = 220 TFLOP/s." in two.steps[0]
    assert "2.20 x 10^12 / 220 TFLOP/s = 10.00 ms" in two.steps[1] and "= 110.0 TF/s." in two.steps[2]
    assert "Measured: 20.00 ms, 2.00 times the prediction" in two.steps[3]
    assert two.answer.startswith("10.00 ms and 110.0 TF/s predicted, 20.00 ms and 55.0 TF/s measured: SDPA + mask pays")
    # the other way: SDPA as fast per FLOP as FA2 (10 ms measured): the whole gap is the masked tiles
    fast = _claim(
        "flex_vs_fa2_causal",
        b_size=4,
        heads=16,
        seq_len=8192,
        head_dim=128,
        b=5.0,
        sdpa_ms=10.0,
        sdpa_printed=110.0,
        density=0.5,
    )
    _, two = exercises.attention_kernels(_ledger("attention_kernels", fast))  # the first lacks its mask
    assert "computes as fast as FA2 per FLOP, so the whole gap is the masked tiles" in two.answer
    # the other way: the same share on the next mask (12.0x against 12.5x predicted) says the density sets the gain
    same = _claim(
        "skip_sparsest",
        mask="m",
        density=0.05,
        a=25.0,
        b=20.0,
        ratio=1.25,
        next_mask="w",
        next_density=0.1,
        next_gain=12.0,
    )
    (one,) = exercises.attention_kernels(_ledger("attention_kernels", same))
    assert "the same share holds on both masks" in one.answer
    # one block mask only: the page has worked its share already; nothing is left to predict
    alone = _claim("skip_sparsest", mask="m", density=0.05, a=25.0, b=20.0, ratio=1.25)
    (one,) = exercises.attention_kernels(_ledger("attention_kernels", alone))
    assert one.lacking


def test_tracking_predicts_the_floor_of_the_uneven_split_the_change_makes():
    def changes(n, alpha=0.05):
        return _claim("changes", "withheld", count=0, n=n, alpha=alpha, smallest_p=None)

    # no change found: the lesson has worked this series' floor (2 / C(n, n/2)); nothing new to predict
    first, second = exercises.tracking(_ledger("tracking", changes(8)))
    assert first.lacking and second.lacking and second.needs == ["step_N"]
    # a change after 3 of 8 runs: 3! x 5! = 720 orders put those 3 first, 720 more last: p >= 1,440 / 40,320
    found = _claim("changes", count=1, n=8, alpha=0.05, run="r4", p_value=1 / 28, segment_runs=8, before_runs=3)
    first, _ = exercises.tracking(_ledger("tracking", found))
    assert "(3! x 5! = 720 orders)" in first.steps[0] and "p ≥ 1,440 / 40,320 = 0.036" in first.steps[1]
    assert "2 / C(8, 3), 2 out of 56" in first.steps[1] and "(4 + 4: p ≥ 0.029)" in first.question
    assert first.steps[2].startswith("Measured: p = 0.036, the floor itself")
    assert first.answer.startswith("p ≥ 0.036 for a 3 + 5 split, above the 0.029 of an even one")
    # the other way: a p above the floor says the sides overlap; an even split is the lesson's, left out
    loose = found | {"evidence": found["evidence"] | {"p_value": 0.2}}
    first, _ = exercises.tracking(_ledger("tracking", loose))
    assert (
        "above the floor: the values of the two sides overlap" in first.steps[2] and "not below alpha" in first.answer
    )
    even = found | {"evidence": found["evidence"] | {"before_runs": 4}}
    assert exercises.tracking(_ledger("tracking", even))[0].lacking
    step = _claim(
        "step_1", run="b", previous_run="a", metric="pp_rate", a=110.0, b=100.0, noise=0.02, direction="above"
    )
    _, second = exercises.tracking(_ledger("tracking", changes(8), step))
    assert "= 1.100, a change of +10.0%." in second.steps[0] and "0.1000 / 0.0200 = 5.00 spreads" in second.steps[1]
    assert second.answer == "+10.0%, 5.00 times the runs' spread: a change."
    # the step nearest the noise line is the one asked: +1.0% against a 2% spread, half a spread, no step
    within = _claim("step_2", "withheld", run="c", previous_run="b", metric="pp_rate", a=111.1, b=110.0, noise=0.02)
    within["evidence"]["direction"] = "within noise"
    _, second = exercises.tracking(_ledger("tracking", changes(8), step, within))
    assert "0.0100 / 0.0200 = 0.50 spreads: less than one, so within the noise." in second.steps[1]
    assert second.answer == "+1.0%, 0.50 times the runs' spread: no change: the two runs' own spread is larger."


def test_an_exercise_whose_claim_is_withheld_is_left_out_naming_the_claims_it_needs():
    led = _ledger(
        "batch_saturation",
        _claim("knee", x=512, dtype="bf16", series="s", knee_tok_s=7000.0),
        _claim("compute_large", status="withheld", peak=312.0, dtype="bf16", series="s"),
    )
    first, second, third = exercises.batch_saturation(led)
    assert first.needs == ["knee", "bandwidth_small", "compute_large"]
    assert second.needs == ["latency_flat", "bandwidth_small", "compute_large"]
    assert third.needs == ["latency_flat"]
    assert exercises.markdown(led) == wording.sentence(exercises.FRAME, "no_exercises")


def test_an_exercise_whose_wording_needs_a_value_the_input_lacks_is_left_out():
    knee = _claim("knee", w0_run="c=1", w0_s=0.5, mu=20.0, mu_run="c=64", variable=None, x=16)
    led = _ledger("serving_saturation", _claim("underfilled", run="c=64", rate=10.0, latency_s=3.0, cap=64), knee)
    md = exercises.markdown(led)
    assert md.count("**Exercise ") == 1 and "Little's law" in md and "L* =" not in md


@pytest.mark.parametrize("chapter", list(exercises.BUILDERS))
def test_an_empty_ledger_leaves_every_exercise_out_in_one_sentence(chapter):
    """An exercise uses the input's numbers or is left out: none says "none for this input"."""
    md = exercises.markdown(_ledger(chapter))
    assert md == wording.sentence(exercises.FRAME, "no_exercises") and "**Exercise " not in md
    assert "lacks the numbers" in md


def test_the_sentence_on_how_to_work_the_exercises_leads_only_exercises_that_are_there():
    """Over no exercise, "predict first ... each solution shows the arithmetic" promised what the
    page then withheld (a report on a CodeCarbon file): the lead comes with the exercises or not at all."""
    lead = wording.sentence(exercises.FRAME, "exercises_lead")
    knee = _claim("knee", w0_run="c=1", w0_s=0.5, mu=20.0, mu_run="c=64", variable=None, x=16)
    some = exercises.markdown(
        _ledger("serving_saturation", _claim("underfilled", run="c=64", rate=10.0, latency_s=3.0, cap=64), knee)
    )
    assert some.startswith(lead + "\n\n**Exercise 1.**") and some.count(lead) == 1
    none = exercises.markdown(_ledger("serving_saturation"))
    assert lead not in none and "solution" not in none.lower() and "**Exercise " not in none


def test_a_teacher_edits_an_exercise_in_the_wording_file_and_the_page_follows(tmp_path, monkeypatch):
    shutil.copy(config.NOTEBOOKS_DIR / "tracking.claims.yml", tmp_path / "tracking.claims.yml")
    f = tmp_path / "tracking.claims.yml"
    text = f.read_text(encoding="utf-8")
    said = "The change the test finds, just before `{{ run }}`, splits its {{ runs }} runs"
    assert said in text
    f.write_text(text.replace(said, "Count them: {{ runs }} runs, split"), encoding="utf-8")
    monkeypatch.setattr(config, "NOTEBOOKS_DIR", tmp_path)
    ev = dict(count=1, n=8, alpha=0.05, run="r4", p_value=1 / 28, segment_runs=8, before_runs=3)
    led = _ledger("tracking", _claim("changes", **ev))
    assert "\n\n**Exercise 1.** Count them: 8 runs, split into 3 before it" in exercises.markdown(led)


def test_a_wording_file_whose_exercise_lacks_its_answer_is_refused_naming_it(tmp_path, monkeypatch):
    (tmp_path / "tracking.claims.yml").write_text(
        "claims: {}\nexercises:\n  step:\n    question: q\n    steps: [s]\n", encoding="utf-8"
    )
    monkeypatch.setattr(config, "NOTEBOOKS_DIR", tmp_path)
    with pytest.raises(wording.WordingError, match=r"notebooks/tracking.claims.yml: exercise 'step' needs"):
        wording.exercise("tracking", "step", {})


#: Units and nouns that stand between the numbers of a worked step; a conversion between them is a power of ten.
_UNITS = re.compile(
    r"(?:TFLOP/s|TF/s|FLOP/byte|FLOP/s|GB/s|tok/s|\bFLOP\b|\bkB\b|\bGB\b|\bbytes?\b|\bbits\b|\bpJ\b|\bJ\b|µs|\bms\b"
    r"|\bs\b|\bW\b|%|\bsequences\b|\brequests\b|\bweights\b|\bbatch\b)"
)
_NUM = r"\d[\d,]*(?:\.\d+)?(?:\s*\^\s*-?\d+)?"
_WORKED = re.compile(rf"(?<![\w(,.^])({_NUM}(?:\s*(?:x|/|\+|-)\s*{_NUM})+)\s*=\s*({_NUM})")


def unbalanced(text: str) -> list[str]:
    """Every worked equality `a x b / c = r` in `text` whose printed operands do not give its printed
    result: within 1%, or half a unit of its last printed digit (the units between them convert by a
    power of ten, which is taken out first)."""
    bad = []
    for lhs, rhs in _WORKED.findall(_UNITS.sub(" ", text)):
        expr = re.sub(r"(?<=\d),(?=\d)", "", lhs).replace("^", "**").replace("x", "*")
        got, want = eval(expr, {}), float(rhs.replace(",", "").replace("^", "**"))  # noqa: S307 (digits and operators)
        if got == want:
            continue
        scale = 10.0 ** round(math.log10(abs(got / want))) if got and want else 1.0
        digits = len(rhs.split(".")[1]) if "." in rhs and "^" not in rhs else 0
        if abs(got - want * scale) <= max(0.01 * abs(got), 0.525 * 10.0**-digits * scale):
            continue
        bad.append(f"{lhs} = {rhs}")
    return bad


def test_a_step_computes_from_the_factors_it_prints_to_the_last_digit():
    """A solution's result is its printed factors' arithmetic, not the unrounded evidence's: a reader
    redoing 278.95 x 3.82 / 42.51 gets 25.07, and so does the page (the seed's unrounded bytes, 3.8226 and
    42.507 GB, gave 25.08); attention's 10.33x over a printed 6.87x prediction is 1.50 times it (1.51
    before, from the unrounded share 0.90493)."""
    led = _ledger(
        "bandwidth_roofline",
        _bw("bw_1", "big", 42.507, 34.05, 70.55),
        _bw("bw_2", "small", 3.8226, 278.95, 6.74),
    )
    one = exercises.bandwidth_roofline(led)[0]
    assert "278.95 x 3.82 / 42.51 = 25.07 tok/s" in one.steps[1] and "1.36 times" in one.steps[2]
    unrounded = 278.95 * 3.8226 / 42.507  # what the step printed before: not its printed factors' result
    assert f"{unrounded:.2f}" != "25.07"
    att = _ledger(
        "attention_kernels",
        _claim(
            "skip_sparsest",
            mask="doc",
            density=0.0472,
            a=19.17223598170644,
            b=21.186440677966104,
            ratio=0.9049295383365439,
            next_mask="sw",
            next_density=0.1318,
            next_gain=10.333463666987486,
        ),
    )
    skip = exercises.attention_kernels(att)[0]
    assert "0.905 x 7.59 = 6.87x" in skip.steps[1] and "Measured: 10.33x, 1.50 times the prediction" in skip.steps[2]
    assert f"{10.333463666987486 / (0.9049295383365439 / 0.1318):.2f}" == "1.51"  # the unrounded ratio differs


def test_the_arithmetic_check_catches_a_step_that_does_not_hold():
    assert unbalanced("L = rate x mean latency = 37.3 x 7.364 = 274.7 requests.") == []
    assert unbalanced("Floor = 3.82 x 10^9 bytes x 8 bits x 3.9 x 10^-12 J = 0.119 J per token.") == []
    assert unbalanced("The step grew by 19.64 - 17.56 ms = 2,080 µs.") == []
    assert unbalanced("L = rate x mean latency = 0.04 x 832.15 = 32.9 requests.") == ["0.04 x 832.15 = 32.9"]
    assert unbalanced("Share = 1,066 / 1,792 = 70%.") == ["1,066 / 1,792 = 70"]


@pytest.mark.parametrize("chapter", list(exercises.BUILDERS))
def test_every_seed_exercise_is_worked_in_arithmetic_that_holds(chapter):
    """On the book's own data, each chapter shows two exercises (batch a third, which needs no device), and
    every step's printed numbers give its printed result."""
    p = setup(chapter, {})
    led = importlib.import_module(f"benchbook.topics.{chapter}").analyse(p).ledger.to_dict()
    exs = exercises.applicable(led)
    assert len(exs) == (3 if chapter == "batch_saturation" else 2)
    for e in exs:
        assert unbalanced(_all(e)) == [], f"{chapter} {e.name}"


def test_the_exercises_module_words_no_sentence():
    """Python decides what an exercise works and computes its numbers; every sentence is in a wording
    file, where a teacher edits it (a string of more than three words outside a docstring is prose)."""
    tree = ast.parse(inspect.getsource(exercises))
    docstrings = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef))
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }
    prose = [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings
        if len(n.value.split()) > 3
    ]
    assert prose == []
