"""The quantization chapter's lesson on a roofline: one decode step per weight, the ideal speed-ups
of 8-bit weights, and the device the lesson works on (peaks: 100 TFLOP/s, 200 int8 TOP/s, 1000 GB/s)."""

import numpy as np

from benchbook.analysis import quant


def test_a_decode_step_takes_the_longer_of_reading_a_weight_and_multiplying_it():
    # batch 1: 2 bytes / 1e12 B/s = 2e-12 s beats 2 FLOPs / 1e14 FLOP/s; batch 1000: 2000 / 1e14 = 2e-11 s
    assert quant.step_seconds(1, 2.0, 100, 1000) == 2e-12
    assert quant.step_seconds(1000, 1.0, 100, 1000) == 2e-11


def test_8_bit_weights_halve_a_step_until_their_multiplies_set_the_pace():
    sp = quant.ideal_speedups([1, 1000], tflops=100, int8_tops=200, bandwidth_gb_s=1000)
    # w8a16 at batch 1000: 2e-11 s either way (compute-bound); w8a8 at 200 TOP/s: 1e-11 s, still 2x
    np.testing.assert_allclose(sp["w8a16"], [2.0, 1.0])
    np.testing.assert_allclose(sp["w8a8"], [2.0, 2.0])
    assert set(quant.ideal_speedups([1], 100, None, 1000)) == {"w8a16"}


def test_the_lesson_is_an_example_only_when_the_input_names_no_device():
    example = quant.lesson(None)
    assert example.example is True
    assert example.device == quant.hardware.device(quant.EXAMPLE_DEVICE).name
