"""The tp_scaling statistics, detectors and figures, and the tgi checks, on synthetic data and on the seeds."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.container import ErrorbarContainer

from benchbook import config, ingest
from benchbook.analysis import tp
from benchbook.checks import AUDIT_COLUMNS, REPRODUCTION_COLUMNS
from benchbook.checks import tgi as checks_tgi
from benchbook.presentation import tables
from benchbook.presentation import tp as view

FIX = config.FIXTURES_DIR / "tgi-benchmark"


@pytest.fixture(scope="module")
def w0():
    return tp.wide(ingest.read(config.seed("000")))


@pytest.fixture(scope="module")
def m0(w0):
    return tp.main_config(w0)


@pytest.fixture(scope="module")
def both(w0):
    w, _ = tp.combine(pd.concat([w0, tp.wide(ingest.read(config.seed("001")))], ignore_index=True))
    return w


def test_checks_use_the_analysis_wide():
    assert checks_tgi.wide is tp.wide and checks_tgi.KEYS is tp.KEYS


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


def test_scaling_seed0(m0):
    s = tp.scaling(m0)
    r = s[(s.metric == "decode_token_latency") & (s.batch_size == 1) & (s.tp == 2)].iloc[0]
    assert r.speedup == pytest.approx(28.75 / 17.56) and r.efficiency == pytest.approx(28.75 / 17.56 / 2)
    # the bars: reference lowest / TP highest .. reference highest / TP lowest (lines 65 and 103)
    assert r.speedup_low == pytest.approx(28.69 / 18.58) and r.speedup_high == pytest.approx(28.82 / 17.23)


def test_rel_se_from_range_and_runs():
    # 10 runs spanning 3.078 ms around 100 ms: sd = 1 ms, se = 1 / sqrt(10) ms
    assert tp.rel_se(100.0, 98.0, 101.078, 10) == pytest.approx(0.01 / np.sqrt(10))
    assert tp.rel_se(100.0, 98.0, 102.0, None) == pytest.approx(0.02)  # no N Runs: half the range
    assert np.isnan(tp.rel_se(np.nan, 1, 2, 10))
    assert tp.noise(0.03, 0.04) == pytest.approx(0.10) and tp.noise(np.nan, 0.05) == pytest.approx(0.10)


def test_best_tp_decode_slower_past_2(m0):
    b = tp.best_tp(m0)
    r = b[b.batch_size == 1].iloc[0]
    assert (r.best_tp, r.best_ms, r.max_tp, r.max_tp_ms, r.slower_past_best) == (2, 17.56, 8, 19.64, True)
    assert 0 < r.noise < 0.1


def test_main_config_keeps_one_table_per_tp(both):
    m = tp.main_config(both)
    assert sorted(m.tp.unique()) == [1, 2, 4, 8] and set(m.sequence_length) == {1024}
    assert m.groupby("tp")["section"].nunique().max() == 1


def test_percentile_inversions_seed0_count_20(w0):
    inv = tp.percentile_inversions(w0)
    assert int((inv.p90 < inv.p50).sum()) == 20
    assert int((inv.p90 < inv["mean"]).sum()) == 18
    assert 106 in set(inv.line) and 225 in set(inv.line)


def test_percentile_counts_seed0(w0):
    assert tp.percentile_counts(w0) == {
        "p90_lt_p50": 20,
        "p90_lt_mean": 18,
        "p90_eq_p99": 93,
        "latency_rows": 93,
        "p90_below_max": 40,
        "prefill_p90_eq_max": 31,
        "prefill_rows": 31,
    }


def _row(t, lat, **kw):
    return {
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
        "n_runs": 10,
        "line": t,
        "note": "",
    } | kw


def test_detectors_on_synthetic():
    w = pd.DataFrame([_row(t, lat) for t, lat in ((1, 30.0), (2, 20.0), (4, 25.0))])
    sl = tp.decode_slower_with_tp(w, tolerance=0.02)
    assert list(sl[["from_tp", "to_tp"]].itertuples(index=False, name=None)) == [(2, 4)]
    assert tp.n_tp_steps(w) == 2
    assert tp.decode_slower_with_tp(w, tolerance=0.3).empty  # +25 % is inside a 30 % tolerance
    inv = tp.percentile_inversions(w)
    assert len(inv) == 3 and (inv.kind == "p90 < p50 and p90 < mean").all()
    pre = w.assign(metric="prefill_latency", tp=1, batch_size=[1, 2, 4], mean=[10.0, 20.0, 80.0])
    j = tp.superlinear_jumps(pre, threshold=1.3)
    assert list(j[["from_bs", "to_bs"]].itertuples(index=False, name=None)) == [(2, 4)]
    assert tp.n_batch_steps(pre) == 2
    bud = tp.batch_token_budget_test(pre.assign(mean=[10.0, np.nan, 80.0]))
    # batch 4: 4 x 18 = 72 tokens <= 100, ran: consistent; batch 2 did not run although 36 <= 100
    assert list(bud.consistent) == [True, False, True]
    assert tp.batch_token_budget_test(pre.assign(max_batch_total_tokens=np.nan)).empty


def test_seed_anomalies(w0, both):
    m = tp.missing_batches(w0)
    assert sorted(zip(m.tp, m.batch_size, strict=False)) == [(2, 16), (2, 32), (4, 16), (4, 32), (8, 32)]
    j = tp.superlinear_jumps(w0)
    assert len(j) == 1 and (j.iloc[0].from_ms, j.iloc[0].to_ms) == (263.44, 857.91)
    q = tp.quantization_slowdown(w0)
    r = q[q.batch_size == 1].iloc[0]
    assert r.slowdown == pytest.approx(86.81 / 17.92) and (r.quantized_low, r.quantized_high) == (85.96, 87.49)
    bud = tp.batch_token_budget_test(both)
    contra = bud[~bud.consistent]
    assert {(1, 32), (2, 16), (4, 16)} <= set(zip(contra.tp, contra.batch_size, strict=False))


def test_combine_drops_seed1_repeat(w0):
    w1 = tp.wide(ingest.read(config.seed("001")))
    both, n = tp.combine(pd.concat([w0, w1], ignore_index=True))
    assert n == len(w1) == 30 and len(both) == len(w0)


def test_roofline_points_known_answer():
    w = pd.DataFrame(
        [
            _row(2, 10.0, sequence_length=0, decode_length=0, line=1),
            _row(1, 1000.0, metric="prefill_latency", sequence_length=1000, decode_length=0, line=2),
        ]
    )
    r = tp.roofline_points(w, params_b=1.0, bytes_per_param=2.0, bandwidth_gb_s=1000.0, peak_tflops=100.0)
    d, p = r.iloc[0], r.iloc[1]
    # 2 GB in 10 ms over 2 GPUs = 100 GB/s per GPU = 10 % of 1000 GB/s
    assert d.achieved_gb_s_per_gpu == pytest.approx(100.0) and d.bandwidth_fraction == pytest.approx(0.1)
    # 2 x 1e9 x 1000 FLOP in 1 s = 2 TFLOP/s = 2 % of 100
    assert p.achieved_tflops == pytest.approx(2.0) and p.compute_fraction == pytest.approx(0.02)
    # with KV: decode at batch 1 reads 1000 x (0 + 0) tokens of KV; a prompt of 1000 tokens adds 1e6 x 1000 B
    kv = tp.roofline_points(w, 1.0, 2.0, 1000.0, 100.0, kv_bytes_per_token=1e6)
    assert kv.iloc[1].bytes_gb == pytest.approx(2.0 + 1.0)
    # a prompt length the input does not state: the prefill cannot be placed, the weights-only decode can
    no_seq = tp.roofline_points(w.assign(sequence_length=np.nan), 1.0, 2.0, 1000.0, 100.0)
    assert list(no_seq.metric) == ["decode_token_latency"]


def test_roofline_extremes_seed0(m0):
    rp = tp.roofline_points(m0, 7.07, 2.0, 2039.0, 312.0, 491520.0)
    ext = tp.roofline_extremes(rp)
    assert (ext["decode_small_tp"]["tp"], ext["decode_large_tp"]["tp"]) == (1, 8)
    assert ext["decode_small_tp"]["latency_ms"] == 28.75 and ext["n_over_peak"] == 0
    assert ext["highest"]["fraction"] == pytest.approx(max(rp.bandwidth_fraction.max(), rp.compute_fraction.max()))
    assert tp.roofline_extremes(rp.iloc[0:0])["highest"] is None


def test_throughput_counts_the_prefill(m0):
    t = tp.throughput(m0)
    r1 = t[(t.tp == 1) & (t.batch_size == 32)].iloc[0]
    # 32 x 8 tokens over 3868.30 + 1707.85 ms (lines 62, 80) on 1 GPU: 45.9 tok/s
    assert r1.e2e_tok_s_per_gpu == pytest.approx(256 / 5.57615) and round(r1.e2e_tok_s_per_gpu, 1) == 45.9
    r2 = t[(t.tp == 2) & (t.batch_size == 8)].iloc[0]
    assert round(r2.e2e_tok_s_per_gpu, 1) == 37.8 and round(r2.decode_tok_s_per_gpu) == 153
    assert r1.e2e_low < r1.e2e_tok_s < r1.e2e_high
    best = tp.best_per_tp(t, "e2e_tok_s_per_gpu")
    assert list(best.tp[:2]) == [1, 2] and list(tp.best_per_tp(t, "decode_tok_s_per_gpu").tp[:1]) == [2]


def test_ranked_latency_seed0(m0):
    r = tp.ranked_latency(m0, "decode_token_latency")
    assert list(r.tp) == [2, 4, 8, 1] and r["mean"].iloc[0] == 17.56 and (r.rel_se > 0).all()


def test_superlinear_efficiency_identity(m0):
    s = tp.superlinear_efficiency(tp.scaling(m0))
    assert (s["tp"], s["batch_size"], s["ref_ms_base"], s["ref_ms_max_batch"]) == (2, 8, 28.75, 243.98)
    # efficiency(bs) / efficiency(bs0) = ref growth / tp growth, exactly
    assert s["efficiency"] / s["base_efficiency"] == pytest.approx(s["ref_growth"] / s["tp_growth"])


def test_prefill_example_seed0(m0):
    g = tp.prefill_example(m0)
    assert (g["seq_s"], g["tp"], g["batch_size"]) == (7.15, 1, 1)
    assert g["tok_s"] == pytest.approx(g["seq_s"] * 1024, rel=0.01)  # sequences/s x prompt length
    assert tp.prefill_example(m0.assign(sequence_length=np.nan)) is None


def test_device_and_model_size():
    d = tp.device_peaks("MI300X")
    assert (d["device"], d["source"]) == ("MI300X", "parameter") and d["bandwidth_gb_s"] > 5000
    a = tp.device_peaks()
    assert (a["device"], a["source"]) == (tp.DEFAULT_GPU, "assumed")
    c = tp.device_peaks("", 1000.0, 100.0)
    assert (c["bandwidth_gb_s"], c["tflops"], c["source"]) == (1000.0, 100.0, "parameter")
    assert tp.model_size("bigscience/bloomz-7b1-mt")["total_b"] == pytest.approx(7.07)
    unknown = tp.model_size("hf-internal-testing/llama-tokenizer")
    assert unknown["total_b"] is None and "no parameter count" in unknown["source"]
    assert tp.model_size("anything", params_b=3.0)["source"] == "the params_b parameter"
    assert tp.kv_bytes_per_token("bigscience/bloomz-7b1-mt") == 491520 and tp.kv_bytes_per_token("x") is None


def test_checks_reproduce_seed0():
    r = checks_tgi.reproduce(config.seed("000"))
    assert list(r.columns) == REPRODUCTION_COLUMNS
    exact = r[r.quantity.str.contains(" max ") | r.quantity.str.contains(" min ")]
    exact = exact[exact.quantity.str.contains("throughput")]
    assert exact.agrees.mean() > 0.98
    tot = r[r.quantity.str.contains("x decode_token")]
    assert tot.agrees.all()


def test_checks_audit_seed0():
    a = checks_tgi.audit(config.seed("000"))
    assert list(a.columns) == AUDIT_COLUMNS
    counts = a.defect.value_counts()
    assert counts["p90 < p50"] == 20 and counts["p90 below Highest"] == 40 and counts["batch size never run"] == 5


# ----------------------------------------------------------------------- descriptions and figures
def _fit(a, b, dof=1):
    return tp.ScalingFit(a, b, 1.0, 0.1, 0.1, 0.1, n_points=dof + 3, dof=dof)


def test_fit_sentence_both_ways(m0):
    best = tp.best_tp(m0)
    pts = pd.DataFrame({"tp": [1, 2, 4, 8]})
    agree = view.fit_sentence(
        [{"metric": "decode_token_latency", "batch_size": 1, "fit": _fit(1.0, 1.0), "points": pts}], best
    )
    # sqrt(1 / 1) = 1: the fitted optimum is TP 1, the measured minimum TP 2
    assert agree.endswith(
        "The measured minimum is at TP 2 (17.56 ms) instead: with 1 degree(s) of freedom the fit "
        "cannot place its minimum between the TPs measured."
    )
    at2 = view.fit_sentence(
        [{"metric": "decode_token_latency", "batch_size": 1, "fit": _fit(4.0, 1.0), "points": pts}], best
    )
    assert at2.endswith("The measured TP nearest to it, TP 2, is also the measured minimum.")
    assert view.fit_sentence([], best).startswith("Fewer than four TPs")


def test_coverage_and_scope_sentences(m0, both):
    assert view.coverage_sentence(tp.missing_batches(m0), m0) == (
        "These figures cover only the batch sizes that ran; these did not: at TP 2, batch 16, 32; at TP 4, "
        "batch 16, 32; at TP 8, batch 32. The throughput ranking may change where they would have run."
    )
    assert view.coverage_sentence(tp.missing_batches(m0.iloc[0:0]), m0) == (
        "Every batch size ran at every TP of the main configuration."
    )
    assert view.coverage_sentence(tp.missing_batches(m0), m0.iloc[0:0]) == ""
    assert view.scope_sentence(both.iloc[0:0], both.iloc[0:0]) == ""
    assert view.one_tp_sentence([]).startswith("This input has no TP table")
    s = view.scope_sentence(both, tp.main_config(both))
    assert "prompt length 1024 tokens and no quantization" in s and "Quantization: bitsandbytes" in s
    assert "Tables repeated" not in s


def test_runs_sentence(w0):
    assert view.runs_sentence(w0) == (
        "In this input, with N Runs = 10, p50 is element 5, p90 element 9 and p99 element 9 (counting from 0)."
    )
    assert view.runs_sentence(w0.assign(n_runs=pd.NA)) == "The input does not state N Runs."


def test_model_sentence_unknown_and_encoder_decoder():
    none = view.model_sentence("x", {"total_b": None, "source": "no parameter count is known for x"}, 0, "")
    assert "not drawn" in none and "params_b" in none
    ed = view.model_sentence("m", {"total_b": 12.9, "source": "s", "architecture": "encoder-decoder"}, 0, "not known")
    assert "lower bounds" in ed and "encoder-decoder" in ed


def _bars(ax):
    """(y, lower, upper) of every error bar drawn on `ax`."""
    out = []
    for c in ax.containers:
        if isinstance(c, ErrorbarContainer):
            line, _, (segs,) = c.lines[0], c.lines[1], c.lines[2]
            ys = line.get_ydata()
            for y, seg in zip(ys, segs.get_segments(), strict=True):
                out.append((float(y), float(seg[0][1]), float(seg[1][1])))
    return out


def test_figures_draw_lowest_highest_bars(w0, m0):
    fig = view.plot_fits(tp.scaling_fits(m0), [1, 2, 4, 8])
    dec = fig.axes[1]
    assert (28.75, 28.69, 28.82) in _bars(dec)  # decode bs 1, TP 1: Average with Lowest and Highest
    plt.close(fig)
    fig = view.plot_quantization(tp.quantization_slowdown(w0))
    assert (86.81, 85.96, 87.49) in _bars(fig.axes[0])
    plt.close(fig)
    fig = view.plot_throughput(tp.throughput(m0))
    left = _bars(fig.axes[0])
    t = tp.throughput(m0)
    r = t[(t.tp == 1) & (t.batch_size == 32)].iloc[0]
    assert any(y == pytest.approx(r.e2e_tok_s_per_gpu) and lo == pytest.approx(r.e2e_low_per_gpu) for y, lo, _ in left)
    plt.close(fig)
    fig = view.plot_speedup(tp.scaling(m0), [1, 2, 4, 8])
    top_right = _bars(fig.axes[1])
    assert any(y == pytest.approx(28.75 / 17.56) and hi == pytest.approx(28.82 / 17.23) for y, _, hi in top_right)
    plt.close(fig)


def test_roofline_figure_and_table(m0):
    rp = tp.roofline_points(m0, 7.07, 2.0, 2039.0, 312.0)
    dev = {"device": "X", "bandwidth_gb_s": 2039.0, "tflops": 312.0, "source": "assumed"}
    fig = view.plot_tp_roofline(rp, dev)
    ax = fig.axes[0]
    assert ax.get_title() == "Per-GPU roofline, X (assumed)"
    ys = np.concatenate([c.get_offsets()[:, 1] for c in ax.collections if len(c.get_offsets())])
    assert sorted(ys) == pytest.approx(sorted(rp.achieved_tflops))
    plt.close(fig)
    table = view.roofline_fraction_table(rp)
    tps = [f"TP {t} (% of peak)" for t in (1, 2, 4, 8)]
    assert list(table.columns) == ["phase", "batch size"] + tps
    row = table[(table["phase"] == "decode: memory bandwidth") & (table["batch size"] == 1)].iloc[0]
    assert row["TP 1 (% of peak)"] == pytest.approx(
        100 * rp[(rp.metric == "decode_token_latency") & (rp.tp == 1) & (rp.batch_size == 1)].bandwidth_fraction.iloc[0]
    )
    # the pairs that never ran say so; every other empty cell says it is not in the table
    reasons = view.fraction_reasons(table, tp.missing_batches(m0))
    empty = table[tps].isna()
    assert {reasons.at[i, c] for c in tps for i in table.index[empty[c]]} <= {"did not run", "not in the table"}
    assert reasons[tps][~empty].isna().all().all()
    at = table.index[(table["phase"] == "decode: memory bandwidth") & (table["batch size"] == 16)][0]
    assert empty.at[at, "TP 2 (% of peak)"] and reasons.at[at, "TP 2 (% of peak)"] == "did not run"
    html = tables.show(table, missing=reasons).to_html()
    assert "did not run" in html and "nan" not in html.lower()
