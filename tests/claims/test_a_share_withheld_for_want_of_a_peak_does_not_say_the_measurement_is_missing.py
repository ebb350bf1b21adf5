"""A share of a peak withheld because the device's peak is unknown names the peak alone: the measurement (GB/s,
TFLOP/s, a batch step's `achieved`) is on the page beside it, so "the input does not give the measurement to
compare with the peak" would deny what the page shows. Without a measurement, both are missing."""

from __future__ import annotations

from benchbook.claims import rules

BASE = dict(fraction=None, peak=None, device="GB10-128GB", unit="TFLOP/s")


def test_a_measured_compute_with_no_peak_names_only_the_peak():
    for key in ("achieved", "achieved_tflops", "achieved_gb_s"):
        status, why = rules.fraction_of_peak({**BASE, key: 6.6})
        assert status == "withheld" and why == "the input does not give the device's peak", key


def test_no_measurement_and_no_peak_names_both():
    status, why = rules.fraction_of_peak(dict(BASE))
    assert status == "withheld" and "the measurement to compare with the peak" in why and "peak" in why
