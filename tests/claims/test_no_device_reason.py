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


def test_a_family_of_table_parts_is_named_as_those_parts_never_as_no_device():
    """`on H100` names a part the table holds as three rows of different peaks (PCIe, SXM5, NVL): the
    reason names the family and its rows, and assumes none; a part of one row (`on L40S`) is taken, and
    a part the table lacks (`on P100`) is named as such."""
    reason = _reason("Run with sdpa and colfax_cutlass on H100:\n")
    assert (
        "names H100 (line 1), which is the hardware table's H100-NVL-94GB, H100-SXM5-80GB or H100-PCIe-80GB" in reason
    )
    assert "neither the input" not in reason and "lacks" not in reason
    assert tp.device_peaks(texts=["Run on L40S:\n"])["device"] is not None
    assert "names P100 (line 1), which the hardware table lacks" in _reason("Run on P100:\n")


def test_a_printed_device_without_a_peak_is_named_in_the_reason_never_called_not_given():
    """The SYCL llama-bench files print gpu_info (an Arc Pro B70) the hardware table lacks: the reason names
    it and the missing peak, not "the input does not give ... the device" nor the measurement it has."""
    ev = dict(achieved_gb_s=185.2, fraction=None, peak=None, device=None, peak_source="unknown", streaming=True)
    ev.update(active_params_b=3.0, bytes_per_token=1.83e9)
    status, why = rules.fraction_of_peak({**ev, "printed_device": "Intel(R) Arc(TM) Pro B70 Graphics"})
    assert status == "withheld" and "names Intel(R) Arc(TM) Pro B70 Graphics" in why
    assert "does not give" not in why
    status, why = rules.fraction_of_peak(ev)  # nothing printed: the device is not given, and said so
    assert status == "withheld" and "the input does not give the device's peak and the device" in why
    assert "the measurement to compare with the peak" not in why


def test_bytes_per_token_missing_for_want_of_requests_in_flight_names_that_not_the_bytes():
    """The weights are known (1 byte per weight x 70.5 B) but the output prints no latency, so the requests
    sharing each read are unknown: the reason names them; without the model size it still names the size."""
    ev = dict(fraction=None, peak=None, device=None, peak_source="unknown", streaming=True, bytes_per_token=None)
    _, why = rules.fraction_of_peak({**ev, "active_params_b": 70.55, "in_flight": None})
    assert "the requests in flight" in why and "bytes moved per token" not in why
    _, why = rules.fraction_of_peak({**ev, "active_params_b": None, "in_flight": None})
    assert "the model's size" in why and "bytes moved per token" in why


def test_a_run_of_unknown_mode_names_its_host_cpu_not_none():
    ev = {"mode": "unknown", "host_cpu": "Accelerate, Apple M3 Max", "line": 5}
    reason = rules.no_device_reason(ev)
    assert "CPU column names the host, Accelerate, Apple M3 Max (line 5)" in reason
    assert "neither the input" not in reason


def test_a_host_cpu_of_a_run_of_known_mode_is_no_reason():
    assert rules.no_device_reason({"mode": "gpu", "host_cpu": "Apple M3 Max", "line": 5}) == rules.NO_DEVICE


def test_devices_named_in_several_headings_are_named_with_where_they_stand():
    reason = _reason("## A100 80GB\nx\n## L40S\ny\n")
    assert reason.startswith("the input names A100 80GB and L40S in the headings of lines 1 and 3 and does not say")
