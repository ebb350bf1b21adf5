"""The tp_scaling claims: each verdict on the seeds, and synthetic data where it must come out the other way."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
from test_tgi_tp import _decode_tp2_tp4, _prefill_tp2, _wide  # the same synthetic TGI tables

from benchbook import config, ingest
from benchbook.analysis import tp
from benchbook.analysis import tp as atp
from benchbook.claims import Ledger, make, rules
from benchbook.claims import tp as ctp
from benchbook.presentation import wording

FIX = config.FIXTURES_DIR / "tgi-benchmark"
A100 = {"device": "A100-SXM4-80GB", "bandwidth_gb_s": 2039.0, "tflops": 312.0, "source": "parameter"}


def _claims(w_all, device=A100, params_b=7.07, kv=491520.0, tp_unknown=1):
    w_all = w_all.copy()
    w_all["tp_stated"] = w_all["tp"].notna()
    w_all["tp"] = w_all["tp"].fillna(tp_unknown)
    w = tp.main_config(w_all)
    a = tp.analyse(
        w,
        w_all,
        params_b=params_b,
        bytes_per_param=2.0,
        bandwidth_gb_s=device["bandwidth_gb_s"],
        tflops=device["tflops"],
        kv_bytes_per_token=kv,
        tp_unknown=tp_unknown,
        jump_threshold=1.3,
        slowdown_tolerance=0.02,
    )
    cl = ctp.all_claims(
        w=w,
        w_all=w_all,
        analysis=a,
        device=device,
        params_b=params_b,
        active_params_b=params_b,
        why_no_params="no parameter count is known for m",
        tp_unknown=tp_unknown,
        bound_threshold=0.5,
        jump_threshold=1.3,
        slowdown_tolerance=0.02,
    )
    return {c.id: c for c in wording.ledger("tp_scaling", [], cl).claims}


@pytest.fixture(scope="module")
def seeds():
    w, _ = tp.combine(tp.wide(ingest.read_all([config.seed("000"), config.seed("001")])[0]))
    return w


@pytest.fixture(scope="module")
def sc(seeds):
    return _claims(seeds)


def _lat(rows):
    """A wide table from (metric, tp, batch, mean, low, high) with 10 runs."""
    return pd.DataFrame(
        [
            {
                "source": "s",
                "model": "m",
                "tp": t,
                "sequence_length": 100,
                "decode_length": 8,
                "quantize": "none",
                "max_batch_total_tokens": np.nan,
                "section": f"TP {t}",
                "batch_size": b,
                "metric": m,
                "mean": mean,
                "min": lo,
                "max": hi,
                "p50": mean,
                "p90": hi,
                "p99": hi,
                "n_runs": 10,
                "line": i + 1,
                "note": "",
            }
            for i, (m, t, b, mean, lo, hi) in enumerate(rows)
        ]
    )


def test_seed_ledger_clean_with_five_shown(sc):
    ledger = Ledger("tp_scaling", ["seeds"], list(sc.values()))
    assert rules.check(ledger.to_dict()) == []
    assert sum(c.shown for c in sc.values()) >= 5


# --- recommendation ------------------------------------------------------------------------------
def test_throughput_recommendation_counts_the_prefill(sc):
    c = sc["rec_throughput"]
    ev = c.evidence
    assert c.status == "shown" and (ev["choice"], ev["runner_up"]) == ("TP 1 at batch 32", "TP 2 at batch 8")
    assert (round(ev["value"], 1), round(ev["runner_up_value"], 1)) == (45.9, 37.8)
    assert ev["decode_only_choice"] == "TP 2 at batch 8" and round(ev["decode_only_value"]) == 153
    assert "counting the prefill" in ev["metric"] and set(ev["options"]) >= {"TP 1 at batch 32", "TP 2 at batch 8"}
    # the replicas sentence follows the claim: TP 1 won, so replicas of TP 1
    assert "replicas of TP 1 deliver more tokens per GPU" in c.text


def _tput_rows(pre2, dec2):
    """TP 1 and TP 2 at batch 1, prefill and decode total; TP 2 given latencies pre2 / dec2."""
    rows = [
        ("prefill_latency", 1, 1, 100.0, 99.0, 101.0),
        ("decode_total_latency", 1, 1, 700.0, 699.0, 701.0),
        ("prefill_latency", 2, 1, pre2, pre2 - 1, pre2 + 1),
        ("decode_total_latency", 2, 1, dec2, dec2 - 1, dec2 + 1),
    ]
    return _lat(rows)


def test_throughput_recommendation_flips_and_withholds():
    # TP 2 twice as fast overall: per GPU the same as TP 1 -> inside the noise, withheld
    tie = ctp.throughput_recommendation(tp.throughput(_tput_rows(50.0, 350.0)))
    assert tie.status == "withheld" and "inside the noise" in tie.reason
    # TP 2 four times as fast: it wins per GPU, and the sentence says sharding beats replicas
    c = wording.word("tp_scaling", ctp.throughput_recommendation(tp.throughput(_tput_rows(25.0, 175.0))))
    assert c.status == "shown" and c.evidence["choice_tp"] == 2 and "sharding over 2 GPUs beats" in c.text
    one = ctp.throughput_recommendation(tp.throughput(_tput_rows(25.0, 175.0).query("tp == 1")))
    assert one.status == "withheld" and "only one option" in one.reason


def test_latency_recommendations(sc):
    d = sc["rec_decode_latency"]
    assert d.status == "shown" and (d.evidence["choice"], d.evidence["value"]) == ("TP 2", 17.56)
    assert d.evidence["runner_up"] == "TP 4" and d.evidence["noise"] < (18.78 / 17.56 - 1)
    p = sc["rec_prefill_latency"]
    assert p.status == "shown" and p.evidence["choice"] == "TP 8"
    # two TPs within their spread: no recommendation
    close = _lat([("decode_token_latency", 1, 1, 20.0, 15.0, 25.0), ("decode_token_latency", 2, 1, 19.8, 15.0, 25.0)])
    assert ctp.latency_recommendation(close, "decode_token_latency").status == "withheld"
    # the prefill recommendation names its own phase, not decode's
    pre = _lat([("prefill_latency", 1, 1, 50.0, 49.0, 51.0), ("prefill_latency", 2, 1, 30.0, 29.0, 31.0)])
    c = ctp.latency_recommendation(pre, "prefill_latency")
    assert c.id == "rec_prefill_latency" and c.evidence["metric"] == "mean prefill latency (ms), batch 1"
    assert "the lowest mean prefill latency at the smallest batch" in c.rule and c.evidence["choice"] == "TP 2"


# --- comparison ----------------------------------------------------------------------------------
def test_decode_speedup(sc):
    s = sc["decode_speedup"]
    assert s.status == "shown" and s.evidence["ratio"] == pytest.approx(28.75 / 17.56) and "1.64x" in s.text
    same = _lat([("decode_token_latency", 1, 1, 20.0, 19.9, 20.1), ("decode_token_latency", 2, 1, 21.0, 19.9, 22.1)])
    assert ctp.decode_speedup(tp.scaling(same)).status == "withheld"


def test_where_decode_stops_getting_faster_is_said_per_batch_size_on_the_seeds(sc):
    """Issue #35 item 7: 'past TP 2, decode gets slower' holds at batch 1 and 2 only; at batch 8 TP 4
    (20.25 ms) and TP 8 (19.76 ms) beat TP 2 (26.20 ms), TP 8 within the noise of TP 4."""
    turn = {bs: sc[f"decode_turn_{bs}"].evidence for bs in (1, 2, 4, 8, 16)}
    assert [(turn[b]["turn_tp"], turn[b]["after"]) for b in (1, 2, 4, 8, 16)] == [
        (2, "slower"),
        (2, "slower"),
        (4, "slower"),
        (4, "flat"),
        (8, "falling"),
    ]
    b8 = sc["decode_turn_8"]
    assert b8.status == "shown" and (b8.evidence["a"], b8.evidence["b"]) == (26.20, 20.25)
    assert "TP 8" in b8.text and "within the noise" in b8.text and "slower" not in b8.text
    agg = sc["decode_turn"]
    assert agg.status == "shown" and agg.evidence["turns"] == [
        {"tp": 2, "batches": [1, 2], "smallest": False},
        {"tp": 4, "batches": [4, 8], "smallest": False},
    ]
    assert agg.evidence["rises_with_batch"] and "TP 2 at batch 1 and 2" in agg.text
    assert "Past TP 2, decode gets slower" not in agg.text


def test_the_turn_comes_out_the_other_way_when_a_larger_tp_is_faster_beyond_the_noise():
    # TP 2 at 8 ms, TP 4 at 6 ms with tight ranges: still falling at the largest TP, no turn
    falling = _lat([("decode_token_latency", t, 1, m, m - 0.01, m + 0.01) for t, m in ((1, 10.0), (2, 8.0), (4, 6.0))])
    t = tp.turning_tp(falling).iloc[0]
    assert (t["turn_tp"], t["after"]) == (4, "falling")
    c = ctp.decode_turn_at(t.to_dict())
    assert c.status == "shown" and "still faster on TP 4" in wording.word("tp_scaling", c).text
    assert c.rule.startswith("comparison, per batch size: the turn is the smallest TP that no larger TP beats by more")
    assert "than the larger of the slowdown tolerance and the " in c.rule
    assert c.rule.endswith("or the smallest TP against the largest (still falling)")
    # still falling: the smallest TP (the reference) against the largest
    assert (t["ref_tp"], t["ref_ms"], c.evidence["a_tp"], c.evidence["b_tp"]) == (1, 10.0, 1, 4)
    # TP 4 3 % faster than TP 2 but with ranges of +-10 %: inside the noise, so the turn is TP 2 and flat
    noisy = _lat([("decode_token_latency", t, 1, m, m * 0.9, m * 1.1) for t, m in ((1, 10.0), (2, 8.0), (4, 7.76))])
    t = tp.turning_tp(noisy).iloc[0]
    assert (t["turn_tp"], t["after"]) == (2, "flat")
    # slower past the turn beyond the noise
    slower = _lat([("decode_token_latency", t, 1, m, m - 0.01, m + 0.01) for t, m in ((1, 10.0), (2, 8.0), (4, 12.0))])
    t = tp.turning_tp(slower).iloc[0]
    assert (t["turn_tp"], t["after"], ctp.decode_turn_at(t.to_dict()).evidence["ratio"]) == (2, "slower", 1.5)


def test_a_slowdown_inside_the_tolerance_is_no_turn():
    # 1 % slower at the larger TP: beyond the statistical noise, inside a 2 % slowdown tolerance
    tiny = _lat(
        [("decode_token_latency", 1, 1, 20.0, 19.99, 20.01), ("decode_token_latency", 2, 1, 20.2, 20.19, 20.21)]
    )
    assert tp.turning_tp(tiny, 0.0).iloc[0]["after"] == "slower"
    flat = tp.turning_tp(tiny, 0.02).iloc[0]
    assert flat["after"] == "flat" and ctp.decode_turn_at(flat.to_dict()).status == "withheld"
    agg = ctp.decode_turn(tp.turning_tp(tiny, 0.02), [ctp.decode_turn_at(flat.to_dict())], None)
    assert agg.status == "withheld" and agg.evidence["n"] == 1


def test_superlinear_efficiency_explained_by_baseline(sc):
    c = sc["superlinear_efficiency"]
    ev = c.evidence
    assert c.status == "shown" and round(ev["efficiency"], 2) == 1.39 and (ev["tp"], ev["batch_size"]) == (2, 8)
    assert (ev["ref_ms_base"], ev["ref_ms_max_batch"]) == (28.75, 243.98)
    assert "28.8 ms at batch 1" in c.text and "244 ms at batch 32" in c.text
    # no efficiency above 1: withheld with the highest one named
    sub = _lat(
        [
            ("decode_token_latency", 1, 1, 20.0, 19.9, 20.1),
            ("decode_token_latency", 1, 8, 40.0, 39.9, 40.1),
            ("decode_token_latency", 2, 1, 15.0, 14.9, 15.1),
            ("decode_token_latency", 2, 8, 30.0, 29.9, 30.1),
        ]
    )
    w = ctp.superlinear_efficiency(tp.scaling(sub))
    assert w.status == "withheld" and "0.67" in w.reason


def test_quantization_comparison(sc):
    q = sc["quant_slowdown"]
    assert q.status == "shown" and q.evidence["ratio"] == pytest.approx(86.81 / 17.92) and "LLM.int8()" in q.text
    fp16_only = _lat([("decode_token_latency", 1, 1, 10.0, 9.9, 10.1)])
    assert ctp.quantization_slowdown(tp.quantization_slowdown(fp16_only)).status == "withheld"


# --- scaling -------------------------------------------------------------------------------------
def test_prefill_efficiency_falls_and_the_other_way(sc):
    assert sc["prefill_efficiency_falls"].status == "shown" and sc["prefill_speedup_rises"].status == "shown"
    rises = _lat(
        [("prefill_latency", t, 1, 100.0 / t**1.2, 100.0 / t**1.2 - 0.1, 100.0 / t**1.2 + 0.1) for t in (1, 2, 4)]
    )
    c = wording.word("tp_scaling", ctp.prefill_efficiency_falls(tp.scaling(rises)))
    assert c.status == "withheld" and c.text == (
        "Prefill's parallel efficiency at batch 1 does not fall at every larger TP (the values rise at every "
        "step): it is 1.00, 1.15 and 1.32 at TP 1, 2 and 4."
    )
    one = _lat([("prefill_latency", 1, 1, 100.0, 99.0, 101.0)])
    c = ctp.prefill_efficiency_falls(tp.scaling(one))
    assert c.status == "withheld" and "two or more TPs" in c.reason


# --- fraction of peak and bound ------------------------------------------------------------------
def test_fraction_of_peak_on_seeds_names_device_and_source(sc):
    c = sc["decode_bw_small_tp"]
    ev = c.evidence
    assert c.status == "shown" and (ev["device"], ev["peak_source"], ev["streaming"]) == (
        "A100-SXM4-80GB",
        "parameter",
        True,
    )
    assert ev["active_params_b"] == 7.07 and ev["fraction"] == pytest.approx(ev["achieved"] / 2039.0)
    assert sc["highest_fraction"].status == "shown"


def test_the_seeds_name_no_gpu_so_no_device_is_assumed_and_their_shares_of_a_peak_are_withheld(seeds):
    """The seed states no hardware, and the chapter assumes none: a share of some default GPU's peak
    says nothing about the GPUs the run used. The achieved figures need no device and are stated;
    named as a parameter, the shares are stated too."""
    c = _claims(seeds, device=tp.device_peaks("", texts=["no device here"]))
    for cid in ("decode_bw_small_tp", "prefill_compute_best", "highest_fraction", "prefill_bound"):
        assert c[cid].status == "withheld" and c[cid].reason == rules.NO_DEVICE, cid
        assert c[cid].evidence["device"] is None and "assumed" not in str(c[cid].evidence.get("peak_source"))
    # the achieved figure needs no device: it is stated, only its share of a peak is not
    said = wording.word("tp_scaling", c["decode_bw_small_tp"]).text
    assert said.startswith("The decode bandwidth on the smallest TP: ") and " GB/s per GPU (TP 1, batch 1)" in said
    assert "`gpu` parameter" in said and "A100" not in said
    # but a decode step at about 1 FLOP/byte is not compute-bound on any device: that is stated
    dec = c["decode_bound"]
    assert dec.status == "shown" and dec.evidence["verdict"] == rules.NOT_COMPUTE
    assert dec.evidence["intensity"] < 2 < dec.evidence["lowest_ridge"]
    # the same achieved figure as with the GPU named; with it named, its share is stated
    named = _claims(seeds)["decode_bw_small_tp"]
    assert c["decode_bw_small_tp"].evidence["achieved"] == pytest.approx(named.evidence["achieved"])
    assert named.status == "shown"


def test_no_device_is_assumed_where_neither_the_input_nor_a_parameter_names_one():
    none = tp.device_peaks("", texts=["# Tensor Parallel (TP) - 1 GPUs"])
    assert none["device"] is None and none["source"] is None and np.isnan(none["bandwidth_gb_s"])
    named = tp.device_peaks("A100-SXM4-80GB")
    assert named["device"] == "A100-SXM4-80GB" and named["source"] == "parameter"


def test_fraction_of_peak_implausible_on_unknown_tp():
    w = tp.wide(ingest.read(FIX / "ms_build_mi300_llama3_70b.md", tool="tgi-benchmark"))
    mi = {"device": "MI300X", "bandwidth_gb_s": 5300.0, "tflops": 1307.4, "source": "parameter"}
    c = _claims(w, device=mi, params_b=70.55, kv=327680.0, tp_unknown=1)
    top = c["highest_fraction"]
    assert top.status == "implausible" and "tp_unknown" in top.text and "Warning" in top.text
    # every roofline claim of that run is withheld or a warning, never a result
    assert all(c[i].status != "shown" for i in ctp.ROOFLINE_IDS)
    ok = _claims(w, device=mi, params_b=70.55, kv=327680.0, tp_unknown=8)
    assert ok["highest_fraction"].status == "shown" and ok["decode_bw_small_tp"].status == "shown"


def test_the_quantized_bandwidth_counts_the_model_s_active_parameters(seeds):
    c = _claims(seeds)["quant_bandwidth"]  # in the test's body: mutmut maps a test by what its body calls
    assert c.status == "shown" and c.evidence["active_params_b"] == 7.07


def test_unknown_model_size_withholds_with_a_sentence(seeds):
    c = _claims(seeds, params_b=None)
    for cid in ("decode_bw_small_tp", "prefill_compute_best", "highest_fraction", "decode_bound", "quant_bandwidth"):
        assert c[cid].status == "withheld", cid
    assert "no parameter count is known" in c["decode_bw_small_tp"].text


def test_bound_verdicts(sc):
    d = sc["decode_bound"]
    assert d.status == "shown" and d.evidence["verdict"] == "overhead" and "neither roof" in d.text
    rp = (
        pd.DataFrame(
            [
                {
                    "metric": "decode_token_latency",
                    "bandwidth_fraction": 0.8,
                    "compute_fraction": 0.01,
                    "intensity_flop_per_byte": 1.0,
                    "tp": 1,
                    "batch_size": 1,
                    "line": 1,
                }
            ]
        )
        .iloc[0]
        .to_dict()
    )
    b = wording.word("tp_scaling", ctp.bound("decode_bound", rp, A100, 0.5, "", 1))
    assert b.evidence["verdict"] == "memory-bandwidth" and "bandwidth-bound" in b.text


# --- anomalies -----------------------------------------------------------------------------------
def test_anomalies_on_seeds(sc):
    assert (sc["percentile_inversions"].evidence["count"], sc["percentile_inversions"].evidence["n"]) == (20, 93)
    b = sc["budget_refuted"]
    assert b.status == "shown" and b.evidence["budget"] == 32000 and "TP 1 batch 32 (33,024 tokens) ran" in b.text
    j = sc["superlinear_jumps"]
    assert j.status == "shown" and j.evidence["last_before_failure"] and "memory pressure" in j.text
    # batch 1, TP 4 to 8: +4.6 %, inside the two Averages' noise (their Lowest-Highest ranges are wide): not a step
    assert sc["missing_batches"].evidence["count"] == 5 and sc["decode_slower_steps"].evidence["count"] == 4


def test_anomalies_absent_say_so_without_missing_values():
    w = tp.wide(ingest.read(FIX / "mt0_xxl_tp4_bs16.md", tool="tgi-benchmark"))
    c = _claims(w, params_b=12.92, kv=0.0)
    assert c["budget_refuted"].status == "withheld" and "every batch size ran" in c["budget_refuted"].text
    assert c["decode_slower_steps"].status == "withheld" and "two or more TPs" in c["decode_slower_steps"].reason
    assert c["missing_batches"].text.startswith("Every batch size printed ran")


@pytest.mark.parametrize("name", sorted(p.name for p in FIX.glob("*.md") if p.name != "README.md"))
def test_every_fixture_gives_a_clean_ledger_without_missing_values(name):
    w = tp.wide(ingest.read(FIX / name, tool="tgi-benchmark"))
    model = str(w["model"].dropna().iloc[0]) if w["model"].notna().any() else ""
    size = tp.model_size(model)
    c = _claims(w, params_b=size["total_b"], kv=tp.kv_bytes_per_token(model) or 0.0)
    ledger = Ledger("tp_scaling", [name], list(c.values()))
    assert rules.check(ledger.to_dict()) == []
    for claim in c.values():
        assert not rules.MISSING_WORDS.search(claim.text), (claim.id, claim.text)
        assert "0 places" not in claim.text and "nanx" not in claim.text


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


DEVICE = {"device": "A100-SXM4-80GB", "bandwidth_gb_s": 1000.0, "tflops": 100.0, "source": "parameter"}


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


def test_bound_names_the_assumed_tp_as_a_suspect():
    c = ctp.bound("decode_bound", _roofline_row(tp_stated=False, tp=8), DEVICE, 0.4, "x", 8)
    sus = c.evidence["suspects"]
    assert sus[0].startswith("the TP") and "TP 8" in sus[0]
    assert sus[1].startswith("the model size")  # a device is never assumed, so never a suspect
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


def test_every_comparison_of_the_seeds_is_judged_by_the_chapters_noise_rule(sc):
    for c in sc.values():
        ev = c.evidence
        if c.kind == "scaling" and ev.get("xs"):
            assert len(ev["noise"]) == len(ev["xs"]) - 1 and all(n > 0 for n in ev["noise"]), c.id
            assert ev["trend"] == rules.trend(ev)
        if c.kind in ("comparison", "recommendation") and c.evidence.get("a", ev.get("value")) is not None:
            assert ev["noise"] is not None and ev["noise"] > 0, c.id
        if c.kind == "bound" and ev.get("bandwidth_fraction") is not None:
            assert "fragile" in ev and "margin" in ev and ev["noise"] > 0, c.id


def test_a_prefill_step_inside_its_noise_breaks_the_every_step_trend():
    # TP 1, 2, 4: the step from 2 to 4 gains 1 %, inside a noise of a few percent from a wide Lowest-Highest range
    w = _lat(
        [
            ("prefill_latency", 1, 1, 100.0, 95.0, 105.0),
            ("prefill_latency", 2, 1, 60.0, 57.0, 63.0),
            ("prefill_latency", 4, 1, 59.4, 56.0, 63.0),
        ]
    )
    c = wording.word("tp_scaling", ctp.prefill_speedup_rises(tp.scaling(w)))
    assert c.status == "withheld" and c.evidence["trend"] == "mixed"
    assert "does not get faster at every larger TP (the step from 2 to 4 (+1%) is inside its noise (3%))" in c.text
    tight = _lat(
        [
            ("prefill_latency", 1, 1, 100.0, 99.9, 100.1),
            ("prefill_latency", 2, 1, 60.0, 59.99, 60.01),
            ("prefill_latency", 4, 1, 59.4, 59.39, 59.41),
        ]
    )
    assert ctp.prefill_speedup_rises(tp.scaling(tight)).status == "shown"  # the same 1 %, beyond a tight noise


# --- evidence the roofline claims carry (mutation sample, seed 2026) ------------------------------------------


def test_the_kv_cache_is_named_among_the_suspects_and_counted_only_when_given():
    kw = {"compute": False, "tp_unknown": 1, "why_missing": "x", "active_params_b": 7.0}
    c = ctp.fraction_of_peak("decode_bw_small_tp", _roofline_row(kv_bytes_per_token=491520.0), DEVICE, **kw)
    assert c.evidence["kv_counted"] is True
    assert c.evidence["suspects"][-1] == "the KV-cache bytes per token counted (kv_bytes_per_token)"
    assert c.rule.startswith("fraction_of_peak: achieved per GPU / the device's peak; above 1 is implausible (")
    assert ctp.fraction_of_peak("decode_bw_small_tp", _roofline_row(), DEVICE, **kw).evidence["kv_counted"] is False


def test_the_highest_fraction_and_the_bound_name_their_unit_and_phase():
    pre = _roofline_row(metric="prefill_latency") | {"fraction": 0.3, "peak_kind": "compute"}
    c = ctp.highest_fraction({"highest": pre}, DEVICE, 1, "x")
    assert (c.evidence["unit"], c.evidence["phase"], c.evidence["peak"]) == ("TFLOP/s", "prefill", 100.0)
    dec = _roofline_row() | {"fraction": 0.5, "peak_kind": "bandwidth"}
    assert ctp.highest_fraction({"highest": dec}, DEVICE, 1, "x").evidence["unit"] == "GB/s"
    assert (
        ctp.bound("prefill_bound", _roofline_row(metric="prefill_latency"), DEVICE, 0.4, "x", 1).evidence["phase"]
        == "prefill"
    )
    assert ctp.bound("decode_bound", _roofline_row(), DEVICE, 0.4, "x", 1).evidence["phase"] == "decode"


def test_decode_slower_steps_records_its_tolerance():
    slower = atp.decode_slower_with_tp(_decode_tp2_tp4(), tolerance=0.02)
    c = ctp.decode_slower_steps(slower, _decode_tp2_tp4(), 0.02)
    assert c.evidence["tolerance"] == 0.02 and c.evidence["count"] == 0


def test_quantization_bandwidth_names_an_unknown_scheme_and_counts_the_bytes_read():
    odd = ctp.quantization_bandwidth(
        atp.quantization_slowdown(_quant((20.0, 22.0), (10.0, 11.0), "exl9")), 7.0, 7.0, DEVICE
    )
    assert odd.id == "quant_bandwidth" and odd.status == "withheld" and "bytes per weight of exl9" in odd.reason
    qs = atp.quantization_slowdown(_quant((20.0, 22.0), (10.0, 11.0)))
    # 7e9 weights x 1 byte (LLM.int8) / TP 1: 7e9 bytes per token
    assert ctp.quantization_bandwidth(qs, 7.0, 7.0, DEVICE).evidence["bytes_per_token"] == pytest.approx(7e9)


def test_a_claim_without_its_row_says_so_and_an_assumed_tp_is_named_in_the_bound():
    only_prefill = _claims(_prefill_tp2())
    assert only_prefill["decode_bw_small_tp"].status == "withheld"
    assert only_prefill["decode_bw_small_tp"].reason == "the input has no such row"
    rows = [{"tp": np.nan, "batch_size": b, "mean": m, "line": b} for b, m in ((1, 20.0), (2, 22.0))]
    unstated = _claims(_wide(rows, metric="decode_token_latency", section=""), tp_unknown=4)
    assert any("TP 4 (parameter tp_unknown)" in s for s in unstated["decode_bound"].evidence["suspects"])


# --- stop 44's sample: what the evidence and the rules carry -----------------------------------------------------


def test_a_trend_shown_keeps_its_rule():
    rows = [
        {"tp": t, "batch_size": 1, "mean": m, "line": i + 1} for i, (t, m) in enumerate([(1, 90), (2, 50), (4, 30)])
    ]
    c = ctp.prefill_speedup_rises(atp.scaling(_wide(rows, metric="prefill_latency")))
    assert c.status == "shown" and c.rule.startswith("scaling: ")


def test_the_quantized_bandwidth_keeps_its_rule_withheld_and_names_its_tp():
    qs = atp.quantization_slowdown(_quant((20.0, 22.0), (10.0, 11.0)))
    shown = ctp.quantization_bandwidth(qs, 7.0, 7.0, DEVICE)
    assert shown.evidence["tp"] == 1
    withheld = ctp.quantization_bandwidth(qs, None, None, DEVICE)
    assert withheld.status == "withheld" and withheld.rule == shown.rule


def test_the_best_prefill_is_a_share_of_the_compute_peak_and_the_slowdowns_carry_their_tolerance(sc):
    pre = sc["prefill_compute_best"]
    assert (pre.evidence["unit"], pre.evidence["peak"]) == ("TFLOP/s", A100["tflops"])
    assert sc["decode_slower_steps"].evidence["tolerance"] == 0.02


def test_a_batch_flat_past_its_turn_counts_as_turned():
    """Batch 1 stops falling at TP 2 (TP 4 within the noise of it: "flat"): one batch of one turns at TP 2."""
    ev = {"batch_size": 1, "after": "flat", "turn_tp": 2, "turn_ms": 10.0, "max_tp": 4, "max_ms": 10.1}
    ev |= {"ref_tp": 1, "ref_ms": 20.0, "line": 5}
    turns = pd.DataFrame([{"batch_size": 1, "after": "flat", "prev_tp": 1.0, "ref_tp": 1, "turn_tp": 2}])
    shown = dataclasses.replace(make("decode_turn_1", "comparison", "r", ev), status="shown")
    c = ctp.decode_turn(turns, [shown], None)
    assert c.evidence["turns"] == [{"tp": 2, "batches": [1], "smallest": False}] and c.evidence["after"] == "flat"


def test_the_comparisons_and_a_missing_row_keep_their_rules(sc):
    assert sc["decode_speedup"].rule.startswith("comparison: reference-TP latency / fastest-TP latency, shown when")
    kw = {"compute": False, "tp_unknown": 1, "why_missing": "no roofline row"}
    c = ctp.fraction_of_peak("decode_bw_small_tp", None, DEVICE, active_params_b=7.0, **kw)
    assert c.status == "withheld" and c.rule.startswith("fraction_of_peak: achieved per GPU / the device's peak")
