"""The serving page claims an absence only where the parser says the format records the thing
(issue 27, class 1), and counts failed requests against goodput (class 7): real AIPerf and
inference-perf fixtures and known answers."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from benchbook import config
from benchbook.analysis import serving
from benchbook.claims import serving as claims
from benchbook.presentation import serving as show
from benchbook.presentation import wording

FIX = config.FIXTURES_DIR


def runs(*paths):
    return serving.load([FIX / p for p in paths])[0]


def test_a_format_without_a_rate_keeps_it_unknown_not_infinite():
    r = runs("inference-perf/llmd_benchmark_guide_qwen3_32b_summary_lifecycle_metrics.json")
    assert math.isnan(r["request_rate"].iat[0]) and not r["rate_assumed"].iat[0]
    assert "does not record its request rate" in show.assumed_rate_note(r)
    assert "taken as unlimited" not in show.assumed_rate_note(r)


def test_a_format_with_a_rate_gets_the_default_when_it_prints_none():
    r = runs("aiperf/example_run1_profile_export_aiperf.json")
    assert r["request_rate"].iat[0] == math.inf and r["rate_assumed"].iat[0]


def test_a_cap_the_csv_cannot_record_is_not_called_absent():
    r = runs("aiperf/example_run1_profile_export_aiperf.csv")
    lit = serving.littles_law(r)
    assert math.isnan(lit["nominal"].iat[0])  # not the prompt count
    c = claims.underfilled(lit)
    assert c.evidence["unrecorded"] == 1
    assert show.run_missing(r)["max concurrency (requests)"].iat[0] == "not recorded"
    assert "not recorded" not in show.run_missing(runs("aiperf/example_run1_profile_export_aiperf.json")).to_string()


def test_a_capped_run_with_no_completion_is_not_called_uncapped():
    lit = serving.littles_law(runs("aiperf/nvda_ci_reference_failed_all_timeout_profile_export_aiperf.json"))
    c = claims.underfilled(lit)
    assert c.evidence["n"] == 0 and c.evidence["unmeasured"] == 1
    assert show.littles_note(lit) == "No request completed, so there is no latency to put into Little's law."


def test_a_rate_of_completed_samples_without_latencies_is_no_run_where_none_completed():
    # real: mlcommons/inference#460, a VALID Offline summary (2095.89 samples/s) with its Additional
    # Stats elided: samples completed, only no latency was printed
    lit = serving.littles_law(
        runs("mlperf-loadgen/mlcommons_issue460_pysut_tf_mobilenet_gpu_offline_valid_one_error_elided.md")
    )
    note = show.littles_note(lit)
    assert "No request completed" not in note
    assert note.startswith("The output prints the run's rate of completed requests but no latency")
    # the other way: the same run at a rate of 0 completed nothing
    assert "No request completed" in show.littles_note(lit.assign(request_throughput=0.0))


def test_a_rate_of_generated_tokens_is_one_of_requests_that_completed():
    # real: trtllm-bench's prototype prints `Throughput (tokens/second)` (output tokens / end-to-end time)
    # and neither a request count nor a latency: tokens were generated, so requests completed
    lit = serving.littles_law(
        runs("trtllm-bench/trtllm_suite_benchmark_py_prototype_llama2_7b_fp8_metadata_statistics_zero_ttft_excerpt.md")
    )
    note = show.littles_note(lit)
    assert note.startswith("The output prints the run's rate of generated tokens but no latency")
    # the other way: no token generated, no request completed
    assert "No request completed" in show.littles_note(lit.assign(output_throughput=0.0))


def test_failed_requests_scale_the_goodput_share_not_the_rate():
    r = pd.DataFrame(
        {
            "request_throughput": [10.0],
            "completed": [90.0],
            "failed": [10.0],
            "ttft_p99": [100.0],
            "tpot_p99": [10.0],
        }
    )
    g = serving.goodput_bounds(r, 450, 40).iloc[0]
    assert g["share_lo"] == pytest.approx(0.98 * 0.9)  # of every request sent
    assert g["goodput_lo"] == pytest.approx(0.98 * 10.0)  # good completions per second
    every = serving.goodput_bounds(r.assign(completed=[0.0], request_throughput=[math.nan]), 450, 40).iloc[0]
    assert every["share_lo"] == every["share_hi"] == 0.0


def test_failures_are_named_on_the_page():
    """Said once, by the `failed` claim (the merge of `evidence` retired `failures_sentence`)."""
    r = runs("aiperf/example_run1_profile_export_aiperf.json")
    c = wording.word("serving_saturation", claims.failed(r))
    assert c.status == "shown" and "11 requests failed beside the 89 that completed" in c.text
    quiet = claims.failed(runs("inference-perf/llmd_benchmark_guide_qwen3_32b_summary_lifecycle_metrics.json"))
    assert quiet.status != "shown"
    lost = runs("aiperf/nvda_ci_reference_failed_all_timeout_profile_export_aiperf.json")
    assert "no throughput or latency was measured" in wording.word("serving_saturation", claims.failed(lost)).text


def test_exact_goodput_counts_cancelled_requests():
    req = serving.load([FIX / "aiperf/example_run1_profile_export_first17.jsonl"])[1]
    ex = serving.exact_goodput(req, 1000.0, 40.0).iloc[0]
    assert (ex["requests"], ex["completed"], ex["failed"]) == (17, 6, 11)
    assert ex["share"] == pytest.approx(ex["good"] / 17)


def test_measured_concurrency_stands_in_without_a_mean_latency():
    lit = serving.littles_law(runs("guidellm/llmd_benchmark_guide_qwen3_32b_rate_comparison_console.txt"))
    assert lit["in_flight"].tolist() == [0.1, 0.6] and lit["in_flight_measured"].all()
    assert "measured mean concurrency" in show.littles_note(lit)


def test_percentiles_without_a_mean_are_not_called_no_e2el_line():
    lit = pd.DataFrame({"estimated": [True], "e2el_p99": [5.0], "completed": [3], "mean_e2el_s": [1.0]})
    assert show.littles_note(lit).startswith("The output prints E2EL percentiles but no mean")


def test_latency_percentiles_without_a_count_are_no_run_where_none_completed():
    # real: GuideLLM 0.1's Performance Stats table pasted alone (vllm-project/guidellm#79): its format
    # prints a count in another table, but a latency statistic is one of completed requests
    lit = serving.littles_law(runs("guidellm/guidellm_pr79_v01_asynchronous_2rps_latency_percentiles_cut.md"))
    assert "No request completed" not in show.littles_note(lit)
    # the other way: the same run with its latencies gone and a count of 0 completed nothing
    stats = [c for c in lit.columns if c.split("_")[0] in ("ttft", "itl", "e2el", "tpot") and c != "e2el_from"]
    gone = lit.assign(completed=0.0, **{c: math.nan for c in stats})
    assert "No request completed" in show.littles_note(gone)
    zeros = lit.assign(completed=0.0, **{c: 0.0 for c in stats})  # a tool's 0.00 placeholders
    assert "No request completed" in show.littles_note(zeros)


def test_what_a_run_can_record_keeps_the_run_table_s_index():
    r = pd.DataFrame({"tool": ["vllm-bench-serve", "vllm-bench-serve"], "format": ["json", "json"]}, index=[3, 4])
    got = serving.recorded(r, "ttft_mean")
    assert got.index.tolist() == [3, 4] and got.all()


def test_a_fact_no_line_speaks_of_is_absent_and_one_a_command_sets_is_stated(tmp_path):
    f = tmp_path / "run.md"
    f.write_text("the server ran for an hour\n")
    assert serving.fact_said([f], "precision", "precision") == {"precision_status": "absent"}
    f.write_text("vllm serve Qwen/Qwen3-32B --dtype bfloat16\n")  # the other way
    assert serving.fact_said([f], "precision", "precision")["precision_status"] == "stated"


def test_the_goodput_bounds_of_no_run_keep_their_columns():
    got = serving.goodput_bounds(pd.DataFrame({"request_throughput": []}), 1000.0, 50.0)
    assert got.empty and {"share_lo", "share_hi", "goodput_lo", "goodput_hi", "slo_whose"} <= set(got)


def test_a_ttft_and_tpot_without_an_e2el_are_latencies_but_no_requests():
    # real: SGLang PR 7241's parse_results.py grid: output tok/s, TTFT and TPOT, no E2EL and no count
    lit = serving.littles_law(
        runs("sglang-bench-serving/sglang_pr7241_parse_results_deepseek_v3_main_summary_grid_cut.md")
    )
    note = show.littles_note(lit)
    assert "but no request's end-to-end latency" in note and "but no latency," not in note
    # the other way: the same run without its TTFT and TPOT prints no latency at all
    bare = lit.drop(columns=[c for c in lit.columns if str(c).startswith(("ttft_", "tpot_"))])
    assert "but no latency," in show.littles_note(bare)
