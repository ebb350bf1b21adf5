"""The tp_scaling statistics, detectors and figures, and the tgi checks, on synthetic data and on the seeds."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.container import ErrorbarContainer

from benchbook import config, ingest
from benchbook.analysis import tp
from benchbook.analysis import tp as atp
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
    assert (sl["from_ms"].iat[0], sl["to_ms"].iat[0], sl["slowdown"].iat[0]) == (20.0, 25.0, 0.25)
    assert tp.n_tp_steps(w) == 2
    assert tp.decode_slower_with_tp(w, tolerance=0.3).empty  # +25 % is inside a 30 % tolerance
    inv = tp.percentile_inversions(w)
    assert len(inv) == 3 and (inv.kind == "p90 < p50 and p90 < mean").all()
    pre = w.assign(metric="prefill_latency", tp=1, batch_size=[1, 2, 4], mean=[10.0, 20.0, 80.0])
    j = tp.superlinear_jumps(pre, threshold=1.3)
    assert list(j[["from_bs", "to_bs"]].itertuples(index=False, name=None)) == [(2, 4)]
    assert j["metric"].tolist() == ["prefill_latency"]
    # a batch with no runs, printed as a blank row a merge filled with NaN, or as NaN itself
    gaps = pre.assign(
        mean=[10.0, np.nan, np.nan],
        note=["", "blank row after a NaN row: tabled merged the NaN above; no runs recorded", ""],
    )
    m = tp.missing_batches(gaps)
    assert m[["batch_size", "ran", "how_printed"]].values.tolist() == [[2, "1", "blank (merged NaN)"], [4, "1", "NaN"]]
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
    assert (r.quantize, r.tp, r.sequence_length) == ("bitsandbytes", 8, 100)  # the "## Sequence Length 100" section
    assert r.slowdown == pytest.approx(86.81 / 17.92) and (r.quantized_low, r.quantized_high) == (85.96, 87.49)
    bud = tp.batch_token_budget_test(both)
    contra = bud[~bud.consistent]
    assert {(1, 32), (2, 16), (4, 16)} <= set(zip(contra.tp, contra.batch_size, strict=False))


def test_combine_drops_seed1_repeat(w0):
    w1 = tp.wide(ingest.read(config.seed("001")))
    both, n = tp.combine(pd.concat([w0, w1], ignore_index=True))
    assert n == len(w1) == 30 and len(both) == len(w0)


def test_a_table_without_a_parameters_row_is_one_configuration_with_empty_parameters():
    raw = ingest.read(config.seed("001"))
    w = tp.wide(raw.assign(parameters=pd.Series(None, index=raw.index, dtype=object)))
    assert len(w) == 30 and (w["parameters"] == "").all()
    assert tp.wide(raw)["parameters"].str.startswith("temperature=None").all()


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
    # the latency's standard error from its range over N Runs: (max - min) / mean / d2(10) / sqrt(10)
    assert r["rel_se"].tolist() == [tp.rel_se(10.0, 10.0, 11.0, 10), tp.rel_se(1000.0, 1000.0, 1001.0, 10)]
    assert r["rel_se"].iat[0] < tp.rel_se(10.0, 10.0, 11.0, None) == 0.05  # without N Runs: half the range
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
    assert (a["device"], a["source"]) == (None, None) and np.isnan(a["bandwidth_gb_s"])  # none assumed
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
        "The measured minimum is at TP 2 (17.56 ms) instead: with 1 degree of freedom the fit "
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


def test_n_runs_no_row_carries_is_taken_from_the_file_or_its_line_named(w0, tmp_path):
    """The absence rule (`tp.runs_said`): a number of runs the rest of the file states is used with its
    line; a line that speaks of runs without one is named; only a file with neither lacks N Runs."""
    unset = w0.assign(n_runs=pd.NA)

    def said(text):
        path = tmp_path / "x.md"
        path.write_text(text, encoding="utf-8")
        return tp.runs_said([path])

    stated = view.runs_sentence(unset, said("Setup\nn_runs: 4\n"))
    assert stated.startswith("In this input (line 2: `n_runs: 4`), with N Runs = 4, p50 is element 2")
    unread = view.runs_sentence(unset, said("text-generation-benchmark -t x --runs $RUNS\n"))
    assert unread == "Line 1 speaks of N Runs (`text-generation-benchmark -t x --runs $RUNS`) without a number " + (
        "this page can read."
    )
    assert view.runs_sentence(unset, said("A100, TP 2\n")) == "The input does not state N Runs."
    # the rows' own N Runs win over the file's other lines, which are then not cited
    assert "(line" not in view.runs_sentence(w0, said("n_runs: 4\n"))


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
    dev = {"device": "X", "bandwidth_gb_s": 2039.0, "tflops": 312.0, "source": "parameter"}
    fig = view.plot_tp_roofline(rp, dev)
    ax = fig.axes[0]
    assert ax.get_title() == "Per-GPU roofline, X (parameter)"
    ys = np.concatenate([c.get_offsets()[:, 1] for c in ax.collections if len(c.get_offsets())])
    assert sorted(ys) == pytest.approx(sorted(rp.achieved_tflops))
    plt.close(fig)
    # no device named: the same points, no roof, only the lowest ridge of any device; the caption says so
    none = tp.device_peaks("", texts=["x"])
    fig = view.plot_tp_roofline(tp.roofline_points(m0, 7.07, 2.0, none["bandwidth_gb_s"], none["tflops"]), none)
    ax = fig.axes[0]
    ys = np.concatenate([c.get_offsets()[:, 1] for c in ax.collections if len(c.get_offsets())])
    assert sorted(ys) == pytest.approx(sorted(rp.achieved_tflops))
    assert [ln.get_label()[:29] for ln in ax.get_lines()] == ["lowest ridge of any device (1"]
    # a chart without roofs is not titled a roofline
    assert ax.get_title() == "Achieved FLOP/s per GPU against intensity" and "roofline" not in ax.get_title()
    # the legend reads in rows, a TP per column (matplotlib fills it column by column): the ridge,
    # then decode, then prefill; it read "decode TP 4" beside the ridge, "prefill TP 1" under "decode TP 8"
    leg = ax.get_legend()
    texts = [t.get_text() for t in leg.get_texts()]
    assert leg._ncols == 4 and [texts[i] for i in range(1, 12, 3)] == [f"decode TP {t}" for t in (1, 2, 4, 8)]
    assert [texts[i] for i in range(2, 12, 3)] == [f"prefill TP {t}" for t in (1, 2, 4, 8)]
    assert texts[0].startswith("lowest ridge") and texts[3:12:3] == ["", "", ""]
    assert "no roof is drawn" in view.caption("roofline", True, none)
    assert view.caption("roofline", True, dev).startswith("Each measurement placed under the device's roofline")
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


def _tgi_wide(seq: int = 512) -> pd.DataFrame:
    """Two batch sizes at TP 1: prefill of 4 x 512 tokens in 100 ms, of 8 x 512 in 160 ms."""
    base = {"tp": 1, "sequence_length": seq, "decode_length": 64, "quantize": "none", "model": "m", "source": "s"}
    rows = [
        {**base, "metric": "prefill_latency", "batch_size": 4, "mean": 100.0, "line": 10},
        {**base, "metric": "prefill_throughput", "batch_size": 4, "mean": 40.0, "line": 11},
        {**base, "metric": "prefill_latency", "batch_size": 8, "mean": 160.0, "line": 12},
        {**base, "metric": "decode_token_latency", "batch_size": 4, "mean": 20.0, "line": 13},
    ]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("seq", [512, 1024])
def test_prefill_example_multiplies_by_the_sequence_length(seq):
    g = tp.prefill_example(_tgi_wide(seq))
    assert g["batch_size"] == 4 and g["sequence_length"] == seq and g["seq_s"] == pytest.approx(40.0)
    assert g["tok_s"] == pytest.approx(4 * seq / 0.100)  # 20,480 or 40,960 prompt tokens/s, not 40


def test_roofline_prefill_work_scales_with_the_sequence_length():
    """Prefill of 4 x 512 tokens on a 7B model: 2 x 7e9 x 4 x 512 FLOPs; decode: 2 x 7e9 x 4."""
    pts = tp.roofline_points(
        _tgi_wide(512), params_b=7.0, bytes_per_param=2.0, bandwidth_gb_s=2000.0, peak_tflops=300.0
    )
    pre = pts[pts["metric"] == "prefill_latency"].set_index("batch_size")
    assert pre.loc[4, "tflop"] == pytest.approx(2 * 7e9 * 4 * 512 / 1e12)
    assert pre.loc[4, "achieved_tflops"] == pytest.approx(2 * 7e9 * 4 * 512 / 0.100 / 1e12)
    assert pre.loc[8, "achieved_tflops"] == pytest.approx(2 * 7e9 * 8 * 512 / 0.160 / 1e12)
    dec = pts[pts["metric"] == "decode_token_latency"].iloc[0]
    assert dec["tflop"] == pytest.approx(2 * 7e9 * 4 / 1e12)


def _pct_row(line: int, mean: float, p50: float, p90: float, metric: str = "decode_token_latency") -> dict:
    base = {"source": "s", "tp": 2, "section": "", "batch_size": 1, "p99": 99.0, "max": 100.0}
    return {**base, "line": line, "metric": metric, "mean": mean, "p50": p50, "p90": p90}


def test_percentile_inversions_name_each_kind_and_keep_ties_out():
    w = pd.DataFrame(
        [
            _pct_row(1, 10.0, 12.0, 11.0),  # below p50 only
            _pct_row(2, 12.0, 10.0, 11.0),  # below the mean only
            _pct_row(3, 12.0, 12.0, 11.0),  # below both
            _pct_row(4, 10.0, 11.0, 11.0),  # equal to p50: no inversion
            _pct_row(5, 11.0, 10.0, 11.0),  # equal to the mean: no inversion
            _pct_row(6, 12.0, 12.0, 11.0, metric="decode_throughput"),  # not a latency
        ]
    )
    inv = tp.percentile_inversions(w)
    assert inv["line"].tolist() == [1, 2, 3]
    assert inv["kind"].tolist() == ["p90 < p50", "p90 < mean", "p90 < p50 and p90 < mean"]
    counts = tp.percentile_counts(w)
    assert (counts["p90_lt_p50"], counts["p90_lt_mean"], counts["latency_rows"]) == (2, 2, 5)


def test_prefill_example_needs_a_printed_throughput():
    w = _tgi_wide()
    assert tp.prefill_example(w[w["metric"] != "prefill_throughput"]) is None
    w.loc[w["metric"] == "prefill_throughput", "mean"] = np.nan
    assert tp.prefill_example(w) is None


def test_nearest_measured_is_the_largest_tp_without_a_per_gpu_cost():
    flat = tp.ScalingFit(a=40.0, b=0.0, c=6.0, a_err=0, b_err=0, c_err=0, n_points=4, dof=1)
    assert flat.tp_optimum == math.inf and flat.nearest_measured([8, 1, 4, 2]) == 8
    fit = tp.ScalingFit(a=40.0, b=2.5, c=6.0, a_err=0, b_err=0, c_err=0, n_points=4, dof=1)
    assert fit.tp_optimum == pytest.approx(4.0) and fit.nearest_measured([8, 1, 2, 4]) == 4


def test_device_peaks_from_the_input_text_and_a_cpu_without_fp16():
    h = tp.device_peaks(texts=["", "NVIDIA H100 80GB HBM3"])
    assert (h["device"], h["source"], h["tflops"], h["bandwidth_gb_s"]) == ("H100-SXM5-80GB", "detected", 989.4, 3350.0)
    a = tp.device_peaks(texts=[""])
    assert (a["device"], a["source"]) == (None, None) and math.isnan(a["tflops"])  # nothing named: none assumed
    cpu = tp.device_peaks(gpu="EPYC-7763")
    assert cpu["device"] == "EPYC-7763" and math.isnan(cpu["tflops"])


def test_combine_drops_only_a_repeated_measurement_and_keeps_the_columns():
    w = _tgi_wide()
    again = w.iloc[[0, 1]].assign(source="t", line=[50, 51])  # the same means printed in a second file
    other = w.iloc[[3]].assign(source="t", line=52, mean=21.0)  # a new measurement
    out, dropped = tp.combine(pd.concat([w, again, other], ignore_index=True))
    assert dropped == 2 and list(out.columns) == list(w.columns)
    assert out["line"].tolist() == [10, 11, 12, 13, 52] and out.index.tolist() == [0, 1, 2, 3, 4]


def _budget_rows() -> pd.DataFrame:
    """Prefill rows: TP 2 section a ran batch 1 and 2, failed at 4; section b ran 1 to 8; TP 4 ran 1 to 4,
    failed at 8; an unstated TP ran 1, failed at 2. Decode rows of TP 2 section a ran up to 16."""
    rows = []
    for tp_, sec, ran, failed in ((2, "a", (1, 2), (4,)), (2, "b", (1, 2, 4, 8), ()), (4, "a", (1, 2, 4), (8,))):
        rows += [{"tp": tp_, "section": sec, "batch_size": b, "mean": 10.0 * b} for b in ran]
        rows += [{"tp": tp_, "section": sec, "batch_size": b, "mean": np.nan} for b in failed]
    rows += [{"tp": np.nan, "section": "c", "batch_size": 1, "mean": 5.0}]
    rows += [{"tp": np.nan, "section": "c", "batch_size": 2, "mean": np.nan}]
    w = pd.DataFrame(rows).assign(metric="prefill_latency")
    dec = pd.DataFrame({"tp": 2, "section": "a", "batch_size": [1, 16], "mean": 1.0, "metric": "decode_token_latency"})
    return pd.concat([w, dec], ignore_index=True)


def test_ran_last_before_failure_both_ways():
    w = _budget_rows()
    assert tp.ran_last_before_failure(w, 2, "a", 2)
    assert tp.ran_last_before_failure(w, 4, "a", 4)
    assert tp.ran_last_before_failure(w, np.nan, "c", 1)
    assert not tp.ran_last_before_failure(w, 2, "a", 1)  # not the largest that ran
    assert not tp.ran_last_before_failure(w, 2, "b", 8)  # nothing larger failed
    assert not tp.ran_last_before_failure(w, 2, "a", 16, metric="prefill_latency")
    assert tp.ran_last_before_failure(w, 2, "a", 16, metric="decode_token_latency") is False


def test_percentile_inversion_ties_on_the_other_side_name_one_kind():
    w = pd.DataFrame([_pct_row(7, 12.0, 11.0, 11.0), _pct_row(8, 11.0, 12.0, 11.0)])
    assert tp.percentile_inversions(w)["kind"].tolist() == ["p90 < mean", "p90 < p50"]


def test_fit_scaling_keeps_parameters_non_negative_and_reads_missing_values():
    tps = np.array([1, 2, 4, 8, 16])
    f = tp.fit_scaling(tps, 40.0 / tps + 1.5 * (tps - 1))  # no fixed overhead: c = 0, not 1
    assert (f.a, f.b) == pytest.approx((40.0, 1.5), rel=1e-4) and abs(f.c) < 0.01
    assert (f.n_points, f.dof) == (5, 2) and max(f.a_err, f.b_err, f.c_err) < 1e-3
    g = tp.fit_scaling(tps, 3.0 * (tps - 1) + 6.0)  # nothing splits across GPUs: a = 0, not 1
    assert abs(g.a) < 0.01 and (g.b, g.c) == pytest.approx((3.0, 6.0), rel=1e-3)
    h = tp.fit_scaling(tps, 40.0 / tps + 6.0 - 0.5 * (tps - 1))  # a negative per-GPU cost is held at 0
    assert 0 <= h.b < 1e-9
    t = pd.Series([1, 2, 4, 8, 16, pd.NA], dtype="Int64")  # the wide table's TP column, one missing
    y = pd.Series([46.0, 27.5, 20.5, 21.5, 31.0, 1.0], dtype="Float64")
    m = tp.fit_scaling(t, y)
    assert m.n_points == 5 and (m.a, m.b, m.c) == pytest.approx((40.0, 1.5, 6.0), rel=1e-4)
    y[0] = pd.NA
    assert tp.fit_scaling(t, y).n_points == 4


def test_scaling_fits_use_one_phase_each():
    tps = [1, 2, 4, 8]
    rows = [
        {"metric": "decode_token_latency", "batch_size": 1, "tp": t, "mean": 40.0 / t + 1.5 * (t - 1) + 6} for t in tps
    ]
    rows += [{"metric": "prefill_latency", "batch_size": 1, "tp": t, "mean": 400.0 / t + 10.0} for t in tps]
    rows += [{"metric": "decode_throughput", "batch_size": 1, "tp": t, "mean": 1.0} for t in tps]
    fits = {f["metric"]: f["fit"] for f in tp.scaling_fits(pd.DataFrame(rows))}
    assert sorted(fits) == ["decode_token_latency", "prefill_latency"]
    assert fits["decode_token_latency"].a == pytest.approx(40.0, rel=1e-4) and fits["prefill_latency"].n_points == 4


def test_roofline_points_kv_traffic_and_an_unstated_tp():
    w = _tgi_wide(512)
    w.loc[3, "tp"] = np.nan  # the decode row: TP not stated, counted as tp_unknown
    pts = tp.roofline_points(
        w, params_b=7.0, bytes_per_param=2.0, bandwidth_gb_s=2000.0, peak_tflops=300.0, kv_bytes_per_token=1000.0
    )
    dec = pts[pts["metric"] == "decode_token_latency"].iloc[0]
    # weights 14e9 bytes + 4 sequences x (512 + 64 / 2) tokens x 1000 bytes, on one GPU
    assert dec["tp"] == 1 and dec["bytes_gb"] == pytest.approx((14e9 + 4 * 544 * 1000) / 1e9, rel=1e-12)
    pre = pts[pts["metric"] == "prefill_latency"].set_index("batch_size")
    assert pre.loc[4, "bytes_gb"] == pytest.approx((14e9 + 4 * 512 * 1000) / 1e9, rel=1e-12)
    assert pre.loc[4, "tflop"] == pytest.approx(2 * 7e9 * 4 * 512 / 1e12, rel=1e-12)
    plain = tp.roofline_points(_tgi_wide(512), 7.0, 2.0, 2000.0, 300.0).set_index(["metric", "batch_size"])
    p4 = plain.loc[("prefill_latency", 4)]  # no KV traffic counted: the weights alone
    assert p4["sequence_length"] == 512 and bool(pre.loc[4, "tp_stated"]) and not dec["tp_stated"]
    assert list(tp.roofline_points(_tgi_wide(512), 7.0, 2.0, 2000.0, 300.0).columns) == [
        "metric",
        "tp",
        "tp_stated",
        "batch_size",
        "sequence_length",
        "quantize",
        "latency_ms",
        "rel_se",
        "line",
        "bytes_gb",
        "bytes_per_gpu",
        "tflop",
        "achieved_gb_s_per_gpu",
        "achieved_tflops",
        "intensity_flop_per_byte",
        "kv_bytes_per_token",
        "bandwidth_fraction",
        "compute_fraction",
    ]
    assert (p4["quantize"], p4["latency_ms"], p4["line"], p4["kv_bytes_per_token"]) == ("none", 100.0, 10, 0.0)
    assert p4["bytes_per_gpu"] == pytest.approx(14e9, rel=1e-14)
    assert p4["intensity_flop_per_byte"] == pytest.approx(2 * 7e9 * 4 * 512 / 14e9, rel=1e-14)
    assert p4["bandwidth_fraction"] == pytest.approx(140.0 / 2000.0, rel=1e-14)
    assert p4["compute_fraction"] == pytest.approx(2 * 7e9 * 4 * 512 / 0.1 / 1e12 / 300.0, rel=1e-14)
    stated = tp.roofline_points(_tgi_wide(512).assign(tp_stated=True), 7.0, 2.0, 2000.0, 300.0)
    assert stated["tp_stated"].tolist() == [True] * 3
    assert p4["bytes_gb"] == pytest.approx(14.0, rel=1e-14)
    assert p4["achieved_gb_s_per_gpu"] == pytest.approx(14e9 / 0.1 / 1e9, rel=1e-14)
    assert p4["achieved_tflops"] == pytest.approx(2 * 7e9 * 4 * 512 / 0.1 / 1e12, rel=1e-14)
    w.loc[3, "decode_length"] = np.nan  # no decode length: the context is the prompt alone
    d2 = tp.roofline_points(w, 7.0, 2.0, 2000.0, 300.0, kv_bytes_per_token=1000.0, tp_unknown=2)
    d2 = d2[d2["metric"] == "decode_token_latency"].iloc[0]
    assert d2["bytes_per_gpu"] == pytest.approx((14e9 + 4 * 512 * 1000) / 2, rel=1e-12)
    assert d2["tp"] == 2 and d2["bytes_gb"] == pytest.approx((14e9 + 4 * 512 * 1000) / 1e9, rel=1e-12)


def test_model_size_from_the_parameter_the_table_or_nothing():
    assert tp.model_size("anything", params_b=0.5) == {
        "total_b": 0.5,
        "active_b": 0.5,
        "architecture": None,
        "source": "the params_b parameter",
    }
    assert tp.model_size("no-such-model") == {
        "total_b": None,
        "active_b": None,
        "architecture": None,
        "source": "no parameter count is known for no-such-model",
    }
    from benchbook import hardware

    s = hardware.model_size("bigscience/bloomz-7b1")
    assert tp.model_size("bigscience/bloomz-7b1") == {
        "total_b": s.total_b,
        "active_b": s.active_b,
        "architecture": s.architecture,
        "source": s.source,
    }


def test_ranked_latency_fastest_first_at_the_smallest_batch():
    base = {"metric": "decode_token_latency", "min": 9.0, "max": 11.0, "n_runs": 10, "line": 1}
    rows = [{**base, "tp": t, "batch_size": b, "mean": m} for t, b, m in ((1, 1, 10.0), (2, 1, 8.0), (4, 1, 9.0))]
    rows += [{**base, "tp": 8, "batch_size": 2, "mean": 1.0}, {**base, "tp": 8, "batch_size": 1, "mean": np.nan}]
    rows += [{**base, "metric": "prefill_latency", "tp": 8, "batch_size": 1, "mean": 0.5}]
    r = tp.ranked_latency(pd.DataFrame(rows, index=[10, 11, 12, 13, 14, 15]), "decode_token_latency")
    assert r["tp"].tolist() == [2, 4, 1] and r.index.tolist() == [0, 1, 2] and "index" not in r
    assert r["rel_se"].tolist() == pytest.approx([tp.rel_se(m, 9.0, 11.0, 10) for m in (8.0, 9.0, 10.0)])
    empty = tp.ranked_latency(pd.DataFrame(rows), "decode_total_latency")
    assert empty.empty and empty["rel_se"].dtype == float


def test_roofline_extremes_pick_the_prefill_and_one_tp_has_no_large_tp():
    cols = ["metric", "tp", "batch_size", "bandwidth_fraction", "compute_fraction"]
    rp = pd.DataFrame(
        [
            ("decode_token_latency", 2, 1, 0.6, 0.9),
            ("prefill_latency", 2, 1, 0.1, 0.3),
            ("prefill_latency", 2, 4, 0.1, 0.5),
        ],
        columns=cols,
    )
    rp["achieved_tflops"] = rp["compute_fraction"] * 312.0
    ex = tp.roofline_extremes(rp)
    assert ex["prefill_best"]["batch_size"] == 4 and ex["prefill_best"]["compute_fraction"] == 0.5
    assert ex["decode_small_tp"]["tp"] == 2 and ex["decode_large_tp"] is None
    assert ex["highest"]["metric"] == "decode_token_latency" and ex["highest"]["peak_kind"] == "compute"
    assert (ex["highest"]["fraction"], ex["n_over_peak"]) == (0.9, 0)
    # no device: the best prefill is the highest FLOP/s per GPU, and no point has a share of a peak
    none = tp.roofline_extremes(rp.assign(bandwidth_fraction=np.nan, compute_fraction=np.nan))
    assert none["prefill_best"]["batch_size"] == 4 and none["highest"] is None


def test_roofline_extremes_with_two_tps_and_a_point_over_the_peak():
    cols = ["metric", "tp", "batch_size", "bandwidth_fraction", "compute_fraction"]
    rp = pd.DataFrame(
        [("decode_token_latency", 4, 1, 1.2, 0.1), ("decode_token_latency", 2, 1, 0.6, 0.2)], columns=cols
    )
    ex = tp.roofline_extremes(rp)
    assert (ex["decode_small_tp"]["tp"], ex["decode_large_tp"]["tp"], ex["prefill_best"]) == (2, 4, None)
    assert (ex["highest"]["peak_kind"], ex["highest"]["fraction"], ex["n_over_peak"]) == ("bandwidth", 1.2, 1)
    tie = tp.roofline_extremes(
        pd.DataFrame([("prefill_latency", 1, 1, 0.5, 0.5)], columns=cols).assign(achieved_tflops=1.0)
    )
    assert tie["highest"]["peak_kind"] == "bandwidth" and tie["decode_small_tp"] is None  # a tie counts as bandwidth


def test_at_smallest_batch_needs_two_tps():
    rows = [(1, 1), (2, 2), (2, 1), (4, 1), (4, 2), (4, 4)]  # (batch size, TP)
    sc = pd.DataFrame(
        [{"metric": "decode_token_latency", "batch_size": b, "tp": t} for b, t in rows], index=range(5, 11)
    )
    r = tp.at_smallest_batch(sc, "decode_token_latency")
    assert r["batch_size"].tolist() == [2, 2] and r["tp"].tolist() == [1, 2] and list(r.columns) == list(sc.columns)


def _prefill_tp2():
    """TP 2 prefill at batch 1, 2, 4 (10, 20, 80 ms) and batch 8 with no runs, budget 400 tokens.
    Tokens = batch x (100 + 8): 108, 216, 432, 864, so the budget predicts 1 and 2 run, 4 and 8 not;
    batch 4 ran anyway (one counter-example). Growth per batch: 1->2 (20/10)/2 = 1, 2->4 (80/20)/2 = 2."""
    rows = [
        {"metric": "prefill_latency", "tp": 2, "batch_size": b, "mean": m, "line": i + 1}
        for i, (b, m) in enumerate([(1, 10.0), (2, 20.0), (4, 80.0), (8, np.nan)])
    ]
    return _wide(rows, max_batch_total_tokens=400)


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


def test_missing_batch_keeps_its_section():
    miss = atp.missing_batches(_prefill_tp2())
    assert miss[["tp", "section", "batch_size", "line", "ran"]].values.tolist() == [[2, "TP 2", 8, 4, "1, 2, 4"]]


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


def test_best_per_tp_has_a_fresh_index_and_no_index_column():
    tput = pd.DataFrame({"tp": [1, 1, 2, 2], "batch_size": [1, 2, 1, 2], "tok_s": [10.0, 15.0, 30.0, 25.0]})
    best = atp.best_per_tp(tput, "tok_s")
    assert best.columns.tolist() == ["tp", "batch_size", "tok_s"] and best.index.tolist() == [0, 1]
    assert best[["tp", "batch_size"]].values.tolist() == [[2, 1], [1, 2]]


def test_decode_slower_with_tp_counts_both_averages_ranges_in_its_noise():
    """TP 2 at 10 ms (9-11 ms, half the range over the mean: rel se 0.1), TP 4 at 12.5 ms: +25 % against
    a noise of 2 x sqrt(0.1^2 + se_4^2). With TP 4's range 11-14 (se 0.12) the noise is 0.312: inside; with
    no range at TP 4 it is 0.2: a slowdown."""
    rows = [
        {"tp": 2, "batch_size": 1, "mean": 10.0, "min": 9.0, "max": 11.0, "line": 1},
        {"tp": 4, "batch_size": 1, "mean": 12.5, "min": 11.0, "max": 14.0, "line": 2},
    ]
    assert atp.decode_slower_with_tp(_wide(rows, metric="decode_token_latency")).empty
    rows[1] |= {"min": np.nan, "max": np.nan}
    slower = atp.decode_slower_with_tp(_wide(rows, metric="decode_token_latency"))
    assert slower[["from_tp", "to_tp", "line"]].values.tolist() == [[2, 4, 2]]
    assert slower["slowdown"].iloc[0] == pytest.approx(0.25)


_PARAMS = """| Parameter          | Value |
|--------------------|-------|
| Model              | org/m |
| Sequence Length    | 10    |
| Decode Length      | 8     |
| Top N Tokens       | {top} |
| N Runs             | 10    |
| Warmups            | 1     |

| Step           | Batch Size | Average  | Lowest   | Highest  | p50      | p90      | p99      |
|----------------|------------|----------|----------|----------|----------|----------|----------|
| Prefill        | 32         | 90.00 ms | 89.00 ms | 91.00 ms | 90.00 ms | 91.00 ms | 91.00 ms |
| Decode (token) | 32         | {dec} ms | 30.00 ms | 50.00 ms | {dec} ms | 50.00 ms | 50.00 ms |

"""


def _two_tables(second_top: str):
    text = _PARAMS.format(top="None", dec="37.73") + _PARAMS.format(top=second_top, dec="47.29")
    w_all, _ = atp.combine(atp.wide(ingest.tgi.parse(text, "two.md").table))
    w_all["tp"] = w_all["tp"].fillna(1)
    return w_all, atp.main_config(w_all)


def test_a_table_with_other_parameters_is_another_configuration_not_lost():
    """Two tables at one TP that differ only in Top N Tokens: the first is the main configuration, the
    second is named with its setting and its decode latency, not merged away; the same table printed
    twice is one configuration."""
    w_all, w = _two_tables("Some(10)")
    assert len(w_all) == 2 * len(w) and set(w["mean"]) == {90.0, 37.73}
    other = atp.other_parameters(w_all, w)
    assert other == [dict(differs=["top_n_tokens=Some(10)"], tps=[1], batch_size=32, tp=1, mean=47.29, main_mean=37.73)]
    text = view.input_sentence("two.md", 8, "org/m", [1], [10], 0, others=other)
    assert "parameter table differs (top_n_tokens=Some(10))" in text and "47.29 ms per token, against 37.73" in text
    w_all, w = _two_tables("None")
    assert atp.other_parameters(w_all, w) == []
    assert "also holds" not in view.input_sentence("two.md", 8, "org/m", [1], [10], 0, others=[])


def test_tps_a_launcher_lists_without_a_table_are_named():
    """`num_shards: [2,4]` over a TP 2 table alone: TP 4 was set out and is not in the input; with its
    table too, nothing is absent."""
    head = "## Variables\n- num_shards: [2,4]\n\n"
    params, table = _PARAMS.format(top="None", dec="37.73").split("\n\n", 1)
    tp2 = params + "\n\n# Tensor Parallel (TP) - 2 GPUs\n" + table
    tp4 = "# Tensor Parallel (TP) - 4 GPUs\n" + table
    for body, absent in ((tp2, [4]), (tp2 + tp4, [])):
        w_all, _ = atp.combine(atp.wide(ingest.tgi.parse(head + body, "sweep.md").table))
        got = atp.absent_tps(ingest.tgi.listed_tps(head + body), w_all)
        assert got == ([2, 4], absent)
        said = view.input_sentence("sweep.md", 8, "org/m", [2], [10], 0, listed_absent=got)
        assert ("no table for TP 4" in said) == bool(absent)
    assert ingest.tgi.listed_tps("- num_shard: Some(1,2,4,8)\n- num_shard: Some(2)\n") == [1, 2, 4, 8]


def test_a_tokenizer_only_model_row_names_no_model_and_gives_no_size():
    # text-generation-benchmark's Model row prints its --tokenizer-name (benchmark/src/table.rs)
    name = "hf-internal-testing/llama-tokenizer"
    assert tp.tokenizer_name(name) == "tokenizer"
    size = tp.model_size(name)
    assert size["total_b"] is None and "tokenizer" in size["source"]
    assert tp.kv_bytes_per_token(name) is None
    assert tp.model_size(name, 6.74)["total_b"] == 6.74  # the reader's params_b still counts


def test_a_model_id_in_the_model_row_is_taken_as_the_model():
    name = "bigscience/bloomz-7b1-mt"
    assert tp.tokenizer_name(name) is None
    assert tp.model_size(name)["total_b"] == pytest.approx(7.07)
    assert tp.tokenizer_name(None) is None
    assert tp.tokenizer_name("my-org/house-model") == "unknown"


def test_the_input_sentence_says_a_tokenizer_is_not_the_model():
    name = "hf-internal-testing/llama-tokenizer"
    said = view.input_sentence("f.md", 288, name, [1], [10], 0, tokenizer="tokenizer")
    assert "not the model" in said and f"numbers for {name}" not in said
    unknown = view.input_sentence("f.md", 288, "my-org/house-model", [1], [10], 0, tokenizer="unknown")
    assert "tokenizer the benchmark names" in unknown and "numbers for my-org" not in unknown
    model = view.input_sentence("f.md", 62, "bigscience/bloomz-7b1-mt", [1, 2], [1024], 0)
    assert "numbers for bigscience/bloomz-7b1-mt," in model and "tokenizer" not in model


def test_a_table_without_a_section_is_one_configuration_under_the_empty_section():
    df = ingest.read_all([config.seed("000")])[0]
    w = tp.wide(df.assign(section=None))
    assert (w["section"] == "").all() and len(w) == len(tp.wide(df.assign(section="")))


def test_the_end_to_end_rate_s_standard_error_counts_the_prefill_s_runs():
    """10 runs of each phase: prefill 100 ms (90-110), decode 700 ms (650-750); 8 tokens at batch 1 over
    the two phases: 10 tok/s, between 8 / 0.86 and 8 / 0.74 s; its spread over d2(10) = 3.078 and sqrt(10)."""
    rows = [
        {"metric": "prefill_latency", "tp": 1, "batch_size": 1, "mean": 100.0, "min": 90.0, "max": 110.0, "line": 1},
        {"metric": "decode_total_latency", "tp": 1, "batch_size": 1, "mean": 700.0, "min": 650.0, "max": 750.0}
        | {"line": 2},
    ]
    r = tp.throughput(_wide(rows, n_runs=10)).iloc[0]
    spread = (8 / 0.74 - 8 / 0.86) / 10.0
    assert r.e2e_rel_se == pytest.approx(spread / 3.078 / math.sqrt(10))
    # the tool's decode rate leaves the prefill out: 7 tokens after the first over the 700 ms decode
    assert (r.decode_tok_s, r.decode_low, r.decode_high) == pytest.approx((10.0, 7 / 0.75, 7 / 0.65))
