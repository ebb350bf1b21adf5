"""AIPerf counts the requests whose output ended off the length they asked for (`OSL Mismatch Count`: |actual -
requested| above the fewer of 5 % of max_tokens and 50 tokens, by default) and prints the signed difference
(`OSL Mismatch Diff %`, (actual - requested) / requested x 100, `metrics/types/osl_mismatch_metrics.py`). A run
with a count above zero is said: how many, by how much, and, where every difference is below zero, that every
output stopped short, so its per-token rates are of those outputs, not of the workload asked for. A count of
zero, or none printed, says nothing."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook import config
from benchbook.analysis import serving
from benchbook.presentation import serving as show

ANUD = "aiperf/anud18_rtx5090_vllm_qwen36_nvfp4_agent_multiturn_c16_96_requests_osl_mismatch_profile_export_aiperf.csv"


def _run(count, low=-98.1, high=-25.49, mean=-73.46):
    return pd.DataFrame(
        {
            "run": ["r"],
            "completed": [96.0],
            "failed": [0.0],
            "osl_mismatch_count": [count],
            "osl_mismatch_count_line": [32.0],
            "osl_mismatch_diff_pct_mean": [mean],
            "osl_mismatch_diff_pct_min": [low],
            "osl_mismatch_diff_pct_max": [high],
        }
    )


def test_every_output_short_is_said_with_the_count_and_the_mean_difference():
    r = serving.load([config.FIXTURES_DIR / ANUD])[0]
    off = serving.output_mismatch(r)
    assert len(off) == 1 and off["count"].iat[0] == 96 and bool(off["short"].iat[0]) and off["line"].iat[0] == 32
    text = " ".join(show.output_mismatch_note(r).split())
    assert "AIPerf counts 96 of 96 requests whose output ended off the length they asked for" in text
    assert "by -73.5 % on average (OSL Mismatch Diff %, from -98.1 % to -25.5 %)" in text
    assert "every request stopped short of its length" in text and "not of the workload the run asked for" in text


def test_outputs_on_both_sides_are_not_called_short():
    text = " ".join(show.output_mismatch_note(_run(10.0, low=-40.0, high=12.0, mean=-3.0)).split())
    assert "AIPerf counts 10 of 96 requests" in text and "stopped short" not in text


def test_a_count_of_zero_or_none_says_nothing():
    assert show.output_mismatch_note(_run(0.0)) == ""
    assert show.output_mismatch_note(_run(np.nan)) == ""
    assert show.output_mismatch_note(pd.DataFrame({"run": ["r"], "completed": [5.0]})) == ""
