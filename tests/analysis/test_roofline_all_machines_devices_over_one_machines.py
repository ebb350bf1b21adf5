"""A run over several machines spans every machine's devices: a count the file states over all of them
(`5x servers, each equipped with 8x AMD MI300X GPUs`) outranks one machine's (`GPU: 8x AMD Instinct MI300X`),
unless the file states the devices the run used."""

from __future__ import annotations

import pytest

from benchbook.analysis import roofline

SERVERS = "| GPU servers | 5x servers, each equipped with 8x AMD MI300X GPUs |\n"
ONE_SERVER = "- GPU: 8x AMD Instinct MI300X OAM GPU 192 GB\n"


@pytest.mark.parametrize(
    ("text", "count"),
    [
        (SERVERS + ONE_SERVER, 40),
        ("This article runs on 5x AMD MI300X servers (40 GPUs in total).\n" + ONE_SERVER, 40),
        (ONE_SERVER, 8),
        (SERVERS + ONE_SERVER + "The run used 8 GPUs.\n", 8),
    ],
)
def test_a_count_over_all_machines_outranks_one_machines_unless_the_run_states_its_own(text, count):
    found = roofline.named([text])
    assert (found.device, found.count, found.counted) == ("MI300X", count, True)
