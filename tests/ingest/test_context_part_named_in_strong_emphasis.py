"""A part a sentence says a run ran on is read through Markdown's strong-emphasis marks (`Based on
**NVIDIA A30 + Llama-3.1-8B-Instruct**`): the marks are markup, never part of a name. The rule still
reads no part where the words between the marks name none (`on **FP16**`)."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


def _devices(line):
    return [f.value for f in context.read([line]).get("device")]


@pytest.mark.parametrize(
    ("line", "device"),
    [
        ("Based on **NVIDIA A30 + Llama-3.1-8B-Instruct**:", "NVIDIA A30"),
        ("Based on NVIDIA A30 + Llama-3.1-8B-Instruct:", "NVIDIA A30"),
        ("Numbers measured on __MI250__ last week", "MI250"),
    ],
)
def test_a_part_in_strong_emphasis_is_the_runs(line, device):
    assert _devices(line) == [device]


@pytest.mark.parametrize("line", ["Results on **FP16** weights", "Based on **the defaults**:"])
def test_emphasis_that_names_no_part_reads_none(line):
    assert _devices(line) == []
