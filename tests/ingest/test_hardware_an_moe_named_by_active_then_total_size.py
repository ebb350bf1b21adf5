"""An MoE named by two sizes in a row, the smaller first (AllenAI's `OLMoE-1B-7B`: 1B active, 7B total, as its
model card says), gives both counts; a name with one size, the sizes the other way round, or a dense name keeps
the first size as the total."""

from __future__ import annotations

import pytest

from benchbook import hardware


@pytest.mark.parametrize(
    ("model", "total", "active"),
    [
        ("allenai/OLMoE-1B-7B-0125", 7.0, 1.0),
        ("OLMoE-1B-7B-0924-Instruct-Q4_0.gguf", 7.0, 1.0),
        ("some-moe-7B-1B", 7.0, None),  # the larger first: no active count said
        ("tiny-dense-1B-7B", 1.0, 1.0),  # not an MoE name: one size, the first
    ],
)
def test_two_sizes_of_an_moe_name_are_its_active_then_total(model, total, active):
    size = hardware.model_size(model)
    assert (size.total_b, size.active_b) == (total, active)
