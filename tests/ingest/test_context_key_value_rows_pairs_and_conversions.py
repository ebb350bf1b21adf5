"""A key-value row (a write-up's settings table) states more than one fact where its key joins names with `/`
and its value as many values (`GPUs / TP | 8 / 8`); a whole number under a plural device key is how many;
a stated conversion of the weights (`bfloat16 → quant-FP8`, TensorRT-LLM's engine dtype quantized) is the run's
precision, its target."""

from __future__ import annotations

import pytest

from benchbook.ingest import context

HEAD = ["| Setting | Value |", "|---|---|"]


def _facts(*rows: str) -> dict:
    c = context.read([*HEAD, *rows])
    return {f.name: f.value for f in c.facts if f.name != "heading"}


def test_a_key_joining_names_with_a_slash_states_each_value():
    assert _facts("| GPUs / TP | 8 / 8 |") == {"device_count": 8, "tp": 8}


def test_a_slashed_key_whose_value_has_another_count_of_parts_states_none():
    assert _facts("| GPUs / TP | 8 |") == {}


@pytest.mark.parametrize(("row", "facts"), [("| GPUs | 4 |", {"device_count": 4}), ("| GPU | 4 |", {})])
def test_a_whole_number_under_a_plural_device_key_is_the_count(row, facts):
    assert _facts(row) == facts


@pytest.mark.parametrize(
    ("value", "precision"),
    [("bfloat16 → quant-FP8", "FP8"), ("fp16 -> int8", "int8"), ("bfloat16", "bfloat16")],
)
def test_a_stated_conversion_is_the_runs_precision(value, precision):
    assert _facts(f"| Engine dtype | {value} |") == {"precision": precision}
