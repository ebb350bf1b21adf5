"""How the serving chapter names runs and workloads, and what its per-run tables carry."""

import pandas as pd
import pytest

from benchbook.analysis import serving
from benchbook.analysis.roofline import Peaks


def test_an_mlperf_offline_run_is_named_without_a_rate():
    # Offline sends every sample at once: its target_qps sizes the test and is no rate
    assert serving.settings_label(pd.Series({"scenario": "Offline", "request_rate": 100.0})) == "Offline"
    assert serving.settings_label(pd.Series({"scenario": "Server", "request_rate": 100.0})) == "Server, rate=100"


def test_two_unnamed_runs_with_the_same_settings_are_told_apart_in_both_tables():
    r = pd.DataFrame({"source": ["f.json"] * 2, "run": ["json 1", "json 2"], "max_concurrency": [8.0, 8.0]})
    req = pd.DataFrame({"source": ["f.json"], "run": ["json 2"], "e2el_ms": [1.0]})
    named, req_named = serving.settings_labels(r, req)
    assert named["run"].tolist() == ["c=8, run 1", "c=8, run 2"]
    assert req_named["run"].tolist() == ["c=8, run 2"]
    # per-request rows that name no run: the run table alone is renamed
    named, loose = serving.settings_labels(r, pd.DataFrame({"e2el_ms": [1.0]}))
    assert named["run"].tolist() == ["c=8, run 1", "c=8, run 2"] and loose.columns.tolist() == ["e2el_ms"]


def test_runs_of_one_dataset_with_two_workloads_are_labelled_by_their_tokens():
    r = pd.DataFrame(
        {
            "dataset": ["random"] * 3,
            "completed": [10, 10, 10],
            "total_input_tokens": [10000, 1000, 10100],
            "total_generated_tokens": [1000, 10000, 1000],
        }
    )
    assert serving.workloads(r).tolist() == [
        "1,000 in / 100 out tokens a request",
        "100 in / 1,000 out tokens a request",
        "1,000 in / 100 out tokens a request",
    ]
    # unnamed runs at one cap: the workload is what tells them apart
    unnamed = r.assign(source="f.json", run=["json 1", "json 2", "json 3"], max_concurrency=8.0)
    named = serving.settings_labels(unnamed, pd.DataFrame())[0]["run"].tolist()
    assert named == ["1,000 in / 100 out, c=8, run 1", "100 in / 1,000 out, c=8", "1,000 in / 100 out, c=8, run 2"]


def test_no_runs_have_no_repeats_of_an_integer_kind():
    assert serving.repeats(pd.DataFrame()).dtype == int


def test_the_rate_little_s_law_used_is_kept_beside_the_runs():
    r = pd.DataFrame(
        dict(
            request_throughput=[2.0],
            e2el_mean=[500.0],
            ttft_mean=[50.0],
            tpot_mean=[10.0],
            total_generated_tokens=[1000],
            completed=[10],
            duration=[5.0],
            max_concurrency=[4.0],
            num_prompts=[10],
        )
    )
    out = serving.littles_law(r)
    assert out["request_rate_used"].iat[0] == 2.0 and out["in_flight"].iat[0] == pytest.approx(1.0)


def test_weights_of_no_listed_width_are_set_against_the_bf16_peak():
    pk = Peaks("X", 1000.0, {"bf16": 500.0, "fp8": 1000.0}, "parameter")
    lit = pd.DataFrame(dict(run=["a"], in_flight=[8.0], output_throughput=[800.0], total_token_throughput=[1600.0]))
    d = serving.decode_roofline(lit, 1.0, 4.0, pk)  # fp32 weights: 4 bytes
    assert d["precision"].iat[0] == "bf16" and d["peak_tflops"].iat[0] == 500.0


def test_unnamed_runs_of_two_files_with_the_same_settings_keep_the_plain_label():
    r = pd.DataFrame({"source": ["a.json", "b.json"], "run": ["json 1", "json 1"], "max_concurrency": [8.0, 8.0]})
    assert serving.settings_labels(r, pd.DataFrame())[0]["run"].tolist() == ["c=8", "c=8"]
