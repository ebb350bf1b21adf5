"""TP x PP x DP counts parallel ranks; a rank is one device as its runtime counts them: a GPU, or on AWS
Neuron a NeuronCore (`neuron-ls` gives each Inferentia2 device 2). Where the input's device listing gives a
device several cores, the serving page says the ranks span cores and how many devices they fill; otherwise
it says devices."""

from __future__ import annotations

from benchbook.analysis import precision
from benchbook.presentation import serving as show

UNKNOWN = precision.Weights(None, float("nan"), "not stated")


def _sentence(said: dict) -> str:
    return show.device_sentence(None, "org/m-8b", 8.0, 8.0, "input", UNKNOWN, spans=24, said=said)


def test_ranks_on_a_device_of_several_cores_are_cores_and_fill_fewer_devices():
    text = _sentence({"cores": 2, "cores_line": 22})
    assert "Each run spans 24 cores" in text
    assert "the device listing at line 22 gives each device 2 cores, so 12 devices" in text
    assert "24 devices" not in text


def test_ranks_with_no_core_listing_are_devices():
    text = _sentence({})
    assert "Each run spans 24 devices, as the input says (TP x PP x DP)" in text
    assert "cores" not in text
