"""A llama.cpp request whose log names no GPU, backend, offloaded layers or CPU says neither that it ran on
a GPU nor on the CPU (llama-cli/main's -ngl default changed over the years): its mode is "unknown", where it
used to be "gpu" by llama-bench's default. A log that lists a GPU, or offloads no layer, still decides. A device
named only around the log (a title's `M2 Max`, filled in by the context reader) says which machine ran, not where
its layers ran (llama-gpt PR 30's page said "Every row: mode gpu" of a log with no -ngl, Metal or offload line)."""

from __future__ import annotations

from benchbook import config, ingest
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


def test_a_device_named_only_around_the_log_sets_no_mode():
    named = llama_timings.parse(EVAL, "x.md").table.assign(gpu="M2 Max")
    assert bandwidth.request_rows(named)["mode"].iloc[0] == "unknown"
    found = llama_timings.parse(
        "\n".join(["ggml_cuda_init: found 1 CUDA devices:", "  Device 0: NVIDIA GeForce RTX 4090", EVAL]), "x.md"
    ).table
    assert bandwidth.request_rows(found.assign(gpu="M2 Max"))["mode"].iloc[0] == "gpu"  # the log's backend decides
    pr30 = "llama-timings/llama_gpt_pr30_m2_max_96gb_70b_print_timings_three_runs_cut_excerpt.md"
    rows = bandwidth.request_rows(ingest.read(config.FIXTURES_DIR / pr30))
    assert set(rows["gpu"]) == {"M2 Max"} and set(rows["mode"]) == {"unknown"}
