"""llama-bench's `-dev none` (the `dev` column, or `devices` in -o json/csv) is llama.cpp's "none =
don't offload": whatever GPUs the build lists, and whatever -ngl says, no layer leaves the CPU, so
the row is a CPU run and never set against a listed GPU's peak. A named device keeps the GPU."""

import pandas as pd

from benchbook import hardware
from benchbook.analysis import bandwidth

GPU = "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition"


def test_device_list_none_is_a_cpu_run_whatever_the_backend_and_layers():
    _, mode = hardware.llama_bench_device({"backend": "CUDA", "ngl": -1, "gpu": GPU, "dev": "none"})
    assert mode == "cpu"
    _, mode = hardware.llama_bench_device({"backends": "CUDA", "n_gpu_layers": 99, "devices": "none"})
    assert mode == "cpu"


def test_a_named_device_or_auto_keeps_the_gpu():
    for dev in ("CUDA0", "auto"):
        _, mode = hardware.llama_bench_device({"backend": "CUDA", "ngl": 99, "gpu": GPU, "dev": dev})
        assert mode == "gpu"


def test_the_markdown_dev_column_kept_among_extra_settings_decides_the_mode():
    row = {"backend": "CUDA", "ngl": -1, "gpu": GPU, "model": "qwen35moe 35B.A3B Q4_K - Medium"}
    assert bandwidth.run_mode(pd.Series({**row, "extra_settings": "dev=none, lm=none"})) == "cpu"
    assert bandwidth.run_mode(pd.Series({**row, "extra_settings": "dev=CUDA0"})) == "gpu"
    assert bandwidth.run_mode(pd.Series({**row, "extra_settings": "nodev=none"})) == "gpu"
