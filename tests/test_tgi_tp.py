"""The tp_scaling statistics and detectors, and the tgi checks, on synthetic data and on the seeds."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import roofline, tp
from benchbook.presentation import plotting
from benchbook.checks import AUDIT_COLUMNS, REPRODUCTION_COLUMNS
from benchbook.checks import tgi as checks_tgi


@pytest.fixture(scope="module")
def w0():
    return tp.wide(ingest.read(config.seed("000")))


def test_fit_recovers_known_parameters():
    tps = np.array([1, 2, 4, 8, 16])
    a, b, c = 40.0, 1.5, 6.0
    y = a / tps + b * (tps - 1) + c
    f = tp.fit_scaling(tps, y)
    assert f.a == pytest.approx(a, rel=1e-4) and f.b == pytest.approx(b, rel=1e-4) and f.c == pytest.approx(c, rel=1e-4)
    assert f.tp_optimum == pytest.approx(np.sqrt(a / b))
    rng = np.random.default_rng(0)
    noisy = np.repeat(tps, 20)
    fn = tp.fit_scaling(noisy, a / noisy + b * (noisy - 1) + c + rng.normal(0, 0.2, noisy.size))
    for est, err, true in ((fn.a, fn.a_err, a), (fn.b, fn.b_err, b), (fn.c, fn.c_err, c)):
        assert abs(est - true) < 4 * err  # the reported uncertainty covers the truth


def test_fit_needs_four_tps():
    assert tp.fit_scaling([1, 2, 4], [10, 6, 5]) is None


def test_scaling_seed0(w0):
    s = tp.scaling(tp.main_config(w0))
    r = s[(s.metric == "decode_token_latency") & (s.batch_size == 1) & (s.tp == 2)].iloc[0]
    assert r.speedup == pytest.approx(28.75 / 17.56) and r.efficiency == pytest.approx(28.75 / 17.56 / 2)


def test_best_tp_decode_slower_past_2(w0):
    b = tp.best_tp(tp.main_config(w0))
    r = b[b.batch_size == 1].iloc[0]
    assert (r.best_tp, r.best_ms, r.max_tp, r.max_tp_ms, r.slower_past_best) == (2, 17.56, 8, 19.64, True)


def test_percentile_inversions_seed0_count_20(w0):
    inv = tp.percentile_inversions(w0)
    assert int((inv.p90 < inv.p50).sum()) == 20
    assert int((inv.p90 < inv["mean"]).sum()) == 18
    assert 106 in set(inv.line) and 225 in set(inv.line)


def test_detectors_on_synthetic():
    rows = []
    for t, lat in ((1, 30.0), (2, 20.0), (4, 25.0)):
        rows.append(
            {
                "source": "s",
                "model": "m",
                "tp": t,
                "sequence_length": 10,
                "decode_length": 8,
                "quantize": "none",
                "max_batch_total_tokens": 100,
                "section": "",
                "batch_size": 1,
                "metric": "decode_token_latency",
                "mean": lat,
                "min": lat,
                "max": lat + 1,
                "p50": lat,
                "p90": lat - 1,
                "p99": lat - 1,
                "line": t,
                "note": "",
            }
        )
    w = pd.DataFrame(rows)
    sl = tp.decode_slower_with_tp(w, tolerance=0.02)
    assert list(sl[["from_tp", "to_tp"]].itertuples(index=False, name=None)) == [(2, 4)]
    inv = tp.percentile_inversions(w)
    assert len(inv) == 3 and (inv.kind == "p90 < p50 and p90 < mean").all()
    pre = w.assign(metric="prefill_latency", tp=1, batch_size=[1, 2, 4], mean=[10.0, 20.0, 80.0])
    j = tp.superlinear_jumps(pre, threshold=1.3)
    assert list(j[["from_bs", "to_bs"]].itertuples(index=False, name=None)) == [(2, 4)]
    bud = tp.batch_token_budget_test(pre.assign(mean=[10.0, np.nan, 80.0]))
    # batch 4: 4 x 18 = 72 tokens <= 100, ran: consistent; batch 2 did not run although 36 <= 100
    assert list(bud.consistent) == [True, False, True]


def test_seed_anomalies(w0):
    m = tp.missing_batches(w0)
    assert sorted(zip(m.tp, m.batch_size, strict=False)) == [(2, 16), (2, 32), (4, 16), (4, 32), (8, 32)]
    j = tp.superlinear_jumps(w0)
    assert len(j) == 1 and (j.iloc[0].from_ms, j.iloc[0].to_ms) == (263.44, 857.91)
    q = tp.quantization_slowdown(w0)
    assert q[q.batch_size == 1].iloc[0].slowdown == pytest.approx(86.81 / 17.92)
    w = pd.concat([w0, tp.wide(ingest.read(config.seed("001")))])
    bud = tp.batch_token_budget_test(w)
    contra = bud[~bud.consistent]
    assert {(1, 32), (2, 16), (4, 16)} <= set(zip(contra.tp, contra.batch_size, strict=False))


def test_combine_drops_seed1_repeat(w0):
    w1 = tp.wide(ingest.read(config.seed("001")))
    both, n = tp.combine(pd.concat([w0, w1], ignore_index=True))
    assert n == len(w1) == 30 and len(both) == len(w0)


def test_roofline_points_known_answer():
    g = roofline.GPU("X", 80, 1000.0, 100.0, 200.0, 300.0, "", "")
    w = pd.DataFrame(
        [
            {
                "metric": "decode_token_latency",
                "tp": 2,
                "batch_size": 1,
                "sequence_length": 0,
                "decode_length": 0,
                "quantize": "none",
                "mean": 10.0,
                "line": 1,
            },
            {
                "metric": "prefill_latency",
                "tp": 1,
                "batch_size": 1,
                "sequence_length": 1000,
                "decode_length": 0,
                "quantize": "none",
                "mean": 1000.0,
                "line": 2,
            },
        ]
    )
    r = tp.roofline_points(w, params_b=1.0, bytes_per_param=2.0, gpu=g)
    d, p = r.iloc[0], r.iloc[1]
    # 2 GB in 10 ms over 2 GPUs = 100 GB/s per GPU = 10 % of 1000 GB/s
    assert d.achieved_gb_s_per_gpu == pytest.approx(100.0) and d.bandwidth_fraction == pytest.approx(0.1)
    # 2 x 1e9 x 1000 FLOP in 1 s = 2 TFLOP/s = 2 % of 100
    assert p.achieved_tflops == pytest.approx(2.0) and p.compute_fraction == pytest.approx(0.02)


def test_recommendation_seed0(w0):
    rec = tp.recommendation(tp.main_config(w0))
    assert rec["decode_token_latency"] == {"tp": 2, "ms": 17.56, "batch_size": 1}
    assert rec["prefill_latency"]["tp"] == 8


def test_checks_reproduce_seed0():
    r = checks_tgi.reproduce(config.seed("000"))
    assert list(r.columns) == REPRODUCTION_COLUMNS
    # min/max throughput follow exactly from highest/lowest latency (bar one printed cell)
    exact = r[r.quantity.str.contains(" max ") | r.quantity.str.contains(" min ")]
    exact = exact[exact.quantity.str.contains("throughput")]
    assert exact.agrees.mean() > 0.98
    seq100 = r[(r.line == 241) & r.quantity.str.startswith("prefill_throughput mean")].iloc[0]
    assert seq100.published == 123.00 and seq100.recomputed == pytest.approx(4 / 0.03417) and not seq100.agrees
    tot = r[r.quantity.str.contains("x decode_token")]
    assert tot.agrees.all()


def test_checks_audit_seed0():
    a = checks_tgi.audit(config.seed("000"))
    assert list(a.columns) == AUDIT_COLUMNS
    counts = a.defect.value_counts()
    assert counts["p90 < p50"] == 20 and counts["p90 below Highest"] == 40 and counts["batch size never run"] == 5
    eq = a[a.defect == "p90 == p99"].iloc[0]
    assert eq.value == 93


# ----------------------------------------------------------------------- chapter figures and text
@pytest.fixture(scope="module")
def m0(w0):
    return tp.main_config(w0)


def _gpu():
    return roofline.GPU("X", 80, 1000.0, 100.0, 200.0, 300.0, "", "")


def _fit(a, b, dof=1):
    return tp.ScalingFit(a, b, 1.0, 0.1, 0.1, 0.1, n_points=dof + 3, dof=dof)


def test_efficiency_sentence_above_one_seed0(m0):
    s = tp.efficiency_sentence(tp.scaling(m0))
    assert s.startswith("The exception is the highest efficiency, 1.39 at batch 8 and TP 2. Above 1 means")


def test_efficiency_sentence_below_one():
    sc = pd.DataFrame(
        {
            "metric": ["decode_token_latency"] * 3 + ["prefill_latency"],
            "batch_size": [1, 1, 4, 1],
            "tp": [1, 2, 2, 2],
            "ref_tp": [1, 1, 1, 1],
            "efficiency": [1.0, 0.6, 0.8, 1.5],  # TP 1 is the reference; prefill is not decode
        }
    )
    assert (
        tp.efficiency_sentence(sc)
        == "No decode step scales perfectly: the highest efficiency is 0.80 at batch 4 and TP 2."
    )


def test_speedup_glues_seed0_and_one_tp(m0):
    g = tp.speedup_glues(tp.scaling(m0), m0, [1, 2, 4, 8], tp_unknown=1)
    assert g["dec_best_speedup"] == pytest.approx(28.75 / 17.56) and (g["max_tp"], g["min_bs"]) == (8, 1)
    one = m0[m0.tp == 1]
    g1 = tp.speedup_glues(tp.scaling(one), one, [1], tp_unknown=4)
    assert g1["eff_sentence"] == "" and np.isnan(g1["dec_best_speedup"]) and g1["max_tp"] == 1
    assert tp.speedup_glues(tp.scaling(one), one, [], tp_unknown=4)["max_tp"] == 4


def test_fit_optimum_sentence_both_ways():
    f = _fit(a=40.0, b=2.5)  # optimum sqrt(40 / 2.5) = 4
    assert tp.fit_optimum_sentence(f, [1, 2, 4, 8], 4, 10.0) == (
        "The measured TP nearest to it, TP 4, is also the measured minimum."
    )
    assert tp.fit_optimum_sentence(f, [1, 2, 4, 8], 2, 17.561) == (
        "The measured minimum is at TP 2 (17.56 ms) instead: with 1 degree(s) of freedom the fit cannot place "
        "its minimum between the TPs measured, so deploy the measured minimum, not the fitted one."
    )


def test_fit_glues_seed0_and_no_fit(m0):
    fits = tp.scaling_fits(m0)
    g = tp.fit_glues(fits, tp.best_tp(m0))
    assert g["fit_bs"] == 1 and g["fit_opt"] == pytest.approx(np.sqrt(g["fit_a"] / g["fit_b"]))
    assert g["fit_opt_sentence"].startswith("The measured minimum is at TP 2 (17.56 ms) instead")
    none = tp.fit_glues([], tp.best_tp(m0))
    assert none["fit_opt_sentence"] == "" and np.isnan(none["fit_opt"]) and len(none) == len(g)


def test_slowdown_glues_seed0_and_none(m0):
    g = tp.slowdown_glues(tp.best_tp(m0))
    assert (g["slow_tp"], g["slow_best_ms"], g["slow_max_tp"], g["slow_max_ms"]) == (2, 17.56, 8, 19.64)
    assert g["slow_sentence"] == "Past TP 2, decode gets slower"
    faster = pd.DataFrame(
        [{"batch_size": 1, "best_tp": 8, "best_ms": 5.0, "max_tp": 8, "max_tp_ms": 5.0, "slower_past_best": False}]
    )
    g = tp.slowdown_glues(faster)
    assert g["slow_sentence"] == "In this input, no TP past which decode gets slower is visible" and np.isnan(
        g["slow_tp"]
    )
    assert tp.slowdown_glues(pd.DataFrame())["slow_sentence"].startswith("In this input")


def test_prefill_example_seed0(m0):
    g = tp.prefill_example(m0, tp_unknown=1)
    assert (g["pf_seq_s"], g["pf_tp"], g["pf_bs"]) == (7.15, 1, 1)
    assert g["pf_tok_s"] == pytest.approx(g["pf_seq_s"] * 1024, rel=0.01)  # sequences/s x prompt length


def test_roofline_glues_and_table_known_answer():
    w = pd.DataFrame(
        [
            {
                "metric": m,
                "tp": t,
                "batch_size": 1,
                "sequence_length": s,
                "decode_length": 0,
                "quantize": "none",
                "mean": ms,
                "line": 1,
            }
            for m, t, s, ms in (
                ("decode_token_latency", 1, 0, 20.0),
                ("decode_token_latency", 2, 0, 10.0),
                ("prefill_latency", 1, 1000, 1000.0),
            )
        ]
    )
    rp = tp.roofline_points(w, params_b=1.0, bytes_per_param=2.0, gpu=_gpu())
    g = tp.roofline_glues(rp)
    # 2 GB in 20 ms on 1 GPU = 100 GB/s = 10 %; 1 GB per GPU in 10 ms = 100 GB/s = 10 %
    assert g["bw_frac_tp1"] == pytest.approx(0.1) and g["bw_frac_maxtp"] == pytest.approx(0.1)
    assert (g["bw_tp1"], g["bw_maxtp"], g["over_peak"]) == (1, 2, 0) and g["pf_frac_max"] == pytest.approx(0.02)
    table = tp.roofline_fraction_table(rp)
    assert list(table.columns) == ["TP 1", "TP 2"]
    assert table.loc[("decode: fraction of peak bandwidth", 1), "TP 2"] == 0.1
    assert table.loc[("prefill: fraction of peak fp16 FLOP/s", 1), "TP 1"] == 0.02


def test_percentile_glues_seed0(w0):
    g = tp.percentile_glues(w0, tp.percentile_inversions(w0))
    assert g == {
        "n_p90_lt_p50": 20,
        "n_p90_lt_mean": 18,
        "n_p90_eq_p99": 93,
        "n_lat_rows": 93,
        "n_p90_below_max": 40,
        "n_prefill_p90_max": 31,
        "n_prefill": 31,
    }


def test_budget_sentences_seeds_and_empty(w0):
    w = pd.concat([w0, tp.wide(ingest.read(config.seed("001")))])
    g = tp.budget_sentences(tp.batch_token_budget_test(w))
    assert g["budget"] == 32000
    assert g["ran_over"].startswith("TP 1 batch 32 (33,024 tokens) ran")
    assert "TP 2 batch 16 (16,512 tokens) did not run" in g["failed_under"]
    empty = tp.batch_token_budget_test(w0.iloc[0:0])
    assert tp.budget_sentences(empty) == {"budget": 0, "ran_over": "none", "failed_under": "none"}


def test_jump_sentence_seed0_and_none(w0):
    s = tp.jump_sentence(tp.superlinear_jumps(w0), w0)
    assert s.startswith("The largest: TP 8 prefill goes from 263 ms at batch 8 to 858 ms at batch 16, 1.63x")
    assert s.endswith("rather than compute.")  # batch 16 is the last that ran at TP 8 before batch 32 failed
    assert tp.jump_sentence(tp.superlinear_jumps(w0.iloc[0:0]), w0) == ""


def _qs(slowdowns, quantize="gptq"):
    bs = [1, 2, 4][: len(slowdowns)]
    return pd.DataFrame(
        {
            "quantize": quantize,
            "tp": 1,
            "batch_size": bs,
            "fp16_ms": 10.0,
            "quantized_ms": [10.0 * s for s in slowdowns],
            "slowdown": slowdowns,
        }
    )


def test_quantization_caption_three_ways():
    slower = tp.quantization_sentences(_qs([2.0, 3.0]), 1.0, _gpu())
    assert slower["q_caption"] == "gptq decode is slower than fp16 at every batch size measured."
    assert slower["q_explain"].endswith("at batch 1 shows the step is bound by the kernels instead.")
    assert slower["q_take"] == "gptq made decode at batch 1 2.0x slower than fp16."
    faster = tp.quantization_sentences(_qs([0.5, 0.8]), 1.0, _gpu())
    assert faster["q_caption"] == "gptq decode is faster than fp16 at every batch size measured."
    assert faster["q_explain"] == ""
    mixed = tp.quantization_sentences(_qs([1.2, 0.8]), 1.0, _gpu())
    assert mixed["q_caption"] == "gptq decode is slower than fp16 at some batch sizes and faster at others."
    none = tp.quantization_sentences(_qs([]), 1.0, _gpu())
    assert (
        none["q_caption"] == "This input has no quantized run with an fp16 twin to compare." and none["q_explain"] == ""
    )


def test_quantization_explain_bitsandbytes_bandwidth():
    # 1e9 weights x 1 byte read in 20 ms on 1 GPU = 50 GB/s = 5.0 % of 1000 GB/s
    s = tp.quantization_sentences(_qs([2.0], "bitsandbytes"), 1.0, _gpu())["q_explain"]
    assert "LLM.int8()" in s and s.endswith(
        "Its kernels reach 5.0% of X's bandwidth here (counting 1 byte(s) per weight)."
    )


def test_quantization_glues_seed0_and_none(w0):
    g = tp.quantization_glues(tp.quantization_slowdown(w0), 7.07, roofline.gpu("A100-SXM4-80GB"))
    assert (g["q_name"], g["q_bs"], g["q_tp"], g["q_fp16"], g["q_q"]) == ("bitsandbytes", 1, 8, 17.92, 86.81)
    assert g["q_take"] == "bitsandbytes made decode at batch 1 4.8x slower than fp16."
    none = tp.quantization_glues(_qs([]), 1.0, _gpu())
    assert (none["q_name"], none["q_bs"], none["q_tp"]) == ("none", 0, 0) and np.isnan(none["q_slow_min"])


def test_recommendation_glues_notes(m0):
    g = tp.recommendation_glues(tp.recommendation(m0), [1, 2, 4, 8])
    assert (g["rec_dec_tp"], g["rec_dec_ms"], g["rec_pre_tp"]) == (2, 17.56, 8)
    assert g["rec_dec_note"] == "Beyond TP 2, more GPUs do not help decode at this batch."
    rec = {"decode_token_latency": {"tp": 8, "ms": 5.0, "batch_size": 1}}
    g = tp.recommendation_glues(rec, [1, 2, 4, 8])
    assert g["rec_dec_note"] == "Decode still gained at TP 8, the largest measured: more GPUs may help further."
    assert g["rec_pre_tp"] == 0 and np.isnan(g["rec_thr"])
    assert tp.recommendation_glues({}, [1])["rec_dec_note"] == ""


def test_coverage_sentence_seed0_and_complete(m0):
    assert tp.coverage_sentence(tp.missing_batches(m0)) == (
        "These figures cover only the batch sizes that ran; these did not: at TP 2, batch 16, 32; at TP 4, "
        "batch 16, 32; at TP 8, batch 32. The throughput ranking may change where they would have run."
    )
    assert tp.coverage_sentence(tp.missing_batches(m0.iloc[0:0])) == (
        "Every batch size ran at every TP of the main configuration."
    )


def test_plots_return_labelled_figures(w0, m0):
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    tps = [1, 2, 4, 8]
    rp = tp.roofline_points(m0, 7.07, 2.0, roofline.gpu("A100-SXM4-80GB"))
    figs = [
        tp.plot_speedup(tp.scaling(m0), tps),
        tp.plot_fits(tp.scaling_fits(m0), tps),
        tp.plot_tp_roofline(rp, roofline.gpu("A100-SXM4-80GB")),
        tp.plot_quantization(tp.quantization_slowdown(w0)),
    ]
    for fig in figs:
        assert isinstance(fig, Figure)
        labelled = [ax for ax in fig.axes if ax.get_xlabel() and ax.get_ylabel()]
        assert labelled, "a figure needs an axis with both labels"
        plt.close(fig)
    placeholder = plotting.message_figure("nothing to show")
    assert isinstance(placeholder, Figure) and placeholder.axes[0].texts[0].get_text() == "nothing to show"
    plt.close(placeholder)
