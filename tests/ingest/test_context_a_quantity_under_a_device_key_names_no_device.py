"""A device key whose value is a measured quantity, a number with its unit (optimum-benchmark's saved
report `+ gpu: 0.000041 (kWh)`, `GPU: 250 W`, `gpu: 97 %`), says what the device used or read, not which
device it is: no device is named (as a bare number under the key names none). A part's name under the
key is still one, with or without a number in it."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


def _devices(line: str) -> list:
    return [f.value for f in context.read([line, ""]).get("device")]


@pytest.mark.parametrize("line", ["\t\t+ gpu: 0.000041 (kWh)", "GPU: 250 W", "gpu: 97 %", "+ cpu: 0.004879 (kWh)"])
def test_a_quantity_names_no_device(line):
    assert _devices(line) == []


@pytest.mark.parametrize(("line", "part"), [("GPU: RTX 4090", "4090"), ("gpu: A100 80GB", "A100")])
def test_a_part_is_still_named(line, part):
    devices = _devices(line)
    assert devices and part in devices[0]
