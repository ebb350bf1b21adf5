"""llama.cpp's timings of one request (`ingest.llama_timings`): each phase's rate and time kept where its
printed rate fits 1e3 / T * N, rejected where it contradicts them or counts no token; the load log's model,
GPU, backend and offloaded layers on every row; a CPU build (`BLAS = 0`, no GPU backend) named; drafts
accepted by a speculating server kept; detection leaves llama-bench's files to llama-bench."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.ingest import llama_timings

LOG = [
    "llama_model_loader: loaded meta data with 29 key-value pairs and 291 tensors from /models/llama-3-8b.Q4_K_M.gguf (version GGUF V3 (latest))",
    "llm_load_print_meta: arch             = llama",
    "llm_load_print_meta: model type       = 8B",
    "llm_load_print_meta: model ftype      = Q4_K - Medium",
    "llm_load_print_meta: model params     = 8.03 B",
    "llm_load_print_meta: model size       = 4.58 GiB (4.89 BPW)",
    "ggml_cuda_init: found 1 CUDA devices:",
    "  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes",
    "llm_load_tensors: offloaded 20/33 layers to GPU",
]
PERF = [
    "llama_perf_context_print:        load time =    1709.70 ms",
    "llama_perf_context_print: prompt eval time =      15.00 ms /    20 tokens (    0.75 ms per token,  1333.33 tokens per second)",
    "llama_perf_context_print:        eval time =     473.70 ms /   106 runs   (    4.47 ms per token,   223.77 tokens per second)",
    "llama_perf_context_print:       total time =    1849.35 ms /   126 tokens",
]
SERVER = [
    "slot print_timing: id  0 | task 388 | ",
    "prompt eval time =     789.03 ms /    27 tokens (   29.22 ms per token,    34.22 tokens per second)",
    "       eval time =   16112.50 ms /   192 tokens (   83.92 ms per token,    11.92 tokens per second)",
    "      total time =   16901.53 ms /   219 tokens",
]


def _read(lines):
    return llama_timings.parse("\n".join(lines), "x.log")


def test_each_phase_is_kept_with_the_load_logs_run():
    p = _read(LOG + PERF)
    t = p.table.set_index("metric")
    assert t.loc["tg_rate", "value"] == 223.77 and t.loc["pp_rate", "value"] == 1333.33
    row = t.loc["tg_rate"]
    assert row["model_file"] == "llama-3-8b.Q4_K_M.gguf" and row["model"] == "llama 8B Q4_K - Medium"
    assert row["gpu"] == "NVIDIA GeForce RTX 4090" and row["backend"] == "CUDA"
    assert (row["ngl"], row["n_layers"], row["n_prompt"], row["n_gen"]) == (20, 33, 20, 106)
    assert row["model_size_gib"] == 4.58 and row["params_b"] == 8.03 and row["format"] == "llama_perf_context_print"
    # the context's total time counts from its start (load included): rejected, as the load line is
    assert {int(r) for r in p.rejected["line"]} == {len(LOG) + 1, len(LOG) + 4}
    assert p.cells_read == len(p.table) + len(p.rejected)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (PERF[2].replace("223.77", "323.77"), "contradicts 1e3 x 106 tokens / 473.7 ms = 223.77"),
        (
            "llama_perf_context_print:        eval time =       0.00 ms /     0 runs   (     nan ms per token,      nan tokens per second)",
            "no rate",
        ),
    ],
)
def test_a_rate_its_own_time_and_count_contradict_is_rejected(line, why):
    p = _read([PERF[1], line])
    assert "tg_rate" not in set(p.table["metric"]) and why in " ".join(p.rejected["reason"])


def test_the_servers_block_keeps_its_total_and_its_format_and_leaves_the_running_rate():
    p = _read(["[1] slot print_timing: id  0 | task 388 | n_decoded =    172, tg =  12.00 t/s", *SERVER])
    assert set(p.table["format"]) == {"server slot print_timing"}
    assert "total_duration" in set(p.table["metric"]) and set(p.table["request"]) == {1}
    assert "running rate" in p.rejected["reason"].iloc[0]


@pytest.mark.parametrize(
    ("stats", "accepted"),
    [
        ("statistics ngram-map-k: #calls(b,g,a) = 3 570 0, #gen drafts = 9, #acc tokens = 57", 57),
        ("statistics ngram-map-k: #calls(b,g,a) = 3 570 0, #gen drafts = 9, #acc tokens = 0", 0),
        ("slot print_timing: id  1 | task 0 | draft acceptance = 0.64479 (  167 accepted /   259 generated)", 167),
        ("draft acceptance rate = 0.23026 (   70 accepted /   304 generated)", 70),  # the 2025 print
    ],
)
def test_the_drafts_a_speculating_server_accepted_are_kept(stats, accepted):
    p = _read([*SERVER, stats])
    assert set(p.table["drafts_accepted"]) == {accepted}


@pytest.mark.parametrize(("blas", "backend"), [("BLAS = 0", "CPU"), ("BLAS = 1", None)])
def test_a_build_without_gpu_blas_or_backend_ran_on_the_cpu(blas, backend):
    p = _read([f"system_info: n_threads = 56 / 112 | AVX = 1 | {blas} | SSE3 = 1 |", PERF[2]])
    got = p.table["backend"].iloc[0]
    assert (got if isinstance(got, str) else None) == backend and p.table["threads"].iloc[0] == 56


def test_detection_leaves_llama_bench_files_to_llama_bench_and_ollama_to_neither():
    table = [
        "| model                          |       size |     params | backend    | ngl |            test |                  t/s |",
        "| ------------------------------ | ---------: | ---------: | ---------- | --: | --------------: | -------------------: |",
        "| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | CUDA       |  99 |           tg128 |        100.00 ± 0.10 |",
    ]
    assert ingest.detect("\n".join(PERF)) == ["llama-timings"]
    assert ingest.detect("\n".join(PERF + table)) == ["llama-bench"]
    assert "llama-timings" not in ingest.detect("prompt eval rate:     80.10 tokens/s\neval rate:     13.08 tokens/s")
