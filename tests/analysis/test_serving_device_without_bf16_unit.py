"""A device with no bf16 unit (gfx906's MI50, Volta's V100: the hardware table lists fp16 only)
computes 16-bit weights at its fp16 rate, so the serving roofline labels that peak fp16, never a
"bf16 peak" the device does not have; a device that lists bf16 keeps it."""

import pandas as pd
import pytest

from benchbook.analysis import roofline, serving

LIT = pd.DataFrame({"run": ["a"], "in_flight": [4.0], "output_throughput": [40.0], "total_token_throughput": [60.0]})


def test_a_device_listing_fp16_only_takes_its_fp16_peak_as_fp16():
    row = serving.decode_roofline(LIT, 8.0, 2.0, roofline.choose("MI50-32GB", [])).iloc[0]
    assert row["precision"] == "fp16" and row["peak_tflops"] == pytest.approx(26.5)


def test_a_device_with_a_bf16_peak_keeps_bf16():
    row = serving.decode_roofline(LIT, 8.0, 2.0, roofline.choose("RTX-PRO-6000-Blackwell-WS", [])).iloc[0]
    assert row["precision"] == "bf16"


def test_an_fp8_checkpoint_is_not_relabelled():
    row = serving.decode_roofline(LIT, 8.0, 1.0, roofline.choose("MI50-32GB", []), "fp8").iloc[0]
    assert row["precision"] == "fp8"
