"""Runs whose output prints the mean input and output tokens a request (AIPerf's and GenAI-Perf's Input and
Output Sequence Length) are told apart by workload from those means, as runs with token totals are: two
AIPerf runs of 550/15 and 4/44 tokens a request are two series, never two loads of one sweep; runs whose
means are within the spread stay one series."""

import pandas as pd

from benchbook import config
from benchbook.analysis import serving

AUDIO = config.FIXTURES_DIR / "aiperf" / "aiperf_docs_audio_qwen2_audio_7b_synthetic_c4_and_input_file_two_runs.md"


def test_aiperf_runs_of_two_workloads_are_two_series():
    r, _ = serving.load([AUDIO])
    assert list(serving.workloads(r)) == ["550 in / 15 out tokens a request", "4 in / 44 out tokens a request"]
    assert serving.series_key(r).nunique() == 2


def test_per_request_means_within_the_spread_are_one_workload():
    r = pd.DataFrame({"input_sequence_length_mean": [512.0, 500.0], "output_sequence_length_mean": [512.0, 498.0]})
    assert list(serving.workloads(r)) == ["", ""]


def test_totals_are_taken_before_the_printed_means():
    r = pd.DataFrame(
        {
            "completed": [10.0, 10.0],
            "total_input_tokens": [1000.0, 100_000.0],
            "total_generated_tokens": [1000.0, 1000.0],
            "input_sequence_length_mean": [100.0, 100.0],  # contradicted by the totals: the totals count
            "output_sequence_length_mean": [100.0, 100.0],
        }
    )
    assert serving.workloads(r).ne("").all()
