"""A prompt rate at `-ngl 0` has its compute share withheld as "offloaded" only where the output prints a GPU
backend: ggml then runs the matrix products of a large batch on the GPU, copying the weights over. A
llama-sweep-bench table prints no backend column, and a build the output never names is no GPU build: the page
used to say "with -ngl 0 a GPU build keeps the weights in host memory" of a CPU-only Xeon run whose backend was
unprinted (the empty cell read as the text "nan")."""

from __future__ import annotations

import pandas as pd

from benchbook import ingest
from benchbook.analysis import prefill

SWEEP = (
    "main: n_kv_max = 4096, n_batch = 2048, n_ubatch = 512, flash_attn = 1, n_gpu_layers = 0, n_threads = 20, "
    "n_threads_batch = 20\n\n"
    "|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |\n"
    "|-------|--------|--------|----------|----------|----------|----------|\n"
    "|   512 |    128 |      0 |    8.519 |    60.10 |    9.924 |    12.90 |\n"
)
BENCH = (
    "| model | size | params | backend | ngl | threads | test | t/s |\n| --- | ---: | ---: | --- | --: | --: | ---: | ---: |\n"
    "| llama 7B Q4_0 | 3.56 GiB | 7.00 B | CUDA | 0 | 8 | pp512 | 100.00 ± 1.00 |\n"
)


def _points(tmp_path, text, tool, name):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return prefill.points(prefill.prompt_rows(ingest.read(path, tool=tool)))


def test_an_unprinted_backend_at_ngl_0_is_not_called_a_gpu_build(tmp_path):
    p = _points(tmp_path, SWEEP, "llama-sweep-bench", "s.md").iloc[0]
    assert p["no_share"] != "offloaded"


def test_a_printed_gpu_backend_at_ngl_0_still_is(tmp_path):
    p = _points(tmp_path, BENCH, "llama-bench", "b.md").iloc[0]
    assert p["no_share"] == "offloaded" and pd.isna(p["share"])


def test_a_gpu_backend_that_found_no_device_is_no_gpu_build(tmp_path):
    # ggml-cuda's `failed to initialize CUDA` (CUDA_VISIBLE_DEVICES= hid every GPU): the backend registers no
    # device, so nothing ran on a GPU whatever the backend column prints (ik_llama.cpp discussion #459)
    hidden = "ggml_cuda_init: failed to initialize CUDA: no CUDA-capable device is detected\n\n" + BENCH
    p = _points(tmp_path, hidden, "llama-bench", "h.md").iloc[0]
    assert p["no_share"] != "offloaded"
