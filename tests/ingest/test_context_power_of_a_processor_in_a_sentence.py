"""A processor at a power in a sentence (`both the CPU at 1.9W and the GPU at 2.4W`) is a power reading
though the line has no `power` word (a Jetson Nano write-up under its llama-bench table); a percentage
or a number with no watt unit is none."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


@pytest.mark.parametrize(
    ("line", "watts"),
    [
        ("Now both the CPU at 1.9W and the GPU at 2.4W are at 100% and :", (1.9, "W")),
        ("Now the CPU is only partly used with 650 mW, but the GPU is at 100% and 3.2W:", (650.0, "mW")),
        ("The GPU is at 100% utilization the whole run.", None),
        ("We ran it at 3W on the bench supply.", None),  # no processor named: not the device's draw
    ],
)
def test_a_processor_at_a_power_is_a_reading(line, watts):
    facts = context.read([line]).get("power")
    assert [(f.value, f.unit) for f in facts] == ([watts] if watts else [])
