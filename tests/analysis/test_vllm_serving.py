"""serving.py statistics on synthetic data with known answers, and on seed 004; checks module."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import serving
from benchbook.analysis.roofline import Peaks
from benchbook.checks import AUDIT_COLUMNS, REPRODUCTION_COLUMNS
from benchbook.checks import vllm_serve as checks
from benchbook.ingest import vllm_serve as v

FIX = config.FIXTURES_DIR / "vllm-bench-serve"


@pytest.fixture(scope="module")
def seed_runs():
    return serving.runs(ingest.read(config.seed("004"), tool="vllm-bench-serve"))


def test_knee_known_answer():
    # elasticities: 1.0, 0.5, 0.1 -> first below 0.25 is the step from 4 to 8
    assert serving.knee([1, 2, 4, 8], [10, 20, 30, 33], 0.25) == 4
    assert serving.knee([1, 2, 4, 8], [10, 20, 30, 33], 0.05) is None  # never saturates
    assert serving.knee([8, 1, 4, 2], [33, 10, 30, 20], 0.6) == 2  # order does not matter
    assert serving.elasticities([1, 2, 4], [10, 20, 30]) == [1.0, 0.5]


def test_knee_seed(seed_runs):
    x = serving.sweep_x(seed_runs, "max_concurrency")
    assert serving.knee(x, seed_runs["output_throughput"], 0.25) == 128
    assert serving.knee(x, seed_runs["output_throughput"], 0.5) == 64


def test_uncapped_run_is_kept_apart_not_a_point_at_1000(seed_runs):
    apart = serving.apart(seed_runs, "max_concurrency")
    assert seed_runs.loc[apart, "run"].tolist() == ["c=max"]
    x = serving.sweep_x(seed_runs, "max_concurrency")
    assert x[apart].isna().all() and sorted(x.dropna()) == [32, 64, 128, 256, 512]
    kn = serving.knees(seed_runs, "max_concurrency", 0.25).iloc[0]
    assert kn["n"] == 5 and kn["n_steps"] == 4 and kn["n_falls"] == 0  # the cold uncapped run is no step
    bend = math.log(2553.30 / 1090.59, 4) - math.log(3451.19 / 2553.30, 4)  # slope 32->128 minus 128->512
    assert kn["top_x"] == 512 and kn["strength"] == pytest.approx(bend)


def test_runs_keep_file_order(seed_runs):
    assert seed_runs.sort_values("order")["run"].tolist()[:2] == ["c=max", "c=32"]


def test_littles_law_known_answer():
    r = pd.DataFrame(
        {
            "request_throughput": [10.0],
            "e2el_mean": [2000.0],
            "ttft_mean": [1.0],
            "tpot_mean": [1.0],
            "completed": [100],
            "total_generated_tokens": [1000],
            "max_concurrency": [40.0],
            "num_prompts": [100.0],
        }
    )
    out = serving.littles_law(r)
    assert out["in_flight"].iloc[0] == pytest.approx(20.0)
    assert out["utilisation"].iloc[0] == pytest.approx(0.5)
    assert not out["estimated"].iloc[0]
    r2 = r.drop(columns="e2el_mean").assign(ttft_mean=100.0, tpot_mean=20.0)  # W = 0.1 + 0.02 * 9 = 0.28 s
    out2 = serving.littles_law(r2)
    assert out2["in_flight"].iloc[0] == pytest.approx(2.8) and out2["estimated"].iloc[0]


def test_littles_law_seed_c512_far_below_nominal(seed_runs):
    out = serving.littles_law(seed_runs).set_index("run")
    assert out.loc["c=512", "in_flight"] < 0.6 * 512
    # the printed 11.86 req/s is the rounding of completed / duration, which Little's law uses
    c32 = out.loc["c=32"]
    assert round(c32["completed"] / c32["duration"], 2) == 11.86
    rate = c32["completed"] / c32["duration"]
    assert out.loc["c=32", "in_flight"] == pytest.approx(rate * (62.26 + 26.26 * (91.928 - 1)) / 1000)


def test_goodput_bounds_known_answer():
    r = pd.DataFrame(
        {
            "request_throughput": [10.0, 10.0, 10.0],
            "ttft_median": [100.0, 100.0, 600.0],
            "ttft_p99": [400.0, 400.0, 900.0],
            "tpot_median": [20.0, 20.0, 20.0],
            "tpot_p99": [30.0, 50.0, 30.0],
        }
    )
    g = serving.goodput_bounds(r, 450, 40)
    # both p99 within SLO: >= 98 % (union bound), <= 100 %
    assert g.loc[0, "goodput_lo"] == pytest.approx(9.8) and g.loc[0, "goodput_hi"] == pytest.approx(10.0)
    # TPOT p99 over SLO, median under: TPOT share in [0.5, 0.99]; joint [0.49, 0.99]
    assert g.loc[1, "share_lo"] == pytest.approx(0.49) and g.loc[1, "share_hi"] == pytest.approx(0.99)
    # TTFT median over SLO: at most half the requests can be good
    assert g.loc[2, "share_lo"] == 0 and g.loc[2, "share_hi"] == pytest.approx(0.5)


def test_goodput_bound_seed_best_is_c128(seed_runs):
    g = serving.goodput_bounds(seed_runs, 450, 40)
    best = g.loc[g["goodput_lo"].idxmax()]
    assert best["run"] == "c=128"
    assert best["goodput_lo"] == pytest.approx(0.98 * 28.09)


def test_exact_goodput_matches_hand_count():
    req = v.requests(FIX / "synthetic_save_detailed.json")
    g = serving.exact_goodput(req, 450, 40)
    # good: request 0 (100 ms, 30 ms) and request 3 (200 ms, one token -> TPOT 0); 2 s run
    assert g["good"].iloc[0] == 2 and g["completed"].iloc[0] == 5
    assert g["goodput"].iloc[0] == pytest.approx(1.0)


def test_exact_goodput_within_percentile_bounds():
    rng = np.random.default_rng(0)
    n = 2000
    ttft = rng.lognormal(np.log(200), 0.5, n)
    tpot = rng.lognormal(np.log(30), 0.3, n)
    req = pd.DataFrame(
        {"source": "s", "run": "r", "success": True, "ttft_ms": ttft, "tpot_ms": tpot, "duration_s": 100.0}
    )
    exact = serving.exact_goodput(req, 450, 40)["goodput"].iloc[0]
    summ = {"request_throughput": n / 100.0}
    for m, a in (("ttft", ttft), ("tpot", tpot)):
        summ[f"{m}_median"] = np.median(a)
        for q in (90, 95, 99):
            summ[f"{m}_p{q}"] = np.percentile(a, q)
    b = serving.goodput_bounds(pd.DataFrame([summ]), 450, 40).iloc[0]
    assert b["goodput_lo"] <= exact <= b["goodput_hi"]


def test_pareto_front():
    mask = serving.pareto_front([10, 20, 15, 5], [100, 50, 40, 200])
    assert mask.tolist() == [True, True, False, True]


def test_runs_dedupes_text_and_json_copy():
    r = serving.runs(ingest.read(FIX / "llmd_readme_inf_run.md"))
    assert len(r) == 1 and r["format"].iloc[0] == "json"


def test_sweep_x_request_rate():
    r = serving.runs(ingest.read(FIX / "llmd_results.jsonl"))
    x = serving.sweep_x(r, "request_rate")
    assert sorted(set(x.dropna())) == [10.0, 30.0] and x.isna().sum() == 3  # the inf runs are kept apart
    assert serving.choose_sweep(r, "max_concurrency") == "request_rate"
    with pytest.raises(ValueError):
        serving.sweep_x(r, "batch")


def test_one_run_is_swept_by_the_variable_that_keeps_it_on_the_curve():
    # neither variable spans or varies: a capped run at an infinite rate is a point of a curve of caps,
    # an uncapped run at a finite rate one of a curve of rates
    capped = pd.DataFrame({"max_concurrency": [8.0], "request_rate": [math.inf]})
    assert serving.choose_sweep(capped, "request_rate") == "max_concurrency"
    assert serving.choose_sweep(capped, "max_concurrency") == "max_concurrency"
    rated = pd.DataFrame({"max_concurrency": [np.nan], "request_rate": [10.0]})
    assert serving.choose_sweep(rated, "max_concurrency") == "request_rate"


def test_separate_json_runs_with_equal_totals_are_not_merged():
    """Four runs of a real rate sweep share their prompts (same token totals): all four stay."""
    r = serving.runs(ingest.read(FIX / "dgx_spark_ministral3_rate_sweep.jsonl"))
    assert r["request_rate"].tolist() == [0.1, 0.2, 0.3, 0.5]


def test_a_run_without_a_printed_rate_takes_the_default():
    """The 2025 log that prints no request rate (vllm-project/recipes GLM-V): no crash, inf assumed."""
    r = serving.runs(ingest.read(FIX / "recipes_glm_v_two_runs.md"))
    assert r["rate_assumed"].tolist() == [False, True] and r["request_rate"].tolist() == [20.0, math.inf]
    assert serving.choose_sweep(r, "max_concurrency") == "max_concurrency"
    assert serving.apart(r, "max_concurrency").tolist() == [True, False]
    assert set(serving.COLUMNS) <= set(r.columns) and r["e2el_mean"].isna().all()


def test_decode_roofline_known_answer():
    from benchbook.analysis import roofline

    pk = roofline.choose("A100-SXM4-80GB", [])
    lit = pd.DataFrame({"in_flight": [10.0], "output_throughput": [1000.0], "total_token_throughput": [3000.0]})
    rl = serving.decode_roofline(lit, 7.0, 2.0, pk).iloc[0]
    assert rl["steps_per_s"] == 100 and rl["achieved_gb_s"] == pytest.approx(1400)
    assert rl["achieved_tflops"] == pytest.approx(42) and rl["intensity"] == pytest.approx(30)
    assert rl["bandwidth_fraction"] == pytest.approx(1400 / 2039) and rl["compute_fraction"] == pytest.approx(42 / 312)
    assert serving.decode_roofline(lit, None, 2.0, pk)["bandwidth_fraction"].isna().all()


def test_weight_bytes_and_model_size():
    assert serving.weight_bytes("nvidia/Gemma-4-26B-A4B-NVFP4") == (0.5, False)
    assert serving.weight_bytes("zai-org/GLM-4.5V-FP8") == (1.0, False)
    assert serving.weight_bytes("meta-llama/Llama-3.2-3B-Instruct") == (2.0, True)
    assert serving.model_size(None) == (None, None, "unknown")
    assert serving.model_size("x", 7.0) == (7.0, 7.0, "parameter")
    total, active, _ = serving.model_size("nvidia/Gemma-4-26B-A4B-NVFP4")
    assert total > active


def test_reproduce_seed_agrees():
    rep = checks.reproduce(config.seed("004"))
    assert list(rep.columns) == REPRODUCTION_COLUMNS
    assert len(rep) == 18 and rep["agrees"].all()  # 3 throughputs x 6 runs; Little's law is analysis
    row = rep[rep["quantity"] == "c=256: output_throughput"].iloc[0]
    assert row["published"] == 3004.18 and row["recomputed"] == pytest.approx(91334 / 30.40)


def test_reproduce_catches_a_wrong_number(tmp_path):
    text = config.seed("004").read_text().replace("3004.18", "3104.18")
    f = tmp_path / "wrong.txt"
    f.write_text(text)
    rep = checks.reproduce(f)
    assert not rep[rep["quantity"] == "c=256: output_throughput"]["agrees"].iloc[0]


def test_audit_seed():
    a = checks.audit(config.seed("004"))
    assert list(a.columns) == AUDIT_COLUMNS
    defects = set(zip(a["defect"], a["evidence"].str.split(":").str[0], strict=True))
    assert ("TTFT includes server queueing", "c=max") in defects
    assert ("TPOT much greater than ITL", "c=max") in defects
    assert ("nominal concurrency not reached", "c=512") in defects
    assert not math.isnan(a["line"].iloc[0])


def test_audit_failed_requests():
    a = checks.audit(FIX / "synthetic_save_detailed.json")
    assert "requests_failed" in set(a["defect"])


def test_decode_roofline_hand_computed():
    """1 B active bf16 params (2 GB), 10 in flight, 1000 out tok/s, 2000 total tok/s, on 500 TFLOP/s
    and 1000 GB/s: 100 steps/s, 200 GB/s, 4 TFLOP/s, ridge 500 FLOP/B."""
    lit = pd.DataFrame({"in_flight": [10.0], "output_throughput": [1000.0], "total_token_throughput": [2000.0]})
    d = serving.decode_roofline(lit, 1.0, 2.0, Peaks("X", 1000.0, {"bf16": 500.0}, "parameter")).iloc[0]
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


SERVE = Path(__file__).parents[1] / "fixtures" / "vllm-bench-serve"
SHAREGPT = SERVE / "dgx_spark_08_sharegpt.md"


def test_serving_load_reads_a_real_run():
    r, req = serving.load([SHAREGPT])
    assert len(r) == 1 and r["output_throughput"].iat[0] == 61.17 and r["completed"].iat[0] == 250
    assert len(req) == 0


def test_one_capped_run_beside_a_rate_sweep_is_no_concurrency_curve():
    """GuideLLM's sweep: synchronous (cap 1), throughput (no cap, inf) and constant rates."""
    r = pd.DataFrame(
        {
            "request_rate": [math.inf, math.inf, 1.0, 2.0, 4.0],
            "max_concurrency": [1.0, math.nan, math.nan, math.nan, math.nan],
        }
    )
    assert serving.choose_sweep(r, "max_concurrency") == "request_rate"
    r["max_concurrency"] = [1.0, math.nan, 4.0, math.nan, math.nan]  # two caps: a curve of caps
    assert serving.choose_sweep(r, "max_concurrency") == "max_concurrency"


# --- helpers the chapter leans on (mutation sample, seed 2026) --------------------------------------------------


def test_per_load_keeps_the_order_the_runs_give():
    r = pd.DataFrame(
        {"run": ["c=8", "c=2"], "model": "m", "max_concurrency": [8.0, 2.0], "request_rate": math.inf}
    ).assign(output_throughput=[80.0, 20.0])
    assert serving.per_load(r)["run"].tolist() == ["c=8", "c=2"]


def test_littles_law_takes_the_mean_latency_of_the_saved_requests_where_none_is_printed():
    """Run b prints no mean E2EL; its two successful saved requests took 2 s and 4 s (a failed one
    took 100 s and is left out): mean 3 s, x 5 req/s = 15 in flight, under its cap of 20 (0.75).
    The runs' index is not 0, 1: the per-request means are matched by source and run, not position."""
    r = pd.DataFrame(
        {
            "source": ["f.json", "f.json"],
            "run": ["a", "b"],
            "request_throughput": [5.0, 5.0],
            "e2el_mean": [1000.0, np.nan],
            "max_concurrency": [20.0, 20.0],
            "num_prompts": [100.0, 100.0],
            "total_generated_tokens": [np.nan, np.nan],
            "completed": [np.nan, np.nan],
            "ttft_mean": [np.nan, np.nan],
            "tpot_mean": [np.nan, np.nan],
        },
        index=[7, 9],
    )
    req = pd.DataFrame(
        {"source": "f.json", "run": ["b", "b", "b"], "success": [True, True, False], "e2el_ms": [2000.0, 4000.0, 1e5]}
    )
    lit = serving.littles_law(r, req)
    assert lit["e2el_from"].tolist() == ["printed", "requests"]
    assert lit["in_flight"].tolist() == pytest.approx([5.0, 15.0]) and lit.loc[9, "utilisation"] == pytest.approx(0.75)
    assert not lit["estimated"].any()


def test_an_uncapped_run_is_held_against_its_prompts_unless_its_cap_is_unrecorded():
    """No cap: the 1000 prompts sent are the ceiling, 4 req/s x 50 s = 200 in flight is 0.2 of them; a
    format that cannot record a cap leaves the ceiling unknown."""
    r = pd.DataFrame(
        {
            "request_throughput": [4.0],
            "e2el_mean": [50_000.0],
            "max_concurrency": [np.nan],
            "num_prompts": [1000.0],
            "total_generated_tokens": [np.nan],
            "completed": [np.nan],
            "ttft_mean": [np.nan],
            "tpot_mean": [np.nan],
        }
    )
    lit = serving.littles_law(r)
    assert lit["nominal"].iloc[0] == 1000.0 and lit["utilisation"].iloc[0] == pytest.approx(0.2)
    blind = serving.littles_law(r.assign(max_concurrency_recorded=False))
    assert math.isnan(blind["nominal"].iloc[0]) and math.isnan(blind["utilisation"].iloc[0])


def test_completed_share_of_the_requests_sent():
    assert serving.completed_share(pd.Series({"completed": 89.0, "failed": 11.0})) == pytest.approx(0.89)
    assert serving.completed_share(pd.Series({"completed": np.nan, "failed": 11.0})) == 0.0  # none completed
    assert serving.completed_share(pd.Series({"completed": 89.0, "failed": 0.0})) == 1.0
    assert serving.completed_share(pd.Series({"completed": 89.0})) == 1.0  # failures not counted


def test_weight_bytes_take_the_stated_quantization_before_the_dtype():
    """trtllm-bench states `quantization=FP8` above `dtype=bfloat16`: one byte per weight, not two, and
    not assumed; the dtype alone gives two; nothing stated gives bf16 assumed."""
    r = pd.DataFrame({"metadata": ["quantization=FP8; dtype=bfloat16"]})
    assert serving.weight_bytes("m", r) == (1.0, False)
    assert serving.weight_bytes("m", pd.DataFrame({"metadata": ["dtype=BFloat16"]})) == (2.0, False)
    assert serving.weight_bytes("m", pd.DataFrame({"metadata": ["quantization=NVFP4"]})) == (0.5, False)
    assert serving.weight_bytes("m", pd.DataFrame({"metadata": ["tp=1"]})) == (2.0, True)


def test_devices_multiply_the_stated_tp_and_pp():
    assert serving.devices(pd.DataFrame({"metadata": ["tp=4; pp=2"]})) == 8
    assert serving.devices(pd.DataFrame({"metadata": ["tp=4"]})) == 4
    assert serving.devices(pd.DataFrame({"metadata": ["tp=0"]})) == 1  # never fewer than one
    assert serving.devices(pd.DataFrame({"run": ["a"]})) == 1


def test_a_single_device_peak_is_spread_over_the_runs_devices_and_a_counted_one_stands():
    one = Peaks("H100", 3350.0, {"bf16": 989.0}, source="parameter")
    tp4 = pd.DataFrame({"metadata": ["tp=4"]})
    assert serving.spanning(one, tp4).count == 4 and serving.spanning(one, tp4).total_bandwidth_gb_s == 4 * 3350.0
    two = Peaks("H100", 3350.0, {"bf16": 989.0}, source="parameter", count=2)
    assert serving.spanning(two, tp4).count == 4  # a host's count gives way to the run's own TP (TP x PP x DP)
    assert serving.spanning(one, pd.DataFrame({"metadata": ["tp=1"]})).count == 1
    assert serving.spanning(None, tp4) is None


def test_speculative_decoding_without_an_acceptance_length_leaves_the_tokens_per_step_unknown():
    r = pd.DataFrame({"metadata": ["speculative=MTP", "tp=1"]})
    method, per_step = serving.tokens_per_step(r)
    assert method.iloc[0] == "MTP" and math.isnan(per_step.iloc[0])
    assert pd.isna(method.iloc[1]) and per_step.iloc[1] == 1.0


def test_decode_roofline_without_a_model_size_has_every_figure_unknown():
    lit = pd.DataFrame({"in_flight": [4.0], "output_throughput": [100.0], "total_token_throughput": [300.0]})
    d = serving.decode_roofline(lit, None, 2.0, None)
    cols = ["steps_per_s", "achieved_gb_s", "achieved_tflops", "intensity", "bandwidth_fraction", "compute_fraction"]
    assert d[[*cols, "ridge"]].isna().all(axis=None) and d["tokens_per_step"].iloc[0] == 1.0


def test_placeholder_runs_are_renamed_whatever_the_tables_index():
    r = pd.DataFrame({"run": ["json 1"], "source": ["a.json"]}, index=[5])
    out, _ = serving.settings_labels(r, pd.DataFrame())
    assert out.loc[5, "run"] == "a.json"  # no setting recorded: named by its file


def test_only_a_format_that_states_its_own_limits_can_be_judged_against_them():
    assert serving.own_limits_possible(pd.DataFrame({"tool": ["vllm-bench-serve", "mlperf-loadgen"]}))
    assert not serving.own_limits_possible(pd.DataFrame({"tool": ["vllm-bench-serve"]}))
    assert not serving.own_limits_possible(pd.DataFrame({"run": ["a"]}))


def test_a_devices_ridge_is_its_peak_over_its_bandwidth():
    """H100 bf16: 989 TFLOP/s over 3350 GB/s is 295.2 FLOP/byte; without a peak at that precision, none."""
    h100 = Peaks("H100", 3350.0, {"bf16": 989.0}, source="parameter")
    assert h100.ridge("bf16") == pytest.approx(989e12 / 3350e9) and h100.ridge("fp8") is None
    assert Peaks("H100", None, {"bf16": 989.0}, "parameter").ridge("bf16") is None


def test_data_parallel_replicas_add_devices_unless_dp_runs_inside_the_tp_group():
    assert serving.devices(pd.DataFrame({"metadata": ["tp=4; dp=2"]})) == 8  # two replicas of TP 4
    assert serving.devices(pd.DataFrame({"metadata": ["tp=8; dp=8; dp_attention=yes"]})) == 8
    assert serving.devices(pd.DataFrame({"metadata": ["tp=8; ep=8"]})) == 8  # experts over the same devices


def test_a_launch_command_in_the_file_states_the_tp_its_runs_do_not():
    from benchbook import config

    path = config.FIXTURES_DIR / "vllm-bench-serve" / "mi100x4_tp4_five_models_caps_in_bullets.md"
    r, _ = serving.load([path])
    assert serving.devices(r) == 4  # `vllm serve <model> ... --tensor-parallel-size 4` above the blocks


def test_a_command_launching_another_model_gives_its_runs_no_tp(tmp_path):
    r = pd.DataFrame({"source": ["run.md"], "model": ["org/Llama-3-70B"], "metadata": [None]})
    f = tmp_path / "run.md"
    f.write_text("vllm serve org/Llama-3-8B --tensor-parallel-size 4\n")
    assert serving.devices(serving.parallelism_from_context(r, [f])) == 1
    f.write_text("vllm serve org/Llama-3-70B --tensor-parallel-size 4\n")
    assert serving.devices(serving.parallelism_from_context(r, [f])) == 4
    stated = r.assign(metadata=["tp=2"])  # the run's own metadata ranks first
    assert serving.devices(serving.parallelism_from_context(stated, [f])) == 2


def test_a_size_the_input_states_for_its_model_sizes_it_where_the_table_does_not(tmp_path):
    """A model the table and its name cannot size takes the size a line naming it states (total and
    active); a size stated on a line about another model, or an MoE's total alone, does not."""
    doc = tmp_path / "w.md"
    doc.write_text("# Hy3-preview\n\nHy3-preview 参数规模为 295B，其中激活参数为 21B。\n", encoding="utf-8")
    stated = serving.stated_size("tencent/Hy3-preview", [doc])
    assert stated == (295.0, 21.0, 3)
    assert serving.model_size("tencent/Hy3-preview", 0.0, stated) == (295.0, 21.0, "input")
    assert serving.model_size("tencent/Hy3-preview") == (None, None, "unknown")
    assert serving.stated_size("tencent/Other-model", [doc]) is None  # the line names another model
    doc.write_text("Hy3-preview-MoE has 295B parameters.\n", encoding="utf-8")
    assert serving.stated_size("tencent/Hy3-preview-MoE", [doc]) == (295.0, None, 1)  # MoE: active unknown
    assert serving.model_size("meta-llama/Llama-3.1-8B", 0.0, (99.0, 99.0, 1))[2] != "input"  # the table first


def test_a_launch_command_gives_every_run_of_a_file_without_metadata_its_parallelism(tmp_path):
    r = pd.DataFrame({"source": ["run.md", "run.md"], "model": ["org/M", "org/M"]})
    f = tmp_path / "run.md"
    f.write_text("python -m sglang.launch_server --model-path org/M --tp 8 --dp 8 --enable-dp-attention\n")
    out = serving.parallelism_from_context(r, [f])
    # DP attention splits attention over the TP group's own devices: 8 GPUs, not 8 x 8
    assert out["metadata"].tolist() == ["tp=8; dp=8; dp_attention=yes"] * 2 and serving.devices(out) == 8
    f.write_text("python -m sglang.launch_server --model-path org/M --tp 8 --dp 8\n")
    assert serving.devices(serving.parallelism_from_context(r, [f])) == 64


def test_a_size_under_a_heading_that_names_the_model_sizes_it(tmp_path):
    """`# Step-3.5-Flash Guide`, then `only 11B active parameters out of 196B parameters`: the section's
    heading names the model the line sizes; under a heading naming another model it sizes none."""
    doc = tmp_path / "w.md"
    doc.write_text("# Step-3.5-Flash Guide\n\n* MoE (only 11B active parameters out of 196B parameters)\n")
    assert serving.stated_size("stepfun-ai/Step-3.5-Flash", [doc]) == (196.0, 11.0, 3)
    doc.write_text("# Other-Model Guide\n\n* MoE (only 11B active parameters out of 196B parameters)\n")
    assert serving.stated_size("stepfun-ai/Step-3.5-Flash", [doc]) is None


def test_of_several_launches_only_the_one_that_ran_the_results_states_their_parallelism(tmp_path):
    """A data-parallel script and a tensor-parallel one side by side, the results after the second (and a
    note `You can try DP4 instead`): the run spans the TP 4 of its own launch, not TP 4 x DP 4."""
    f = tmp_path / "run.md"
    f.write_text(
        "vllm serve org/M \\\n    --data-parallel-size 4\n\nvllm serve org/M \\\n    --tensor-parallel-size 4\n\n"
        "Note: you can try DP4 instead.\n\nSuccessful requests: 10\n"
    )
    r = pd.DataFrame({"source": ["run.md"], "model": ["org/M"], "metadata": [None], "line": [9]})
    assert serving.devices(serving.parallelism_from_context(r, [f])) == 4
    # the other way: results under each launch tie no one launch to them: every statement counts (TP 4, DP 4)
    both = pd.DataFrame({"source": ["run.md"] * 2, "model": ["org/M"] * 2, "metadata": [None] * 2, "line": [3, 9]})
    assert serving.devices(serving.parallelism_from_context(both, [f])) == 16


def test_auto_lets_the_file_choose_its_swept_setting():
    rates = pd.DataFrame({"max_concurrency": [np.nan, np.nan], "request_rate": [1.0, 4.0]})
    caps = pd.DataFrame({"max_concurrency": [8.0, 32.0], "request_rate": [np.inf, np.inf]})
    assert serving.choose_sweep(rates, "auto") == "request_rate"
    assert serving.choose_sweep(caps, "auto") == "max_concurrency"


def test_a_launch_at_tp_1_spans_one_device_of_a_host_whose_count_the_file_gives(tmp_path):
    """`tested on 8 * MI300x` above `--tensor-parallel-size 1` (vllm-project/recipes#476): the host's count is an
    upper bound and the launch's TP 1 the run's span, so the peak is one MI300X's (stop 49, issue #35 class 3);
    with no TP stated, the host's count stands."""
    f = tmp_path / "run.md"
    f.write_text(" * tested on 8 * MI300x\nvllm serve org/M-3B --tensor-parallel-size 1\n")
    r = pd.DataFrame({"source": ["run.md"], "model": ["org/M-3B"], "metadata": [None]})
    host = Peaks("MI300X", 5300.0, 1307.0, "bf16", 8)
    assert serving.spanning(host, serving.parallelism_from_context(r, [f])).count == 1
    f.write_text(" * tested on 8 * MI300x\nvllm serve org/M-3B\n")
    assert serving.spanning(host, serving.parallelism_from_context(r, [f])).count == 8


def test_each_run_takes_the_parallelism_and_speculation_of_its_own_launch(tmp_path):
    """A write-up that pastes each engine's results under its own serving script (gpustack's performance lab:
    `vllm serve M -tp 2`, then `mindie serve M`, then an SGLang launch with `--speculative-algorithm EAGLE3`):
    each run takes its own launch's TP and speculative method, and a launch that passes none states none for
    its run (stop 50, issue #35 class 3, and class 2: chunked ITL explained by the file's own EAGLE3). With
    one launch above every result (`W/O EAGLE` under a launch with a speculative config), no run is tagged."""
    f = tmp_path / "lab.md"
    f.write_text(
        "```bash\nvllm serve org/M -tp 2\n```\nresult A\n"
        "```bash\nmindie serve org/M\n```\nresult B\n"
        "```bash\npython3 -m sglang.launch_server --model-path org/M --speculative-algorithm EAGLE3\n```\nresult C\n"
    )
    r = pd.DataFrame({"source": ["lab.md"] * 3, "line": [4, 8, 12], "model": ["org/M"] * 3, "metadata": [None] * 3})
    meta = serving.parallelism_from_context(r, [f])["metadata"].tolist()
    assert meta[0] == "tp=2" and pd.isna(meta[1]) and meta[2] == "speculative=EAGLE3"
    assert serving.untied_spans(serving.parallelism_from_context(r, [f])) == 2
    f.write_text(
        'vllm serve org/M --tensor-parallel-size 2 --speculative_config \'{"method": "eagle"}\'\nW/O EAGLE\nresult\n'
    )
    one = serving.parallelism_from_context(r.iloc[[0]].assign(line=3), [f])["metadata"].tolist()
    assert one == ["tp=2"]
    assert serving.untied_spans(serving.parallelism_from_context(r.iloc[[0]].assign(line=3), [f])) == 0


def test_a_format_records_a_setting_its_table_gives_a_value_for():
    """`recorded`: an authors' table (the vllm-ascend release tables) whose format does not always carry the
    request rate records it for the runs whose `Request rate` cell it read (`inf`): no page says the output
    does not record it (stop 50, issue #35 class 2); a run with no value keeps what its format declares."""
    r = pd.DataFrame({"tool": ["x", "x"], "format": ["y", "y"], "request_rate": [math.inf, math.nan]})
    from unittest import mock

    with mock.patch.object(ingest, "carries", return_value=False):
        assert serving.recorded(r, "request_rate").tolist() == [True, False]


def test_a_quantized_release_takes_the_size_the_prose_states_for_the_model_it_quantizes(tmp_path):
    """`tencent/HY3-FP8` is the FP8 release of the model a guide sizes as `HY3 Preview ... (294B parameters,
    20B active)`: the line names it without the format its name ends with; a name that is only a format
    word, or another model's, is not named by that line."""
    doc = tmp_path / "w.md"
    doc.write_text("# HY3-Preview Usage\n\nHY3 Preview is a model (294B parameters, 20B active parameters).\n")
    assert serving.stated_size("tencent/HY3-FP8", [doc]) == (294.0, 20.0, 3)
    assert serving.stated_size("org/HY3-Preview-GPTQ-Int4", [doc]) == (294.0, 20.0, 3)
    assert serving.stated_size("tencent/HY4-FP8", [doc]) is None  # another model
    assert serving.stated_size("org/FP8", [doc]) is None  # a name that is only a format word names none


def test_dp_attention_named_in_words_beside_the_dp_size_keeps_the_dp_ranks_inside_the_tp_group(tmp_path):
    """`TP=8 PP=1 + DPA dp_size=8` (a write-up's name for SGLang's DP attention) spans the TP group's 8
    devices, as `--enable-dp-attention` does; a DP size with no such word stays DP attention or replicas."""
    r = pd.DataFrame({"source": ["run.md"], "model": ["org/M"]})
    f = tmp_path / "run.md"
    f.write_text("- Per-server topology: single-node TP=8 PP=1 + DPA dp_size=8, mfs=0.85\n")
    out = serving.parallelism_from_context(r, [f])
    assert "dp_attention=yes" in out["metadata"][0] and serving.devices(out) == 8
    f.write_text("- Per-server topology: single-node TP=8 PP=1 + DP attention, dp_size=8\n")
    assert "dp_attention=yes" in serving.parallelism_from_context(r, [f])["metadata"][0]
    f.write_text("- Per-server topology: single-node TP=8 PP=1, dp_size=8\n")
    assert "dp_attention=yes" not in str(serving.parallelism_from_context(r, [f])["metadata"][0])
