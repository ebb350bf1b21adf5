"""What a serving tool measures itself outranks what a paste lets the page derive (issue #35 class
4): its mean concurrency against Little's law on a printed mean latency, its minimum and p75 in a
goodput bound. Real fixtures from the stop-40 first read, and synthetic runs with a known answer."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from benchbook import config
from benchbook.analysis import serving
from benchbook.claims import serving as claims
from benchbook.presentation import serving as show

FIX = config.FIXTURES_DIR


def runs(path):
    return serving.load([FIX / path])[0]


def test_a_mean_latency_cut_where_the_copy_ends_is_not_used_and_the_tools_concurrency_is():
    # the paste is cut inside 'Mean E2E Latency (ms): 180...' (SGLang prints two decimals, so the
    # parser sets the line aside); SGLang printed 'Concurrency: 7.01' above it
    r = runs("sglang-bench-serving/sglang_pr17098_npu_mindspore_eagle3_accept_length_cut.md")
    assert math.isnan(r["e2el_mean"].iat[0]) and r["copy_ends"].iat[0] == 31
    lit = serving.littles_law(r)
    assert lit["in_flight"].iat[0] == pytest.approx(7.01) and lit["in_flight_measured"].iat[0]
    note = show.littles_note(lit)
    # the run is named by the caption inside the fence above its block (`mindspore:`), never by the PR
    # template's section heading (`## Benchmarking and Profiling`)
    assert note.startswith("The copy of run `mindspore` ends at line 31, inside its result block")
    assert "prints no mean E2EL" not in note and "only percentiles" not in note


def test_a_mean_latency_that_agrees_with_the_tools_concurrency_is_kept():
    # six SGLang blocks whose Concurrency is Little's law on their own mean E2EL
    lit = serving.littles_law(runs("sglang-bench-serving/kvcached_a100_sglang_rates_32_16_8_with_without.md"))
    assert not lit["e2el_conflict"].any() and not lit["in_flight_measured"].any()
    assert lit["in_flight"].round(0).tolist()[:2] == [1418.0, 515.0]


@pytest.mark.parametrize(("e2el_ms", "conflict"), [(1000.0, False), (1900.0, False), (2100.0, True), (400.0, True)])
def test_a_printed_mean_latency_is_set_aside_past_a_factor_two_from_the_measurement(e2el_ms, conflict):
    # 10 req/s x 1 s = 10 in flight, as the tool measured; 2.1 s would be 21, 0.4 s 4
    r = pd.DataFrame({"completed": [100.0], "duration": [10.0], "e2el_mean": [e2el_ms], "concurrency_mean": [10.0]})
    serving._screen_mean_e2el(r)
    assert bool(r["e2el_conflict"].iat[0]) is conflict
    assert math.isnan(r["e2el_mean"].iat[0]) is conflict


@pytest.mark.parametrize(("e2el_ms", "over_cap"), [(9_000.0, False), (11_000.0, True)])
def test_a_printed_mean_latency_that_puts_more_in_flight_than_the_cap_is_set_aside(e2el_ms, over_cap):
    # cap 10, 1 req/s: a mean of 9 s is 9 in flight (within the cap); 11 s is 11, more than a client held
    # at 10 lets in, while the tool measured 8.9 (a factor under two: the ratio rule alone keeps it)
    r = pd.DataFrame(
        {
            "run": ["c=10"],
            "completed": [100.0],
            "duration": [100.0],
            "e2el_mean": [e2el_ms],
            "concurrency_mean": [8.9],
            "max_concurrency": [10.0],
            "ttft_mean": [500.0],
            "tpot_mean": [20.0],
            "total_generated_tokens": [50_000.0],
            "request_throughput": [1.0],
            "num_prompts": [100.0],
        }
    )
    serving._screen_mean_e2el(r)
    assert bool(r["e2el_over_cap"].iat[0]) is over_cap and bool(r["e2el_conflict"].iat[0]) is over_cap
    lit = serving.littles_law(r)
    # set aside, the count is the tool's measurement, never an estimate from TTFT and TPOT (10.5 here)
    assert lit["in_flight"].iat[0] == pytest.approx(8.9 if over_cap else e2el_ms / 1000)
    if over_cap:
        assert "above its concurrency cap of 10" in show.littles_note(lit)


def test_the_kimi_k2_cookbook_run_that_overfills_its_cap_uses_sglangs_concurrency():
    r = runs("sglang-bench-serving/sglang_cookbook_kimi_k2_instruct_mi300x_tp8_c1_c16_c100_retokenized_short.md")
    lit = serving.littles_law(r).set_index("max_concurrency")
    assert bool(lit.loc[100.0, "e2el_conflict"]) and lit.loc[100.0, "in_flight"] == pytest.approx(89.14)
    assert not lit.loc[[1.0, 16.0], "e2el_conflict"].any()


def test_trtllm_bench_concurrent_requests_stand_in_where_no_latency_is_printed():
    lit = serving.littles_law(runs("trtllm-bench/trtllm_pr7104_dsr1_nvfp4_tp4_ep4_cut.md"))
    assert lit["in_flight"].iat[0] == pytest.approx(1018.8281) and lit["in_flight_measured"].iat[0]
    assert show.littles_note(lit).startswith("The output prints no mean E2EL, so")


@pytest.mark.parametrize(
    ("stats", "lo", "hi"),
    [
        ({"ttft_min": 538.0, "ttft_p90": 2566.0}, 0.0, 0.0),  # the fastest request missed the SLO
        ({"ttft_p75": 1135.0, "ttft_p90": 2566.0}, 0.0, 0.75),
        ({"ttft_p25": 300.0, "ttft_p90": 2566.0}, 0.25, 0.9),
        ({"ttft_max": 400.0}, 1.0, 1.0),  # the slowest met it
        ({"ttft_p99": 400.0, "ttft_mean": 9000.0, "ttft_std": 5.0}, 0.99, 1.0),  # a mean bounds nothing
    ],
)
def test_goodput_bounds_read_every_printed_percentile_with_the_minimum_and_maximum(stats, lo, hi):
    row = pd.DataFrame({"request_throughput": [1.0], "tpot_max": [10.0], **{k: [v] for k, v in stats.items()}})
    g = serving.goodput_bounds(row, 450, 40).iloc[0]
    assert (g["ttft_share_lo"], g["ttft_share_hi"]) == (pytest.approx(lo), pytest.approx(hi))


def test_a_statistic_is_a_percentile_only_by_its_name():
    assert [serving.printed_percentile(s) for s in ("median", "p75", "p99.9", "min", "max")] == [50, 75, 99.9, 0, 100]
    assert [serving.printed_percentile(s) for s in ("mean", "std", "count", "p250", "mean_printed")] == [None] * 5


def test_a_run_with_latencies_but_no_rate_is_not_called_one_with_no_completed_request():
    # GenAI-Perf 24.06's table cut in its third row: request latencies of completed requests, no throughput
    lit = serving.littles_law(runs("genai-perf/perf_analyzer_issue437_genai_perf_2406_ns_statistic_cut.md"))
    ev = claims.underfilled(lit).evidence
    assert (ev["no_rate_read"], ev["unmeasured"], ev["no_latency"]) == (1, 0, 0)
    # the other way: a capped run whose every request failed has no latency and completed none
    failed = serving.littles_law(runs("aiperf/nvda_ci_reference_failed_all_timeout_profile_export_aiperf.json"))
    ev = claims.underfilled(failed).evidence
    assert (ev["no_rate_read"], ev["unmeasured"]) == (0, 1)


def test_an_mlperf_server_summary_without_test_parameters_runs_at_its_scheduled_rate():
    # mlcommons/inference#2341: 'Scheduled samples per second : 11.08', the Test Parameters not pasted
    r = runs("mlperf-loadgen/mlperf_issue2341_llama31_8b_server_valid_cut.md")
    assert r["request_rate"].iat[0] == pytest.approx(11.08) and not r["rate_assumed"].iat[0]
    # the other way: a Server summary that prints no scheduled rate keeps its rate unknown to the page
    cut = runs("mlperf-loadgen/a30_llama31_8b_server_invalid_summary.txt")
    assert cut["rate_assumed"].iat[0]
