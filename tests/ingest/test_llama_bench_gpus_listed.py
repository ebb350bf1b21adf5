"""How many GPUs llama-bench's own listing names: `gpu_info` joins every GPU device the build sees
(`get_gpu_info()`: ", " in current builds, "/" in old CUDA ones); the text output lists each on a
device line. A device named only by the prose or a heading around the table is no count."""

from __future__ import annotations

import json

from benchbook.ingest import llama_bench

RECORD = {
    "build_commit": "99b9548",
    "build_number": 1,
    "backends": "Vulkan",
    "model_type": "qwen2 1B Q4_K - Medium",
    "n_prompt": 0,
    "n_gen": 128,
    "avg_ts": 370.66,
    "stddev_ts": 4.96,
}


def _listed(gpu_info: str) -> set:
    text = json.dumps([{**RECORD, "gpu_info": gpu_info}])
    return set(llama_bench.parse(text, "x.json").table["gpus_listed"].dropna())


def test_gpu_info_counts_the_gpus_it_joins():
    assert _listed("Intel(R) Arc(tm) B580 Graphics (BMG G21)") == {1}
    assert _listed("NVIDIA GeForce RTX 3090, NVIDIA GeForce RTX 3090") == {2}
    assert _listed("Tesla P40/Tesla P40/Tesla P40") == {3}
    assert _listed("") == set()


TABLE = """| model                          |       size |     params | backend    | ngl |            test |                  t/s |
| ------------------------------ | ---------: | ---------: | ---------- | --: | --------------: | -------------------: |
| llama 3B Q4_K - Medium         |   1.87 GiB |     3.21 B | Vulkan     |  99 |           tg128 |        76.49 ± 0.27 |
"""


def test_device_lines_count_and_a_heading_does_not():
    two = (
        "ggml_vulkan: Found 2 Vulkan devices:\n"
        "ggml_vulkan: 0 = AMD Radeon RX 7900 XT (RADV NAVI31) (radv) | uma: 0 | fp16: 1\n"
        "ggml_vulkan: 1 = V3D 7.1.10.2 (V3DV Mesa) | uma: 1 | fp16: 0\n\n" + TABLE
    )
    assert set(llama_bench.parse(two, "two.md").table["gpus_listed"].dropna()) == {2}
    assert (
        llama_bench.parse("# Benchmark AMD Radeon AI Pro R9700 32GB\n\n" + TABLE, "h.md")
        .table["gpus_listed"]
        .isna()
        .all()
    )
