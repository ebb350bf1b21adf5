"""A caption (a heading over a fenced block) names the block under it: the heading of a second, cut block below
every run the tool read (`TP4 after PR:`) gives those runs no TP, so no device count; the same heading over the
block read gives it its TP 4."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import serving

BLOCK = ["```text", "Successful requests: 128", "Output token throughput (tok/s): 862.09", "```", ""]


def _devices(tmp_path, lines: list[str], read: int) -> int:
    f = tmp_path / "run.md"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = pd.DataFrame({"source": ["run.md"], "model": ["org/M"], "metadata": [None], "line": [read]})
    return serving.devices(serving.parallelism_from_context(r, [f]))


def test_the_heading_of_a_cut_block_below_the_run_gives_it_no_tp(tmp_path):
    lines = ["# Add a kernel", "", *BLOCK, "TP4 after PR:", "", "```text", "Successful requests: 128"]
    assert _devices(tmp_path, lines, 4) == 1


def test_the_same_heading_over_the_block_read_gives_it_tp_4(tmp_path):
    lines = ["# Add a kernel", "", "TP4 after PR:", "", *BLOCK]
    assert _devices(tmp_path, lines, 6) == 4
