"""A number sign before a key's noun reads "number of": `"#GPUs": 4` states the run's device count;
a key whose `num_` form names no fact (`#Input tokens`) states nothing, and a Markdown heading
(`# GPUs: 8`, a space after the sign) is not a key."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


@pytest.mark.parametrize(
    ("lines", "count"),
    [
        (['{"GPU model": "NVIDIA A100-SXM4-40GB",', '  "#GPUs": 4,'], [4]),
        (["#GPUs: 8"], [8]),
        (["# GPUs: 8"], []),
        (["#Input tokens: 55787"], []),
    ],
)
def test_a_number_sign_key_counts_what_it_names(lines, count):
    assert context.read(lines).values("device_count") == count


def test_a_number_sign_key_is_not_a_device_name():
    assert "4" not in [str(v) for v in context.read(['{"#GPUs": 4}']).values("device")]
