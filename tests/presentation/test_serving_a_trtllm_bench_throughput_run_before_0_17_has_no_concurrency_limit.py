"""trtllm-bench's load worded by the version that sent it (stop 60, cj, class 4/6): TensorRT-LLM's release notes
(0.17.0, API changes) say "Added `--concurrency` support for the `throughput` subcommand of `trtllm-bench`", so a
throughput run whose report prints an earlier version (0.12.0 here) had no `--concurrency` limit: every request went
into the queue and the engine's scheduler took them up to its max batch size. A 0.17 run, a latency run (whose
command is not named in that note) and a run of no stated version keep the `--concurrency` wording."""

from __future__ import annotations

import pytest

from benchbook import config
from benchbook.analysis import serving
from benchbook.presentation import serving as show

V012 = config.FIXTURES_DIR / "trtllm-bench/trtllm_bench_0.12_perf_overview_statistics_llama2_7b_fp8_excerpt.md"


def _apart():
    r = serving.load([V012])[0]
    return r[serving.apart(r, "max_concurrency")].copy()


def test_a_0_12_throughput_run_is_said_to_have_had_no_concurrency_limit():
    ap = _apart()
    assert serving.without_concurrency_option(ap).tolist() == [True]
    note = show.apart_message(ap, "max_concurrency", drawn=False)
    assert "the engine's scheduler takes them up to its max batch size (4,096, as the report prints it)" in note
    assert "TensorRT-LLM 0.12.0's throughput command had no `--concurrency` limit (it came in 0.17)" in note
    assert "none stated" not in note


@pytest.mark.parametrize(
    "old, new",
    [("version=0.12.0", "version=0.17.0"), ("subcommand=throughput", "subcommand=latency"), ("version=0.12.0; ", "")],
)
def test_a_version_with_the_option_or_an_unknown_one_keeps_the_concurrency_wording(old, new):
    ap = _apart()
    ap["metadata"] = ap["metadata"].str.replace(old, new, regex=False)
    assert serving.without_concurrency_option(ap).tolist() == [False]
    note = show.apart_message(ap, "max_concurrency", drawn=False)
    assert "up to its `--concurrency` limit, none stated for this run" in note and "came in 0.17" not in note
