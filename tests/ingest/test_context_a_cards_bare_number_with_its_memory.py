"""A GeForce card named by its bare model number is that card where the memory written beside it is the
table's (`on 5090 (32GB memory)`: the RTX 5090's 32 GB); a number with another memory, or a port, names none."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


@pytest.mark.parametrize(
    ("line", "device"),
    [
        ("For a 30b FP8 MoE model (30GB model size) on 5090 (32GB memory), default setup will oom", ["RTX 5090"]),
        ("on 5090 (24GB)", []),
        ("the server on port 8000 (32GB free)", []),
    ],
)
def test_a_bare_model_number_is_a_card_only_beside_its_memory(line, device):
    assert [f.value for f in context.read([line]).get("device")] == device
