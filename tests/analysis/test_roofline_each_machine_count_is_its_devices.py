"""A count a sentence gives each machine (`Each MI355X platform comes with 8 MI355X GPUs`) is the devices a run on
that device spans, unless the file ties the run to a count of its own (`The run used 1 GPU`), or the sentence
counts another device than the one the run ran on (a DGX A100's eight A100s beside a run on an MI300X)."""

from __future__ import annotations

import pytest

from benchbook.analysis import roofline


@pytest.mark.parametrize(
    ("text", "device", "count"),
    [
        ("Each [MI355X platform](https://example.com/mi355x.html) comes with 8 MI355X GPUs.\n", "MI355X", 8),
        ("We ran on an MI300X.\nEach node has 8 MI300X GPUs.\n", "MI300X", 8),
        ("Each node has 8 GPUs.\nThe run used 1 GPU.\nWe ran on an MI300X.\n", "MI300X", 1),
        ("Each node has 8 GPUs. The run used 1 GPU on an MI300X.\n", "MI300X", 1),
        ("Our run was on an MI300X.\nEach DGX A100 server comes with 8 A100 GPUs.\n", "MI300X", 1),
    ],
)
def test_each_machines_count_is_the_runs_only_for_its_device_and_no_count_of_its_own(text, device, count):
    found = roofline.named([text])
    assert (found.device, found.count) == (device, count)
