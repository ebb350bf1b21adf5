"""The tp_scaling statistics and detectors, and the tgi checks, on synthetic data and on the seeds."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from benchbook import config, ingest, roofline, tp
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
