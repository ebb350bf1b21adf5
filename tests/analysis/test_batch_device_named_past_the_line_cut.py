"""The roofline's device is the one the input names even where the name sits past the 200 characters a
context fact keeps of its line (a kernel-config path in a long log line): the name as written chooses
the peaks; a line that names none still gives none."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import batch

PATH = "/very/long/site-packages/sglang/srt/layers/moe/fused_moe_triton/configs/triton_3_4_0/" * 2


def test_a_device_named_past_the_cut_chooses_its_peaks():
    line = f"[TP0] Config file not found at {PATH}E=257,N=128,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8.json"
    assert line.index("NVIDIA_H100") > 200
    pk, found = batch.device("", pd.DataFrame(), [line])
    assert found.device == "H100-SXM5-80GB" and pk is not None and pk.device == "H100-SXM5-80GB"


def test_a_long_line_that_names_no_device_gives_no_peaks():
    pk, found = batch.device("", pd.DataFrame(), [f"[TP0] Config file not found at {PATH}E=257,N=128.json"])
    assert found.device is None and pk is None
