"""A llama.cpp request whose log names no GPU, backend, offloaded layers or CPU says neither that it ran on
a GPU nor on the CPU (llama-cli/main's -ngl default changed over the years): its mode is "unknown", where it
used to be "gpu" by llama-bench's default. A log that lists a GPU, or offloads no layer, still decides."""

from __future__ import annotations

from benchbook.analysis import bandwidth
from benchbook.ingest import llama_timings

EVAL = "llama_print_timings:        eval time =    9521.36 ms /   127 runs   (   74.97 ms per token,    13.34 tokens per second)"


def _mode(*log):
    return bandwidth.request_rows(llama_timings.parse("\n".join([*log, EVAL]), "x.md").table)["mode"].iloc[0]


def test_a_request_whose_log_names_no_device_has_no_mode():
    assert _mode() == "unknown"


def test_a_listed_gpu_or_no_offloaded_layer_still_decides():
    assert (
        _mode("ggml_cuda_init: found 1 CUDA devices:", "  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9")
        == "gpu"
    )
    assert _mode("llm_load_tensors: offloaded 0/33 layers to GPU") == "cpu"
