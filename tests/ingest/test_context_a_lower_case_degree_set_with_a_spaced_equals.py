"""A parallel degree set in lower case with a spaced `=` in prose (`on NVIDIA B200, tp = 2`) is that degree, as
the unspaced assignment `tp=2` is; it is read once, and a lower-case `pp` stays llama-bench's prompt test."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


@pytest.mark.parametrize(
    ("line", "name", "values"),
    [
        ("Add fused MoE config for GLM-4.5-Air-FP8 on NVIDIA B200, tp = 2", "tp", [2]),
        ("measured with ep =8 on one node", "ep", [8]),
        ("Qwen-32B(dp=2, tp=4)", "tp", [4]),
        ("prompt processing pp = 512 tokens", "pp", []),
        ("the stop sequence was tp =", "tp", []),
    ],
)
def test_a_spaced_lower_case_degree_is_read_once(line, name, values):
    assert [f.value for f in context.read([line]).get(name)] == values
