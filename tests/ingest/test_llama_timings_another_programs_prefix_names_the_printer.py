"""Timing lines another program prints with its own prefix (ipex-llm's `bigdl-llm timings: eval time = ...`) are
that program's, and a page names it; llama.cpp's own prints (`llama_print_timings:`) stay llama.cpp's."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.presentation import bandwidth as show

LINES = "{p} prompt eval time =   793.32 ms /    13 tokens (   61.02 ms per token)\n{p}        eval time =  9670.69 ms /    76 runs   (  127.25 ms per token)\n"


@pytest.mark.parametrize(
    ("prefix", "printer"),
    [("bigdl-llm timings:", "bigdl-llm timings"), ("llama_print_timings:", None)],
)
def test_the_prefix_of_the_timing_lines_names_their_printer(tmp_path, prefix, printer):
    p = tmp_path / "t.txt"
    p.write_text(LINES.format(p=prefix))
    df = ingest.read(p, tool="llama-timings")
    assert show._printer(df["format"].dropna().iat[-1] if df["format"].notna().any() else None) == printer
