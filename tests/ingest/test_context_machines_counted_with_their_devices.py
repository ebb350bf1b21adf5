"""A count of servers or nodes counts machines, never devices (`5x AMD MI300X servers` is five machines);
a line that counts the machines and each one's devices (`5x servers, each equipped with 8x MI300X GPUs`), or
the devices in total (`40 GPUs in total`), states every machine's devices: a count of scope "all GPUs"."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


def _counts(line: str) -> list[tuple[int, str | None]]:
    return [(f.value, f.scope) for f in context.read([line]).get("device_count")]


@pytest.mark.parametrize(
    ("line", "counts", "nodes"),
    [
        ("| GPU servers | 5x servers, each equipped with 8x AMD MI300X GPUs |", [(40, "all GPUs"), (8, None)], [5]),
        ("Results on 5x AMD MI300X servers (40 GPUs in total).", [(40, "all GPUs")], [5]),
        ("Distributed execution across 2 nodes × 8 GPUs each (16 total).", [(16, "all GPUs")], [2]),
        ("A cluster with a total of 16 H100 GPUs.", [(16, "all GPUs")], []),
        ("We ran it on 2 nodes.", [], [2]),
        ("We ran it on 8x H100.", [(8, None)], []),
        ("We ran it on 8 GPUs.", [(8, None)], []),
    ],
)
def test_machines_are_counted_as_nodes_and_all_their_devices_as_one_total(line, counts, nodes):
    assert _counts(line) == counts
    assert context.read([line]).values("nodes") == nodes


@pytest.mark.parametrize(
    ("line", "instances"),
    [
        ("| PD disaggregation | 2x prefill, 3x decode instances |", [5]),
        ("one prefill server on node-1, one decode server on node-2", [2]),
        ("We tried 2x prefill throughput.", []),
    ],
)
def test_prefill_and_decode_instances_counted_with_the_noun_said_once(line, instances):
    assert context.read([line]).values("instances") == instances


def test_a_count_before_a_machine_in_the_singular_counts_its_devices():
    facts = context.read(["**Why an 8x B200 Node is Mandatory:**"])
    assert (facts.values("device_count"), facts.values("nodes")) == ([8], [])
