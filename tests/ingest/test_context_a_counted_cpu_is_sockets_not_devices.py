"""A count of a CPU product (`2x Xeon E5-2697A v4`, `xeon 2697A v4 x2`, `2x EPYC 9654`) in a heading or prose is
the machine's CPU and its sockets, never a device and a device count (`device: v4`); a count of GPUs beside a
CPU (`8xMI300X with 2x AMD EPYC 9374F`) still counts the GPUs; a counted name holding a comparison (`2x xeon Vs 2x
P100`) names two parts, so the line is a sign of a device, not one run's device."""

from __future__ import annotations

from benchbook.ingest import context


def _facts(line: str) -> dict:
    return {f.name: f.value for f in context.read([line]).facts if f.name != "heading"}


def test_a_cpu_counted_before_or_after_its_name_is_the_cpu_and_its_sockets():
    assert _facts("# CPU Only xeon 2697A v4 x2, numa_balancing=1")["cpu"] == "xeon 2697A v4"
    assert _facts("# CPU Only xeon 2697A v4 x2, numa_balancing=1")["sockets"] == 2
    two = _facts("# 2x EPYC 9654")
    assert two == {"cpu": "EPYC 9654", "sockets": 2}


def test_a_gpu_counted_beside_a_cpu_is_still_the_devices():
    f = _facts("1. 8xMI300X with 2x AMD EPYC 9374F (Genoa) CPU in the Available category.")
    assert f["device"] == "MI300X" and f["device_count"] == 8 and "sockets" not in f
    assert _facts("## 8x H100 SXM") == {"device_count": 8, "device": "H100 SXM"}


def test_a_counted_comparison_is_a_sign_of_devices_not_a_device():
    ctx = context.read(["### qwen3 metrics on ancient hardware (2x xeon Vs 2x P100)"])
    assert not [f for f in ctx.facts if f.name in ("device", "device_count")]
    assert [s.line for s in ctx.signs if s.name == "device"] == [1]
