"""The quantization chapter's device where no manifest records the hardware: the one device the file
names around its tables is the run's; a run the file says spans several is set against no one device's
roofs (its bytes and FLOPs are split over them); the manifest's hardware wins over both."""

from __future__ import annotations

from benchbook.analysis import quant


def _where(text: str, hardware: str | None = None) -> dict:
    return {"hardware": hardware, "own_gpu_each": None} | quant.stated_devices(text)


def test_one_device_the_file_names_places_the_roofline():
    where = _where("# Qwen3 w8a8 on one GPU\n\nHardware: 1x H100 SXM\n")
    assert where["stated_count"] == 1
    peaks = quant.peaks("", quant.device_texts(where))
    assert peaks is not None and peaks.device.startswith("H100")


def test_a_run_over_eight_devices_is_set_against_no_one_devices_roofs():
    where = _where("# DeepSeek FP8\n\nSingle node (8× RTX PRO 6000 SM120), sglang v0.5.13.\n")
    assert where["stated_count"] == 8 and where["stated"]
    assert quant.device_texts(where) == []
    assert quant.peaks("", quant.device_texts(where)) is None
    # the lesson (one device's ridge) is still worked on the device the file names, not on an example
    assert not quant.lesson(quant.peaks("", where["stated"])).example


def test_the_manifests_hardware_wins_and_a_file_naming_nothing_places_nothing():
    assert quant.device_texts(_where("8x H100\n", hardware="NVIDIA A100-SXM4-80GB")) == ["NVIDIA A100-SXM4-80GB"]
    where = _where("# a quantization sweep\n\nno hardware line here\n")
    assert where["stated"] == [] and quant.device_texts(where) == []
    assert quant.lesson(quant.peaks("", where["stated"])).example
