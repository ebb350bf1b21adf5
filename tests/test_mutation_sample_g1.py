"""Mutation sample, group g1 (issue 19): tp analysis and claims behaviours the sampled surviving mutants
broke, each asserted on synthetic tables whose right answer is worked out by hand in the comments."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from benchbook.analysis import tp as atp
from benchbook.claims import tp as ctp

DEVICE = {"device": "A100-SXM4-80GB", "bandwidth_gb_s": 1000.0, "tflops": 100.0, "source": "parameter"}


def _wide(rows, **common):
    """A wide table from dicts (metric, tp, batch_size, mean, line, ...) over shared defaults."""
    base = {
        "source": "s",
        "model": "m",
        "sequence_length": 100,
        "decode_length": 8,
        "quantize": "none",
        "max_batch_total_tokens": np.nan,
        "min": np.nan,
        "max": np.nan,
        "p50": np.nan,
        "p90": np.nan,
        "p99": np.nan,
        "n_runs": np.nan,
        "note": "",
    }
    out = pd.DataFrame([base | common | r for r in rows])
    if "section" not in out:
        out["section"] = [f"TP {t}" for t in out["tp"]]
    out["tp"] = out["tp"].astype("Int64")
    return out


def _prefill_tp2():
    """TP 2 prefill at batch 1, 2, 4 (10, 20, 80 ms) and batch 8 with no runs, budget 400 tokens.
    Tokens = batch x (100 + 8): 108, 216, 432, 864, so the budget predicts 1 and 2 run, 4 and 8 not;
    batch 4 ran anyway (one counter-example). Growth per batch: 1->2 (20/10)/2 = 1, 2->4 (80/20)/2 = 2."""
    rows = [
        {"metric": "prefill_latency", "tp": 2, "batch_size": b, "mean": m, "line": i + 1}
        for i, (b, m) in enumerate([(1, 10.0), (2, 20.0), (4, 80.0), (8, np.nan)])
    ]
    return _wide(rows, max_batch_total_tokens=400)


def test_budget_hypothesis_predictions_and_counter_example():
    w = _prefill_tp2()
    budget = atp.batch_token_budget_test(w)
    assert budget["tokens"].tolist() == [108, 216, 432, 864]
    assert budget["predicted_to_run"].tolist() == [True, True, False, False]
    assert budget["ran"].tolist() == [True, True, True, False]
    assert budget["consistent"].tolist() == [True, True, False, True]
    c = ctp.budget_refuted(budget, atp.missing_batches(w))
    assert (c.evidence["count"], c.evidence["n"], c.evidence["budget"]) == (1, 4, 400)
    # the counter-example names its TP, batch, token count and that it ran although over the budget
    assert c.evidence["examples"] == ["TP 2 batch 4 (432 tokens) ran"]


def test_missing_batch_keeps_its_section():
    miss = atp.missing_batches(_prefill_tp2())
    assert miss[["tp", "section", "batch_size", "line", "ran"]].values.tolist() == [[2, "TP 2", 8, 4, "1, 2, 4"]]


def test_superlinear_jump_is_the_last_batch_before_failure():
    w = _prefill_tp2()
    jumps = atp.superlinear_jumps(w, threshold=1.3)
    c = ctp.superlinear_jumps(jumps, w, 1.3)
    ev = c.evidence
    assert (ev["count"], ev["n"]) == (1, 2)
    assert (ev["tp"], ev["from_bs"], ev["to_bs"], ev["line"]) == (2, 2, 4, 3)
    assert ev["growth_per_batch"] == pytest.approx(2.0)
    assert ev["last_before_failure"] is True
    # the other way: drop the failed batch, and batch 4 is no longer the step before a failure
    w2 = w[w["batch_size"] != 8]
    assert ctp.superlinear_jumps(atp.superlinear_jumps(w2), w2, 1.3).evidence["last_before_failure"] is False


def test_no_superlinear_jump_still_has_the_columns():
    jumps = atp.superlinear_jumps(_prefill_tp2(), threshold=10.0)
    assert jumps.empty
    assert jumps["to_bs"].tolist() == [] and jumps["growth_per_batch"].tolist() == []


def test_rel_se_uses_d2_from_two_runs():
    # range 2 around a mean of 10: spread 0.2; with 2 runs sd = 0.2 / 1.128 and se = sd / sqrt(2)
    assert atp.rel_se(10.0, 9.0, 11.0, 2) == pytest.approx(0.2 / 1.128 / math.sqrt(2))
    assert atp.rel_se(10.0, 9.0, 11.0, 3) == pytest.approx(0.2 / 1.693 / math.sqrt(3))
    # one run, or no run count: half the range
    assert atp.rel_se(10.0, 9.0, 11.0, 1) == pytest.approx(0.1)
    assert atp.rel_se(10.0, 9.0, 11.0, np.nan) == pytest.approx(0.1)


def _decode_tp2_tp4():
    """Decode at TP 2 and 4, no run count so rel_se = range / mean / 2. Batch 1: 20 ms (19.2-20.8,
    rel_se 0.04) and 10 ms (9.7-10.3, rel_se 0.03); batch 2: 40 ms and 12 ms (no range)."""
    rows = [
        {"tp": 2, "batch_size": 1, "mean": 20.0, "min": 19.2, "max": 20.8, "line": 1},
        {"tp": 4, "batch_size": 1, "mean": 10.0, "min": 9.7, "max": 10.3, "line": 2},
        {"tp": 2, "batch_size": 2, "mean": 40.0, "line": 3},
        {"tp": 4, "batch_size": 2, "mean": 12.0, "line": 4},
    ]
    return _wide(rows, metric="decode_token_latency")


def test_scaling_efficiency_against_a_reference_tp_above_one():
    sc = atp.scaling(_decode_tp2_tp4())
    r = sc[(sc["tp"] == 4) & (sc["batch_size"] == 1)].iloc[0]
    # speedup 20 / 10 = 2 on twice the GPUs of the reference TP 2: efficiency 2 / (4 / 2) = 1
    assert (r["ref_tp"], r["speedup"], r["efficiency"]) == (2, pytest.approx(2.0), pytest.approx(1.0))
    assert (r["lowest_ms"], r["highest_ms"]) == (9.7, 10.3)
    assert r["speedup_low"] == pytest.approx(19.2 / 10.3) and r["speedup_high"] == pytest.approx(20.8 / 9.7)


def test_decode_speedup_noise_counts_both_rows():
    c = ctp.decode_speedup(atp.scaling(_decode_tp2_tp4()))
    ev = c.evidence
    assert (ev["ref_tp"], ev["best_tp"], ev["ratio"]) == (2, 4, pytest.approx(2.0))
    # 2 x sqrt(0.04^2 + 0.03^2) = 0.1
    assert ev["noise"] == pytest.approx(0.1)


def test_superlinear_efficiency_keeps_its_rule_shown_or_withheld():
    sc = atp.scaling(_decode_tp2_tp4())
    c = ctp.superlinear_efficiency(sc)
    # batch 2: speedup 40 / 12, efficiency 40 / 12 / 2 = 1.67 > 1; ref growth 40/20 = 2, TP 4 growth 12/10 = 1.2
    assert c.evidence["efficiency"] == pytest.approx(40 / 24)
    assert c.evidence["ratio"] == pytest.approx(2 / 1.2)
    assert c.rule.startswith("comparison: reference-TP decode latency growth")
    c1 = ctp.superlinear_efficiency(sc[sc["batch_size"] == 1])
    assert c1.status == "withheld" and "1.00" in c1.reason
    assert c1.rule == c.rule


def test_trend_records_its_tolerance():
    rows = [
        {"tp": t, "batch_size": 1, "mean": m, "line": i + 1} for i, (t, m) in enumerate([(1, 90), (2, 50), (4, 30)])
    ]
    sc = atp.scaling(_wide(rows, metric="prefill_latency"))
    c = ctp.prefill_speedup_rises(sc)
    # speedups 1, 1.8, 3: rises at every step; efficiencies 1, 0.9, 0.75 fall
    assert c.status == "shown" and c.evidence["ys"] == pytest.approx([1.0, 1.8, 3.0])
    assert (c.evidence["tolerance"], c.evidence["last_x"], c.evidence["ref_tp"]) == (0.0, 4, 1)
    assert ctp.prefill_efficiency_falls(sc).status == "shown"


def test_decode_slower_past_best_ratio():
    rows = [{"tp": t, "batch_size": 1, "mean": m, "line": i + 1} for i, (t, m) in enumerate([(1, 10), (2, 8), (4, 12)])]
    c = ctp.decode_slower_past_best(atp.best_tp(_wide(rows, metric="decode_token_latency")))
    # fastest TP 2 at 8 ms, largest TP 4 at 12 ms: 12 / 8 = 1.5
    assert (c.evidence["best_tp"], c.evidence["max_tp"], c.evidence["ratio"]) == (2, 4, pytest.approx(1.5))


def _quant(fp16, quantized, quantize="bitsandbytes"):
    """Decode at TP 1, batches 1 and 2: fp16 rows (lines 1, 2) and quantized rows (lines 3, 4)."""
    rows = [{"quantize": "none", "batch_size": b, "mean": m, "line": b} for b, m in zip((1, 2), fp16, strict=True)]
    rows += [
        {"quantize": quantize, "batch_size": b, "mean": m, "line": 2 + b}
        for b, m in zip((1, 2), quantized, strict=True)
    ]
    return _wide(rows, metric="decode_token_latency", tp=1, section="")


def test_quantization_slowdown_direction_and_line():
    c = ctp.quantization_slowdown(atp.quantization_slowdown(_quant((20.0, 22.0), (10.0, 11.0))))
    assert (c.evidence["ratio"], c.evidence["every_batch"], c.evidence["line"]) == (0.5, "faster", 3)
    c = ctp.quantization_slowdown(atp.quantization_slowdown(_quant((20.0, 22.0), (40.0, 44.0))))
    assert (c.evidence["ratio"], c.evidence["every_batch"]) == (2.0, "slower")
    c = ctp.quantization_slowdown(atp.quantization_slowdown(_quant((20.0, 22.0), (10.0, 44.0))))
    assert c.evidence["every_batch"] == "mixed"
    empty = ctp.quantization_slowdown(atp.quantization_slowdown(_quant((20.0, 22.0), (10.0, 11.0), "none")))
    assert empty.status == "withheld" and "fp16 twin" in empty.reason


def test_quantization_bandwidth_in_gb_s_and_without_a_parameter_count():
    qs = atp.quantization_slowdown(_quant((20.0, 22.0), (10.0, 11.0)))
    # 7e9 weights x 1 byte (LLM.int8) / TP 1 read in 10 ms: 700 GB/s, 0.7 of a 1000 GB/s peak
    c = ctp.quantization_bandwidth(qs, 7.0, 7.0, DEVICE)
    assert (c.evidence["achieved"], c.evidence["fraction"]) == (pytest.approx(700.0), pytest.approx(0.7))
    c = ctp.quantization_bandwidth(qs, None, None, DEVICE)
    assert c.status == "withheld" and "parameter count" in c.reason


def _roofline_row(**kw):
    return {
        "metric": "decode_token_latency",
        "tp": 1,
        "tp_stated": True,
        "batch_size": 1,
        "latency_ms": 10.0,
        "line": 5,
        "achieved_gb_s_per_gpu": 500.0,
        "achieved_tflops": 1.0,
        "bytes_per_gpu": 5e9,
        "kv_bytes_per_token": 0.0,
        "bandwidth_fraction": 0.5,
        "compute_fraction": 0.01,
        "intensity_flop_per_byte": 1.0,
    } | kw


def test_streaming_fraction_needs_the_parameter_count():
    kw = {"compute": False, "tp_unknown": 1, "why_missing": "x"}
    c = ctp.fraction_of_peak("decode_bw_small_tp", _roofline_row(), DEVICE, active_params_b=7.0, **kw)
    assert (c.status, c.evidence["fraction"], c.evidence["streaming"]) == ("shown", 0.5, True)
    # a weight-streaming fraction without the model's parameter count cannot be stated
    c = ctp.fraction_of_peak("decode_bw_small_tp", _roofline_row(), DEVICE, active_params_b=None, **kw)
    assert c.status == "withheld" and "model's size" in c.reason


def test_highest_fraction_below_the_peak_counts_none_over_it():
    h = _roofline_row() | {"fraction": 0.5, "peak_kind": "bandwidth"}
    c = ctp.highest_fraction({"highest": h}, DEVICE, 1, "x")
    # the highest point is at half the peak, so no point is over it
    assert (c.status, c.evidence["fraction"], c.evidence["n_over_peak"]) == ("shown", 0.5, 0)


def test_bound_names_the_assumed_tp_and_device_as_suspects():
    dev = DEVICE | {"source": "assumed"}
    c = ctp.bound("decode_bound", _roofline_row(tp_stated=False, tp=8), dev, 0.4, "x", 8)
    sus = c.evidence["suspects"]
    assert sus[0].startswith("the TP") and "TP 8" in sus[0]
    assert sus[1].startswith("the device") and "A100-SXM4-80GB" in sus[1]
    assert (
        ctp.bound("decode_bound", _roofline_row(), DEVICE, 0.4, "x", 1)
        .evidence["suspects"][0]
        .startswith("the model size")
    )


def test_percentile_inversions_count_p90_below_mean():
    # row 1: p90 9.5 below the mean 10 but above p50 9; row 2 sorted
    rows = [
        {"tp": 1, "batch_size": 1, "mean": 10.0, "p50": 9.0, "p90": 9.5, "p99": 12.0, "max": 12.0, "line": 1},
        {"tp": 1, "batch_size": 2, "mean": 10.0, "p50": 10.0, "p90": 12.0, "p99": 13.0, "max": 13.0, "line": 2},
    ]
    c = ctp.percentile_inversions(atp.percentile_counts(_wide(rows, metric="decode_token_latency")))
    assert (c.evidence["count"], c.evidence["n"], c.evidence["p90_lt_mean"], c.evidence["p90_eq_p99"]) == (0, 2, 1, 0)


def _two_configs(first_seq, second_seq):
    """Two files whose lines both start at 1, each one configuration at TP 1 and 2: a full tie."""
    rows = [
        {"source": src, "sequence_length": seq, "tp": t, "batch_size": 1, "mean": 10.0 / t, "line": t}
        for src, seq in (("a", first_seq), ("b", second_seq))
        for t in (1, 2)
    ]
    return _wide(rows, metric="decode_token_latency")


def test_main_config_full_tie_keeps_the_first_file():
    assert set(atp.main_config(_two_configs(200, 100))["sequence_length"]) == {200}
    assert set(atp.main_config(_two_configs(100, 200))["sequence_length"]) == {100}


def test_main_config_one_section_per_tp():
    # TP 1 printed twice: section A with two measured batches (lines 1-2), section B with one (line 3)
    rows = [
        {"tp": 1, "section": "A", "batch_size": 1, "mean": 10.0, "line": 1},
        {"tp": 1, "section": "A", "batch_size": 2, "mean": 12.0, "line": 2},
        {"tp": 1, "section": "B", "batch_size": 1, "mean": 11.0, "line": 3},
        {"tp": 2, "section": "C", "batch_size": 1, "mean": 6.0, "line": 4},
    ]
    m = atp.main_config(_wide(rows, metric="decode_token_latency"))
    assert m["line"].tolist() == [1, 2, 4]


def test_fit_scaling_drops_a_missing_latency():
    # latency = 100 / TP + 1 x (TP - 1) + 5 at TP 1, 2, 4, 8; the TP 16 latency is missing (None)
    f = atp.fit_scaling([1, 2, 4, 8, 16], [105.0, 56.0, 33.0, 24.5, None])
    assert f.n_points == 4
    assert (f.a, f.b, f.c) == (
        pytest.approx(100.0, rel=1e-4),
        pytest.approx(1.0, rel=1e-3),
        pytest.approx(5.0, abs=1e-3),
    )
