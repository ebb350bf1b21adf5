"""A sentence giving each machine of a kind its devices (`Each MI355X platform comes with 8 MI355X GPUs`) counts
the devices a run on one such machine spans, and names the device where it names one; the rest of its line may
still tie the run to a count of its own (`we used 1 GPU`), which then is the line's only count."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


def _facts(lines, name):
    return [(f.value, f.line) for f in context.read(lines).get(name)]


@pytest.mark.parametrize(
    ("line", "count", "device"),
    [
        (
            "Each [MI355X platform](https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x/platform.html)"
            " comes with 8 MI355X GPUs. In the clusters where the multi-node benchmarks were run, some GPUs were not"
            " in a healthy state.",
            8,
            "MI355X",
        ),
        ("Each server is equipped with 4 A100 accelerators.", 4, "A100"),
        ("Each node has 8 GPUs.", 8, None),
    ],
)
def test_each_machine_comes_with_n_devices_is_a_count(line, count, device):
    assert _facts([line], "device_count") == [(count, 1)]
    assert _facts([line], "device") == ([(device, 1)] if device else [])


def test_a_count_the_rest_of_the_line_ties_the_run_to_is_the_lines_only_count():
    assert _facts(["Each node has 8 GPUs; the run used 1 GPU."], "device_count") == [(1, 1)]


@pytest.mark.parametrize(
    "line",
    [
        "Each MI355X GPU has 8 XCD chiplets.",  # a device's own parts, no machine's devices
        "Each request has 8 images.",  # no device at all
    ],
)
def test_a_sentence_that_gives_no_machine_its_devices_counts_none(line):
    assert _facts([line], "device_count") == []
