"""llama.cpp's timings of one request enter the roofline as one rate with no spread (`bandwidth.request_rows`):
a request whose drafts were accepted is no decode rate and is left out; a log that offloaded fewer layers than
the model has is a partial offload, and its stated layer count (output layer included) bounds the GPU's bytes;
a CPU-only row spans no GPU, and a request whose log lists no GPU does not say it ran on one device."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook.analysis import bandwidth
from benchbook.ingest import llama_timings

LOG = [
    "llama_model_loader: loaded meta data with 29 key-value pairs and 291 tensors from m/llama-3-8b.Q4_K_M.gguf (v3)",
    "llm_load_print_meta: model type       = 8B",
    "llm_load_print_meta: model params     = 8.03 B",
    "llm_load_print_meta: model size       = 4.58 GiB (4.89 BPW)",
    "ggml_cuda_init: found 1 CUDA devices:",
    "  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes",
]
EVAL = "llama_perf_context_print:        eval time =     473.70 ms /   106 runs   (    4.47 ms per token,   223.77 tokens per second)"


def _rows(*lines):
    return bandwidth.request_rows(llama_timings.parse("\n".join(lines), "x.log").table)


@pytest.mark.parametrize(("offloaded", "mode"), [("33/33", "gpu"), ("20/33", "partial"), ("0/33", "cpu")])
def test_one_request_is_one_rate_with_the_mode_its_offload_states(offloaded, mode):
    r = _rows(*LOG, f"llm_load_tensors: offloaded {offloaded} layers to GPU", EVAL)
    assert len(r) == 1 and r["rate"].iloc[0] == 223.77 and r["repeats"].iloc[0] == 1
    assert pd.isna(r["rate_std"].iloc[0]) and r["mode"].iloc[0] == mode and bool(r["one_request"].iloc[0])


def test_a_partial_offload_says_the_layers_the_log_states():
    r = _rows(*LOG, "llm_load_tensors: offloaded 20/33 layers to GPU", EVAL)
    kept, _ = bandwidth.reduce(r)
    p = bandwidth.points(kept)
    assert p["offload"].iloc[0] == "partial" and "ngl 20 < 32 layers + output" in p["offload_why"].iloc[0]
    assert p["gpu_bytes_per_token"].iloc[0] == pytest.approx(p["bytes_per_token"].iloc[0] * 20 / 33)


@pytest.mark.parametrize(("accepted", "n"), [(57, 0), (0, 1)])
def test_a_request_with_accepted_drafts_is_no_decode_rate(accepted, n):
    assert len(_rows(EVAL, f"statistics ngram-map-k: #gen drafts = 9, #acc tokens = {accepted}")) == n


@pytest.mark.parametrize(("lines", "one"), [((*LOG, EVAL), True), ((EVAL,), False)])
def test_a_request_is_on_one_device_only_where_its_log_lists_one(lines, one):
    assert bandwidth.one_device(_rows(*lines)) is one


def test_a_cpu_only_row_spans_no_gpu():
    r = _rows("system_info: n_threads = 8 / 16 | AVX = 1 | BLAS = 0 |", EVAL)
    assert r["mode"].iloc[0] == "cpu" and bandwidth.one_device(r) is True


def test_a_requests_prompt_is_one_prompt_processing_rate_whatever_its_drafts():
    prompt = "prompt eval time =     789.03 ms /    27 tokens (   29.22 ms per token,    34.22 tokens per second)"
    r = bandwidth.request_rows(
        llama_timings.parse("\n".join([prompt, EVAL, "#acc tokens = 57"]), "x.log").table, "pp_rate"
    )
    assert list(r["test"]) == ["pp27"] and list(r["rate"]) == [34.22]
