"""Why no share of a peak is stated: a device the file names that the table lacks, or a line that
speaks of one unread, is named with its line; only a file with no sign of a device reads as none."""

from __future__ import annotations

from benchbook.analysis import roofline, tp
from benchbook.claims import rules


def _reason(text: str) -> str:
    device = tp.device_peaks(texts=[text])
    assert device["device"] is None
    ev = {"fraction": None, "peak": None, "device": None, "peak_source": None, **device["said"]}
    verdict, reason = rules.fraction_of_peak(ev)
    assert verdict == "withheld" and not rules.MISSING_WORDS.search(reason)  # reads as no missing value
    return reason


def test_a_device_the_table_lacks_is_named_with_its_line():
    reason = _reason("# Run\n\n- **GPU**: 4 × NVIDIA H20-3e\n")
    assert "names NVIDIA H20-3e (line 3)" in reason and "neither the input" not in reason


def test_a_line_that_speaks_of_a_device_unread_is_named():
    reason = _reason("intro\nAll runs used the same GPU.\n")
    assert reason.startswith("line 2 of the input speaks of a device")


def test_no_sign_of_a_device_reads_as_none_named():
    assert _reason("Throughput: 100 tok/s\n") == rules.NO_DEVICE


def test_a_device_the_table_knows_gives_no_reason_fields():
    assert tp.device_peaks(texts=["GPU: 2x A100 80GB\n"])["device"] == "A100-SXM4-80GB"
    assert roofline.said(roofline.named(["GPU: 2x A100 80GB\n"])) == {}
