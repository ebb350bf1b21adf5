"""Every percentile a tool prints is a tidy statistic under its rank (`core.percentile`): vLLM's
`--metric-percentiles 1,25,99.9`, AIPerf's and GenAI-Perf's p1 ... p75, inference-perf's p0.1; a rank
outside (0, 100) is none."""

from __future__ import annotations

import pytest

from benchbook.ingest import vllm_serve
from benchbook.ingest.core import is_statistic, percentile


@pytest.mark.parametrize(
    ("name", "tidy"),
    [("p25", "p25"), ("P99.9", "p99.9"), ("99.90", "p99.9"), ("p1", "p1"), ("0.1", "p0.1"), ("p50", "p50")],
)
def test_a_rank_between_0_and_100_is_a_percentile(name, tidy):
    assert percentile(name) == tidy and is_statistic(tidy)


@pytest.mark.parametrize("name", ["p0", "p100", "p150", "mean", "pp512", "p", "", "p-5"])
def test_anything_else_is_no_percentile(name):
    assert percentile(name) is None


def test_a_name_that_is_no_tidy_form_is_no_statistic():
    assert not is_statistic("P25") and not is_statistic("p99.90") and not is_statistic("p100")
    assert is_statistic("count") and is_statistic("p99.9")


def test_vllm_metric_percentiles_are_kept_in_the_table():
    block = (
        "============ Serving Benchmark Result ============\n"
        "Successful requests:                     10\n"
        "P1 TTFT (ms):                            11.0\n"
        "P25 TTFT (ms):                           12.0\n"
        "P99.9 TTFT (ms):                         19.0\n"
        "==================================================\n"
    )
    t = vllm_serve.parse(block, "x.txt").table
    got = dict(zip(t["statistic"], t["value"], strict=True))
    assert got == {"count": 10.0, "p1": 11.0, "p25": 12.0, "p99.9": 19.0}
