"""trtllm-bench logs its start (`[TRT-LLM] [I] Preparing to run throughput benchmark...`) first and its report
(ENGINE DETAILS ... PERFORMANCE OVERVIEW) last: a file with the start and no report is a run that stopped, or a
copy cut, before any result. It is refused naming its last line and saying so, not as "no known tool
output"; a file with the report is read as before."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError
from benchbook.ingest import trtllm_bench as tb

FAILED = (
    config.FIXTURES_DIR.parent.parent
    / "benchmarks/first_read/unread/trtllm-bench/etched_llama31_70b_fp8_tp8_isl16384_osl16384_50_failed_before_result.txt"
)
FULL = config.FIXTURES_DIR / "trtllm-bench" / "etched_llama31_70b_fp8_tp8_isl1024_osl1024_full_log.txt"


def test_a_started_run_with_no_report_is_refused_at_its_last_line():
    with pytest.raises(ParseError, match="logged its start") as e:
        ingest.read(FAILED)
    assert e.value.line == 2


def test_a_run_with_its_report_is_not_refused():
    assert tb.refuses(FULL.read_text()) is None
    assert len(ingest.read(FULL))


def test_a_text_without_the_start_line_is_not_claimed_by_the_rule():
    assert tb.refuses("[TensorRT-LLM] TensorRT-LLM version: 0.16.0\n") is None
