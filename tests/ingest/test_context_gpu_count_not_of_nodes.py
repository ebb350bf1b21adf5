"""A count of GPUs is the run's device count; `2 GPU nodes` counts nodes and `8 GPUs each` (`per
node`) one node's GPUs, neither the run's (the two on one line count all the nodes' GPUs); a `Total GPUs:` line states it and `Number of nodes:` the nodes."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


@pytest.mark.parametrize(
    ("line", "count"),
    [
        ("We ran it on 8 GPUs.", [8]),
        ("- Total GPUs: 16", [16]),
        ("- Number of nodes: 2 GPU nodes", []),
        ("Distributed execution across 2 nodes × 8 GPUs each (16 total).", [16]),  # both counts: all GPUs
        ("A cluster of 4 GPUs per node.", []),
    ],
)
def test_a_gpu_count_is_the_runs_only_where_it_counts_the_runs_gpus(line, count):
    assert context.read([line]).values("device_count") == count


def test_number_of_nodes_is_the_nodes():
    assert context.read(["- Number of nodes: 2"]).values("nodes") == [2]
