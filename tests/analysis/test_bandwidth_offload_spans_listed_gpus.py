"""Whether a llama-bench model is partly offloaded is judged against the memory of every GPU its
layers are spread over: llama-bench's layer split (the default) and row split put `-ngl` layers on
each GPU the build lists (`gpus_listed`), so a 475 GB file at ngl 99 on eight 80 GB H100s is fully
on the GPUs (a real DeepSeek-V3 run), while the same file on one listed GPU, or under `-sm none`,
does not fit and is partly on the host."""

from __future__ import annotations

import pandas as pd
from test_llama_bench_analysis import _rows

from benchbook.analysis import bandwidth

GIB_475_GB = 442.74  # DeepSeek-V3 671B Q5_K_M: 442.74 GiB = 475.4 GB


def _point(**over) -> pd.Series:
    rows = _rows(
        model="deepseek2 671B Q5_K - Medium",
        model_size_gib=GIB_475_GB,
        params_b=671.03,
        rate=23.63,
        gpu="NVIDIA H100 80GB HBM3",
        **over,
    )
    kept, _ = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(rows)))
    return bandwidth.points(kept).iloc[0]


def test_a_layer_split_over_eight_listed_gpus_holds_the_file():
    p = _point(gpus_listed=8)
    assert p["offload"] == "full" and p["offload_why"] == ""


def test_the_same_file_on_one_listed_gpu_is_partly_offloaded():
    p = _point(gpus_listed=1)
    assert p["offload"] == "partial" and p["offload_why"] == "file 475.4 GB > 80 GB of GPU memory"


def test_no_split_keeps_the_layers_on_one_gpu_of_the_eight():
    p = _point(gpus_listed=8, extra_settings="sm=none")
    assert p["offload"] == "partial" and "> 80 GB of GPU memory" in p["offload_why"]


def test_a_file_larger_than_all_listed_gpus_says_their_sum():
    p = _point(gpus_listed=4)  # 4 x 80 GB = 320 GB < 475 GB
    assert p["offload"] == "partial" and p["offload_why"] == "file 475.4 GB > 4 x 80 GB of GPU memory"
