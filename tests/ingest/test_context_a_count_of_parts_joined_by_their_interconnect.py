"""A count of parts joined by their interconnect states that many of the part (`a 4 NVLink connected
H100-sxm-80GB`, `8 NVLink-connected A100s`), its variant words in any case (stop 60, half cl: TensorRT-LLM's
performance tuning guide names its 4 H100 SXM 80GB so, in lower case, and the pages said it names no device)."""

import pytest

from benchbook.ingest import context


def _read(line: str) -> tuple:
    ctx = context.read([line])
    return tuple(f.value for f in ctx.get("device")), tuple(f.value for f in ctx.get("device_count"))


@pytest.mark.parametrize(
    ("line", "device", "count"),
    [
        ("The command took around 20 minutes on a 4 NVLink connected H100-sxm-80GB.", "H100-sxm-80GB", 4),
        ("measured on 8 NVLink-connected A100s", "A100", 8),
        ("two boxes of 2 PCIe connected L40S", "L40S", 2),
    ],
)
def test_a_count_linked_to_a_part_states_that_many(line, device, count):
    assert _read(line) == ((device,), (count,))


@pytest.mark.parametrize(
    "line",
    [
        "we connected 4 nodes over InfiniBand",  # no part
        "4 NVLink connected ports per switch",  # a count of ports, no part's code
    ],
)
def test_a_link_phrase_without_a_part_states_none(line):
    assert _read(line) == ((), ())
