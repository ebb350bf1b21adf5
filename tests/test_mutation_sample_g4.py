"""Known-answer tests for mutants of the issue-19 random sample (group g4: serving, quant, tracking,
attention, changes, compare, checks, ingest/core) that no other test told apart from the code.
Plain functions without fixtures, so that the mutation re-run can call them in one process."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from benchbook import ingest
from benchbook.analysis import attention, changes, quant, serving
from benchbook.analysis.changes import Change
from benchbook.analysis.peaks import Peaks
from benchbook.checks import agrees
from benchbook.claims import attention as ca
from benchbook.claims import quant as cq
from benchbook.claims import serving as cs
from benchbook.claims import tracking as ct
from benchbook.ingest import core

SERVE = Path(__file__).parent / "fixtures" / "vllm-bench-serve"
#: vllm bench serve, one run: 250 requests, 61.17 output tok/s (its README gives the origin).
SHAREGPT = SERVE / "dgx_spark_08_sharegpt.md"
BURST = SERVE / "dgx_spark_ministral3_J_monday_burst.md"


def test_welch_interval_matches_scipy_welch_ci():
    """Unequal group sizes, so both groups' degrees-of-freedom terms count (Welch-Satterthwaite)."""
    a, b = np.array([1.0, 2.0, 4.0]), np.array([3.0, 5.0, 9.0, 11.0])
    ci = stats.ttest_ind(b, a, equal_var=False).confidence_interval(0.95)
    low, high = changes._welch_interval(a, b)
    assert math.isclose(low, ci.low, rel_tol=1e-9) and math.isclose(high, ci.high, rel_tol=1e-9)


def test_winner_set_keeps_a_scheme_at_p_equal_alpha():
    """Identical runs give p = 1 against the best; at alpha = 1 the rule `p >= alpha` keeps them."""
    rt = pd.DataFrame(
        {
            "regime": ["r"] * 9,
            "scheme": ["a"] * 3 + ["b"] * 3 + ["c"] * 3,
            "batch_size": [1] * 9,
            "latency": [10.0, 12.0, 14.0, 10.0, 12.0, 14.0, 100.0, 101.0, 102.0],
        }
    )
    w = quant.winner_sets(rt, {}, alpha=1.0).set_index("scheme")
    assert w.loc["b", "p_vs_best"] == 1.0
    assert w.loc["a", "in_winner_set"] and w.loc["b", "in_winner_set"]
    assert not w.loc["c", "in_winner_set"]


def test_decode_roofline_hand_computed():
    """1 B active bf16 params (2 GB), 10 in flight, 1000 out tok/s, 2000 total tok/s, on 500 TFLOP/s
    and 1000 GB/s: 100 steps/s, 200 GB/s, 4 TFLOP/s, ridge 500 FLOP/B."""
    lit = pd.DataFrame({"in_flight": [10.0], "output_throughput": [1000.0], "total_token_throughput": [2000.0]})
    d = serving.decode_roofline(lit, 1.0, 2.0, Peaks("X", 1000.0, {"bf16": 500.0})).iloc[0]
    assert d["steps_per_s"] == 100.0 and d["achieved_gb_s"] == 200.0 and d["achieved_tflops"] == 4.0
    assert abs(d["ridge"] - 500.0) < 1e-12
    assert d["bandwidth_fraction"] == 0.2 and d["compute_fraction"] == 0.008


def test_goodput_bounds_per_metric_shares():
    """Median at or under the SLO and p99 over it: each metric's share lies in [0.5, 0.99]; the union
    bound gives max(0, 0.5 + 0.5 - 1) = 0 and the upper bound 0.99 (x 2 req/s = 1.98)."""
    r = pd.DataFrame(
        {
            "request_throughput": [2.0],
            "ttft_median": [100.0],
            "ttft_p99": [300.0],
            "tpot_median": [10.0],
            "tpot_p99": [50.0],
        }
    )
    g = serving.goodput_bounds(r, 200.0, 20.0).iloc[0]
    assert (g["ttft_share_lo"], g["ttft_share_hi"]) == (0.5, 0.99)
    assert (g["tpot_share_lo"], g["tpot_share_hi"]) == (0.5, 0.99)
    assert (g["share_lo"], g["share_hi"]) == (0.0, 0.99)
    assert math.isclose(g["goodput_hi"], 1.98)


def test_littles_law_estimated_without_e2el():
    """No E2EL printed: E2EL = 100 ms + 10 ms x (11 - 1) = 0.2 s, L = 2 req/s x 0.2 s = 0.4, estimated."""
    r = pd.DataFrame(
        {
            "request_throughput": [2.0],
            "total_generated_tokens": [1100.0],
            "completed": [100.0],
            "ttft_mean": [100.0],
            "tpot_mean": [10.0],
            "max_concurrency": [8.0],
            "num_prompts": [100.0],
        }
    )
    out = serving.littles_law(r)
    assert out["estimated"].tolist() == [True]
    assert math.isclose(out["in_flight"].iat[0], 0.4) and math.isclose(out["utilisation"].iat[0], 0.05)


def test_serving_load_reads_a_real_run():
    r, req = serving.load([SHAREGPT])
    assert len(r) == 1 and r["output_throughput"].iat[0] == 61.17 and r["completed"].iat[0] == 250
    assert len(req) == 0


def test_agrees_refuses_an_infinite_published_value():
    assert agrees(1.004, 1.0, 2)
    assert not agrees(math.inf, 1.0, 2)
    assert not agrees(1.0, math.inf, 2)
    assert not agrees(math.inf, math.inf, 2)


def test_sdpa_vs_fa2_evidence_ranges():
    k = pd.DataFrame(
        {
            "operation": ["sdpa_mask", "sdpa_mask", "causal_fa2", "causal_fa2", "sdpa_mask"],
            "pass": ["fw", "fw", "fw", "fw", "bw"],
            "mask": ["m1", "m2", "causal_mask", "other", "m1"],
            "work_tflops": [10.0, 20.0, 100.0, 120.0, 999.0],
            "density": [0.5, 1.0, 1.0, 1.0, 0.5],
        }
    )
    ev = ca.sdpa_vs_fa2(k, (0.05, 3)).evidence
    assert (ev["a"], ev["b"], ev["a_low"], ev["a_high"]) == (15.0, 110.0, 10.0, 20.0)
    assert (ev["b_low"], ev["b_high"], ev["n_masks"], ev["n_sparse"]) == (100.0, 120.0, 2, 1)


def test_decode_trend_without_peaks_or_scheme():
    empty = pd.DataFrame(columns=["batch_size", "ratio", "intensity", "intensity_baseline"])
    ev = cq.decode_trend(empty, None, "bf16", None).evidence
    assert (ev["ridge"], ev["device"], ev["peak_source"]) == (None, None, None)
    ev = cq.decode_trend(empty, None, "bf16", quant.Peaks("H100", 1000.0, None, 2000.0, "parameter")).evidence
    assert (ev["ridge"], ev["device"], ev["peak_source"]) == (500.0, "H100", "parameter")


def test_long_prefill_slower_only_below_one():
    """a = baseline time / scheme time: 1.5 means the scheme is faster, 0.8 slower."""

    def ratios(prefill):
        return pd.DataFrame(
            {
                "regime": ["r"] * 3,
                "phase": ["prefill", "decode", "total"],
                "ratio": [prefill, 0.9, 1.2],
                "batch_size": [1] * 3,
                "tokens_per_pass": [4096] * 3,
                "ci_low": [prefill - 0.1, 0.8, 1.1],
                "ci_high": [prefill + 0.1, 1.0, 1.3],
                "intensity": [100.0] * 3,
            }
        )

    ev = cq.long_prefill(ratios(1.5), "w8a16", "bf16").evidence
    assert ev["slower"] is False and ev["a"] == 1.5 and ev["decode_ratio"] == 0.9 and ev["total_ratio"] == 1.2
    assert cq.long_prefill(ratios(0.8), "w8a16", "bf16").evidence["slower"] is True


def test_source_first_place_counts_regimes():
    c = cq.source_first_place(["r2"], pd.DataFrame({"regime": ["r1", "r2", "r2"]}))
    assert c.id == "source_first_place" and c.kind == "anomaly"
    assert (c.evidence["count"], c.evidence["n"], c.evidence["regimes"]) == (1, 2, ["r2"])


def test_winner_metric_from_the_best_row():
    win = pd.DataFrame(
        {
            "regime": ["r", "r"],
            "scheme": ["b", "a"],
            "rank": [2, 1],
            "metric": ["latency", "latency"],
            "p_vs_best": [0.5, 1.0],
            "mean": [11.0, 10.0],
            "ratio_to_best": [10 / 11, 1.0],
            "n": [3, 3],
        }
    )
    ev = cq.winner(win, "r", 0.05).evidence
    assert (ev["best"], ev["metric"], ev["lower_is_better"]) == ("a", "latency", True)
    ev = cq.winner(win, "absent", 0.05).evidence
    assert (ev["best"], ev["metric"], ev["candidates"]) == (None, None, [])


H100 = Peaks("H100", 3350.0, {"bf16": 989.0}, source="parameter")


def test_bound_prefill_share():
    """300 of 1000 tok/s are output tokens: the other 70 % are prompt tokens."""
    row = pd.Series({"run": "r1", "output_throughput": 300.0, "total_token_throughput": 1000.0})
    ev = cs.bound("best", row, H100, 0.5, False).evidence
    assert math.isclose(ev["prefill_share"], 0.7) and ev["run"] == "r1"
    assert (ev["device"], ev["peak_source"]) == ("H100", "parameter")


def test_compute_evidence_from_the_row_and_peaks():
    row = pd.Series(
        {"run": "r1", "compute_fraction": 0.25, "peak_tflops": 400.0, "achieved_tflops": 100.0, "precision": "bf16"}
    )
    ev = cs.compute(row, H100).evidence
    assert (ev["fraction"], ev["peak"], ev["achieved"], ev["run"]) == (0.25, 400.0, 100.0, "r1")
    assert (ev["device"], ev["peak_source"]) == ("H100", "parameter")


def test_goodput_noise_from_two_repeated_loads():
    """Load A: 10 and 12 req/s (mean 11, sd sqrt 2); load B: 5 and 7 (mean 6, sd sqrt 2); noise =
    sqrt(2 + 2) / 6 = 1/3."""
    gb = pd.DataFrame(
        {
            "run": ["A", "A", "B", "B"],
            "model": ["m"] * 4,
            "max_concurrency": [8.0, 8.0, 16.0, 16.0],
            "request_rate": [math.inf] * 4,
            "goodput_lo": [10.0, 12.0, 5.0, 7.0],
            "share_lo": [0.5] * 4,
            "request_throughput": [20.0] * 4,
        }
    )
    ev = cs.goodput(gb).evidence
    assert (ev["choice"], ev["value"], ev["runner_up"], ev["runner_up_value"], ev["repeats"]) == (
        "A",
        11.0,
        "B",
        6.0,
        2,
    )
    assert math.isclose(ev["noise"], 1 / 3) and math.isclose(ev["value_sd"], math.sqrt(2))


TRACK_RUNS = pd.DataFrame({"label": ["r0", "r1", "r2", "r3"], "unit": ["tok/s"] * 4})


def test_tracking_change_evidence():
    """100 -> 150 before run 2, size 50 in [40, 70]: half-width max(20, 10) = 20, noise 20 / 100."""
    c = Change(index=2, before=100.0, after=150.0, size=50.0, low=40.0, high=70.0, p_value=0.01)
    ev = ct.change(TRACK_RUNS, c, 1, 0.05, "output_throughput").evidence
    assert (ev["ratio"], ev["noise"], ev["run"], ev["previous_run"], ev["unit"]) == (1.5, 0.2, "r2", "r1", "tok/s")


def test_tracking_any_change_and_build():
    ev = ct.any_change(6, 1, 0.05, 0.01).evidence
    assert (ev["count"], ev["n"], ev["alpha"], ev["smallest_p"]) == (1, 6, 0.05, 0.01)
    steps = pd.DataFrame(
        [{"value": 110.0, "previous_value": 100.0, "ratio": 1.1, "noise": 0.01, "run": "r1", "previous": "r0"}]
    ).assign(position=1)
    out = ct.build(TRACK_RUNS, [], steps, 0.05, "output_throughput", 0.5)
    assert [c.id for c in out] == ["changes", "step_1"]


def test_validated_builds_a_missing_schema():
    """A tool whose schema is not cached yet (the first file of a process) still validates."""
    core._SCHEMAS.pop("vllm-bench-serve", None)
    df = ingest.read(SHAREGPT, tool="vllm-bench-serve")
    v = df[(df["metric"] == "output_throughput") & (df["statistic"] == "value")]["value"]
    assert v.tolist() == [61.17]


def test_settle_keeps_the_valid_file_when_another_is_refused():
    """A batch the schema refuses is validated file by file: only the bad file becomes a ParseError."""
    with core.deferred_checks():
        good = ingest.read_parsed(SHAREGPT, tool="vllm-bench-serve")[0]
        bad = ingest.read_parsed(BURST, tool="vllm-bench-serve")[0]
    bad.table["statistic"] = "no such statistic"
    out = core.settle([good, bad])
    assert isinstance(out[0], core.Parsed) and isinstance(out[1], core.ParseError)
    assert BURST.name in str(out[1])
    t = out[0].table
    assert t[(t["metric"] == "output_throughput") & (t["statistic"] == "value")]["value"].tolist() == [61.17]


def test_screen_object_values():
    """A value column of Python objects (a table built by hand, not by `tidy`) is screened as numbers."""
    table = pd.DataFrame(
        {
            "tool": ["t", "t"],
            "source": ["f", "f"],
            "line": [1, 2],
            "metric": ["ttft", "tpot"],
            "statistic": ["mean", "mean"],
            "value": pd.Series([5.0, -1.0], dtype=object),
            "unit": ["ms", "ms"],
            "note": [None, None],
        }
    )
    kept, rejected, _ = core.screen(table)
    assert kept["metric"].tolist() == ["ttft"]
    assert rejected["line"].tolist() == [2] and rejected["reason"].tolist() == [f"{core.OUT_OF_RANGE}: negative ms"]


def test_dense_rows_and_sparsest_split_by_density():
    sp = pd.DataFrame(
        {
            "pass": ["fw", "fw", "fw", "bw"],
            "mask": ["full", "sliding", "causal", "full"],
            "density": [1.0, 0.25, 0.5, 1.0],
            "flex_vs_sdpa": [1.1, 3.0, 1.8, 1.0],
            "order": [0, 1, 2, 0],
        }
    )
    assert attention.dense_rows(sp)["mask"].tolist() == ["full"]
    assert attention.sparsest(sp, "fw")["mask"] == "sliding"
    assert ca.flex_sparsest(sp, (0.05, 3)).evidence["mask"] == "sliding"
