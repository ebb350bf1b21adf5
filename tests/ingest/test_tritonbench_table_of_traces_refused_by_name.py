"""A tritonbench table whose only metric is `kineto_trace` (`--metrics kineto_trace`: each cell the directory
the input's trace was written to) holds no measurement: refused naming its header's line. A table with a
timing beside it is read."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import tritonbench

TRACES = """$ python run.py --op flash_attention --num-inputs 1 --metrics kineto_trace --only flash_v3

  (Batch, Heads, SeqLen, Dhead)                                      flash_v3-kineto_trace
-------------------------------  ---------------------------------------------------------
               (4, 48, 128, 64)  ~/traces/flash_attention/kineto_traces/flash_v3_0
"""

TIMED = TRACES.replace("flash_v3-kineto_trace", "flash_v3-latency").replace(
    "~/traces/flash_attention/kineto_traces/flash_v3_0", "0.012"
)


def test_a_table_of_trace_directories_is_refused_naming_its_header(tmp_path):
    assert tritonbench.refuses(TRACES) == (
        3,
        "a tritonbench table whose only metrics are `kineto_trace`: each cell the directory a Kineto trace of "
        "that input was written to, no kernel time or TFLOP/s; not read",
    )
    p = tmp_path / "traces.md"
    p.write_text(TRACES, encoding="utf-8")
    with pytest.raises(ingest.ParseError, match=r"traces\.md:3: a tritonbench table whose only metrics"):
        ingest.read_parsed(p)


def test_a_table_with_a_timing_refuses_nothing():
    assert tritonbench.refuses(TIMED) is None
    assert (
        tritonbench.refuses(
            (config.FIXTURES_DIR / "tritonbench" / "tritonbench_pr179_tk_tflops.txt").read_text(encoding="utf-8")
        )
        is None
    )
