"""A prompt rate whose FLOPs (2 x params x tok/s) exceed the highest dense peak at any precision of every device
the hardware table lists is beyond physics even where the input names no device: flagged, with its line, and not
used (`prefill.points`' `beyond_every`, the `pp_*` claim implausible). Within that bound, with no device named, its
share stays withheld for want of a device, as before."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.analysis import prefill, roofline
from benchbook.claims import bandwidth as claims

HEAD = "| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |\n"


def _point(tmp_path, ts):
    path = tmp_path / "t.md"
    path.write_text(HEAD + f"| llama 8B F16 | 14.96 GiB | 8.03 B | CUDA | 99 | pp512 | {ts} |\n", encoding="utf-8")
    return prefill.points(prefill.prompt_rows(ingest.read(path, tool="llama-bench"))).iloc[0]


def test_a_rate_beyond_every_listed_device_is_not_a_result_though_no_device_is_named(tmp_path):
    top, device = roofline.highest_peak_any_precision()
    p = _point(tmp_path, "1000000.00 ± 1.00")  # 2 x 8.03e9 x 1e6 = 16,060 TFLOP/s
    assert p["tflops"] > top and p["beyond_every"] == [device, top]
    claim = claims.prefill(p, "pp_1")
    assert claim.status == "implausible" and claim.evidence["line"] == 3


@pytest.mark.parametrize("ts", ["4753.45 ± 23.50", "500000.00 ± 1.00"])  # 76 and 8,030 TFLOP/s
def test_within_every_devices_highest_peak_no_device_still_withholds_the_share(tmp_path, ts):
    p = _point(tmp_path, ts)
    assert p["beyond_every"] is None and claims.prefill(p, "pp_1").status == "withheld"
