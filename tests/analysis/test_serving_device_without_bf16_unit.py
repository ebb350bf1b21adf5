"""A device with no bf16 unit (gfx906's MI50, Volta's V100: the hardware table lists fp16 only)
computes 16-bit weights at its fp16 rate, so the serving roofline labels that peak fp16, never a
"bf16 peak" the device does not have; a device that lists bf16 keeps it. Likewise a device with no unit at the
weights' width (an A100 and fp8, an H100 and fp4) runs them weight-only, widened to 16 bits: its 16-bit peak is
the one they are set against, and so named, never a "dense fp8 peak" the device does not have."""

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


def test_an_fp8_checkpoint_on_a_device_with_an_fp8_unit_keeps_fp8():
    row = serving.decode_roofline(LIT, 8.0, 1.0, roofline.choose("H100-SXM5-80GB", []), "fp8").iloc[0]
    assert row["precision"] == "fp8" and row["peak_tflops"] == pytest.approx(1978.9)


def test_an_fp8_checkpoint_on_a_device_without_one_takes_the_16_bit_peak_by_its_name():
    row = serving.decode_roofline(LIT, 8.0, 1.0, roofline.choose("A100-SXM4-80GB", []), "fp8").iloc[0]
    assert row["precision"] == "bf16" and row["peak_tflops"] == pytest.approx(312)
    row = serving.decode_roofline(LIT, 8.0, 1.0, roofline.choose("MI50-32GB", []), "fp8").iloc[0]
    assert row["precision"] == "fp16" and row["peak_tflops"] == pytest.approx(26.5)
    row = serving.decode_roofline(LIT, 8.0, 0.5, roofline.choose("H100-SXM5-80GB", []), "fp4").iloc[0]
    assert row["precision"] == "bf16" and row["peak_tflops"] == pytest.approx(989.4)
