"""A bare `T4` is NVIDIA's T4 only where the sentence makes it a device (after an article or `on`, before
`GPU`/`card`): `I use a T4 to test` names it, a `T4` cell or tier does not. MLPerf v0.5 named its object
detectors `SSD-small` (ssd-mobilenet) and `SSD-large` (ssd-resnet34): a sentence naming one speaks of the
run's model, so no page says the file names none."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


def _devices(line):
    return [f.value for f in context.read([line]).get("device")]


@pytest.mark.parametrize(
    ("line", "device"),
    [
        ("I use a T4 to test and set Target_qps to 59704", "T4"),
        ("the run was on T4 with the NVIDIA harness", "T4"),
        ("tested with one T4 and the NVIDIA harness", "T4"),
        ("T4 GPU, 16 GB, driver 450", "T4"),
    ],
)
def test_a_bare_t4_the_sentence_makes_a_device_is_named(line, device):
    assert _devices(line) == [device]


@pytest.mark.parametrize(
    "line", ["Tier T4 of the price list", "cells T4 to T9 hold the totals", "a T4 slot on the board"]
)
def test_a_bare_t4_elsewhere_names_no_device(line):
    assert _devices(line) == []


@pytest.mark.parametrize("name", ["SSD-small", "SSD-large", "ssd-mobilenet"])
def test_an_mlperf_v05_benchmark_name_is_a_model_spoken_of(name):
    ctx = context.read([f"I use version v0.5 benchmark on {name} and the NVIDIA code"])
    assert any(s.name == "model" and s.line == 1 for s in ctx.signs)


def test_a_line_with_no_benchmark_name_speaks_of_no_model():
    ctx = context.read(["I use version v0.5 benchmark and the NVIDIA code"])
    assert not any(s.name == "model" for s in ctx.signs)


@pytest.mark.parametrize(
    ("line", "device"),
    [
        ("YES, the `performance_sample_count` is reasonable now on Pixel 10.", "Pixel 10"),
        ("tested on a Google Pixel 9 Pro with the TFLite backend", "Google Pixel 9 Pro"),
        ("Bert Large and GPT-J 6B take about 10 mins with 1 RNGD card", "RNGD"),
    ],
)
def test_a_phone_or_an_npu_the_table_lacks_is_named(line, device):
    assert _devices(line) == [device]


def test_a_pixel_count_of_an_image_names_no_phone():
    assert _devices("the image is 1024 pixels wide") == []
