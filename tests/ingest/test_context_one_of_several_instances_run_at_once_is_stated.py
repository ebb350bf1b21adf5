"""One of several benchmark instances run at once is stated (stop 60, cj, class 1): a harness line saying
`(4 instances concurrently)` (a ROCm machine's notes: one llama-batched-bench per die, four at once) makes the
output one instance's of four loading the machine together, and the run facts say so with the line. A line that
speaks of instances without running them together (a disaggregated `1P1D`, a count of instances alone) says no
such thing."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.presentation import run_facts

FLAGS = "# flags: --device rocm0 -sm none -fa on -npl 8 -npp 2048,8192 -c 67584 {tail}\n"


def _at_once(text: str) -> list[tuple[int, int]]:
    return [(f.value, f.line) for f in ingest.context_of_text(text).get("instances_at_once")]


@pytest.mark.parametrize(
    "tail", ["(4 instances concurrently)", "- 4 instances run at once", "(2 processes simultaneously)"]
)
def test_instances_run_together_are_stated_with_their_line(tail):
    n = int(next(w for w in tail.split() if w.strip("(").isdigit()).strip("("))
    assert _at_once("# qwen dp4 die0\n" + FLAGS.format(tail=tail)) == [(n, 2)]


def test_the_run_facts_say_this_output_is_one_of_them():
    ctx = ingest.context_of_text("# qwen dp4 die0\n" + FLAGS.format(tail="(4 instances concurrently)"))
    said = {s.label: s.values for s in run_facts.stated(ctx)}
    assert said["instances run at once (this output is one of them)"] == (("4", (2,)),)


@pytest.mark.parametrize(
    "line", ["# 1P1D: 2 instances, one prefill and one decode\n", "We ran 4 instances in total, one after another\n"]
)
def test_instances_not_run_together_are_not_said_to_be(line):
    assert _at_once(line) == []
