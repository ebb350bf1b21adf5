"""A rate the context reads on a line whose number the tool's own row gives as its measured request
throughput (MLPerf endpoints' `QPS: 2323.27`) is what the run achieved: the run-facts list leaves it out; a
rate the file states elsewhere (a command's `--request-rate`, a labelled offered rate), or of another value on
that line, is kept."""

from __future__ import annotations

from benchbook.ingest import context
from benchbook.presentation import run_facts

TEXT = ["load_pattern: type=poisson", "QPS: 2323.27", "request_rate: 2340"]


def _rates(achieved):
    facts = {s.name: s for s in run_facts.stated(context.read(TEXT), achieved=frozenset(achieved))}
    return [lines for _, lines in facts["rate"].values] if "rate" in facts else []


def test_a_rate_on_the_tools_measured_throughput_line_is_left_out():
    assert _rates({(2, 2323.27)}) == [(3,)]


def test_a_rate_of_another_value_on_that_line_is_kept():
    # one line of a JSON export can hold the rate setting beside the measured throughput (GuideLLM's rate 5.0)
    assert sorted(_rates({(2, 2300.0)})) == [(2,), (3,)]


def test_a_rate_on_no_measured_line_is_kept():
    assert sorted(_rates(set())) == [(2,), (3,)]
