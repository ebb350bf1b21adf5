"""A device key whose value is a count in words of counting (`**GPUs**: 16 total (8 per rank)`, `GPUs: 8 in
total`) says how many devices the run has, not which: the first number is the device count and no device is
named. A count per part alone (`GPUs: 8 per node`) is neither a name nor the run's count. A part's name
beside a count (`GPUs: 8 x H100`, `GPU: H100 (8 per node)`) is still read as a name."""

from __future__ import annotations

from benchbook.ingest import context


def _facts(line: str) -> tuple[list, list]:
    ctx = context.read([line, ""])
    return [f.value for f in ctx.get("device")], [f.value for f in ctx.get("device_count")]


def test_a_total_with_a_per_rank_count_is_a_count_not_a_name():
    assert _facts("- **GPUs**: 16 total (8 per rank)") == ([], [16])


def test_a_count_in_total_is_a_count_not_a_name():
    assert _facts("GPUs: 8 in total") == ([], [8])


def test_a_count_per_node_alone_is_neither():
    devices, counts = _facts("GPUs: 8 per node")
    assert devices == [] and 8 not in counts


def test_a_counted_part_is_still_named():
    devices, counts = _facts("GPUs: 8 x H100")
    assert devices == ["H100"] and counts == [8]


def test_a_part_with_a_per_node_count_is_still_named():
    devices, _ = _facts("GPU: H100 (8 per node)")
    assert devices and "H100" in devices[0]
