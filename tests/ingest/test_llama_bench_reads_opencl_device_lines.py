"""ggml-opencl prints each device it probes (`ggml_opencl: device: 'NAME (OpenCL 3.0 ...)'`), then the first as
its `default device:` (before 2025: `selecting device: 'NAME'`). The probed devices are a listing, counted
like CUDA's `Device N:` lines; a default device alone names the device but lists nothing, so it counts none;
the OpenCL version after the name is the driver's. A table with no such line names no device."""

from __future__ import annotations

import pandas as pd

from benchbook.ingest import llama_bench

TABLE = [
    "| model                          |       size |     params | backend    | ngl |            test |                  t/s |",
    "| ------------------------------ | ---------: | ---------: | ---------- | --: | --------------: | -------------------: |",
    "| llama 1B Q8_0                  |   1.22 GiB |     1.24 B | OpenCL     |  99 |           tg128 |         38.80 ± 0.20 |",
]


def _row(*above):
    t = llama_bench.parse("\n".join([*above, *TABLE]), "x.md").table
    return t.iloc[0]


def test_a_default_device_line_names_the_device_and_lists_none():
    r = _row("`ggml_opencl: default device: 'QUALCOMM Adreno(TM) 830 (OpenCL 3.0 Adreno(TM) 830)`", "")
    assert r["gpu"] == "QUALCOMM Adreno(TM) 830" and pd.isna(r["gpus_listed"])


def test_probed_devices_are_a_listing():
    r = _row(
        "ggml_opencl: device: 'QUALCOMM Adreno(TM) 840 (OpenCL 3.0 Adreno(TM) 840)'",
        "ggml_opencl: device: 'Intel(R) UHD Graphics 730 (OpenCL 3.0 NEO )'",
        "ggml_opencl: default device: 'QUALCOMM Adreno(TM) 840 (OpenCL 3.0 Adreno(TM) 840)'",
    )
    assert r["gpus_listed"] == 2 and r["gpu"] == "QUALCOMM Adreno(TM) 840 + Intel(R) UHD Graphics 730"


def test_no_opencl_line_no_device():
    assert _row("With Adreno 830,")["gpu"] != "QUALCOMM Adreno(TM) 830"
