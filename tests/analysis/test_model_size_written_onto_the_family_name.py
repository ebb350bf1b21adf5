"""A model's size written onto its family's name with no separator (`opt350m`, `qwen7b`) is the size in
its name, as `opt-350m` is; a family name that ends in a number without a unit (`llama2`, `gpt2`)
carries none."""

from __future__ import annotations

import pytest

from benchbook import hardware


@pytest.mark.parametrize(("name", "billions"), [("opt350m", 0.35), ("qwen7b", 7.0), ("opt-350m", 0.35)])
def test_a_glued_size_is_the_size_in_the_name(name, billions):
    assert hardware.model_size(name).total_b == billions


@pytest.mark.parametrize("name", ["llama2", "gpt2", "gemma3"])
def test_a_number_without_a_unit_is_no_size(name):
    assert hardware.model_size(name) is None
