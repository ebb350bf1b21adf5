"""Triton's `triton.testing.perf_report` print (a frame's name line, a pandas header, rows from index 0: real
ones in facebookexperimental/triton PRs 206 and 1589) is a Triton script's, not a tritonbench operator table:
refused in one sentence naming its name line and the frame, never "no known tool output found"; a line
ending in a colon above no such frame is not taken for one."""

from __future__ import annotations

from benchbook.ingest import tritonbench

FRAME = (
    "```\n"
    "fused-attention-batch4-head32-d128:\n"
    "     N_CTX  Triton [FP16]\n"
    "0   1024.0     406.800371\n"
    "1   2048.0     427.772150\n"
    "```\n"
)


def test_a_perf_report_frame_is_refused_naming_its_line_and_name():
    line, why = tritonbench.refuses(FRAME)
    assert line == 2
    assert "perf_report frame `fused-attention-batch4-head32-d128`" in why and "not a tritonbench operator table" in why


def test_a_colon_line_over_prose_is_no_frame():
    assert tritonbench.refuses("Results:\nthe kernel was faster\n0 regressions\n") is None


def test_a_pandas_frame_of_integers_is_no_perf_report():
    assert tritonbench.refuses("results:\n   batch  tok_s\n0      1   23\n") is None
