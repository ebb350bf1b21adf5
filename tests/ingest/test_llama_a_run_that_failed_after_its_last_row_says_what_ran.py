"""A llama.cpp output (llama-batched-bench, llama-sweep-bench, llama-bench, llama.cpp's timings) whose text after its
last row holds the line a failed process prints (`GGML_ASSERT(...) failed`, `Segmentation fault`, `Aborted`, `CUDA
error: ...`, `...: out of memory`) stopped there: the parser notes which points ran and names the line
(`llama_bench.failed_after`); a header with no row before such a line is refused naming it. Text after the last row
with no such line notes nothing."""

from __future__ import annotations

import pytest

from benchbook.ingest import ParseError, llama_batched_bench, llama_bench, llama_sweep_bench, llama_timings

SETTINGS = (
    "main: n_kv_max = 8192, n_batch = 2048, n_ubatch = 512, flash_attn = 1, is_pp_shared = 0, n_gpu_layers = 0, "
    "n_threads = 64, n_threads_batch = 128"
)
BATCHED = [
    "./llama-batched-bench -m model.gguf -c 8192 -npp 128 -ntg 128 -npl 1,2,4",
    SETTINGS,
    "",
    "|    PP |     TG |    B |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |      T s |    S t/s |",
    "|-------|--------|------|--------|----------|----------|----------|----------|----------|----------|",
    "|   128 |    128 |    1 |    256 |    1.778 |    71.99 |    5.578 |    22.95 |    7.357 |    34.80 |",
    "|   128 |    128 |    2 |    512 |    2.265 |   113.01 |    7.968 |    32.13 |   10.233 |    50.03 |",
]
SWEEP = [
    "./llama-sweep-bench -m model.gguf -c 4096",
    "|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |",
    "|-------|--------|--------|----------|----------|----------|----------|",
    "|   512 |    128 |      0 |    1.000 |   512.00 |    2.000 |    64.00 |",
    "|   512 |    128 |    512 |    1.024 |   500.00 |    2.133 |    60.00 |",
]
BENCH = [
    "| model                          |       size |     params | backend    | ngl |          test |                  t/s |",
    "| ------------------------------ | ---------: | ---------: | ---------- | --: | ------------: | -------------------: |",
    "| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | CUDA       |  99 |         pp512 |      2500.00 ± 10.00 |",
]


def _text(lines):
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "failure",
    [
        "/app/ggml/src/iqk/iqk_mul_mat.cpp:16600: GGML_ASSERT(fms.S[j] > 0) failed",
        "Segmentation fault (core dumped)",
        "/opt/ik_llama.cpp/ggml/src/ggml-cuda/template-instances/../mmq.cuh:4255: fatal error",
        "CUDA error: an illegal memory access was encountered",
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 9000.00 MiB on device 0: cudaMalloc failed: out of memory",
    ],
)
def test_a_batched_bench_run_that_failed_after_b2_says_b4_did_not_run(failure):
    p = llama_batched_bench.parse(_text([*BATCHED, failure]), "x.md")
    (msg,) = [m for m in p.messages if m.startswith(llama_bench.STOPPED)]
    assert "at line 8" in msg and "after its last row (line 7)" in msg
    assert "B 1 and 2 ran; B 4 of -npl 1,2,4 did not" in msg
    assert p.table["batch"].max() == 2  # the rows that ran are read as before


def test_the_assert_is_quoted_without_the_source_paths_before_it():
    failure = "/a.cpp:1: /a.cpp:1: GGML_ASSERT(fms.S[j] > 0) failed"
    p = llama_batched_bench.parse(_text([*BATCHED, failure]), "x.md")
    assert "(`GGML_ASSERT(fms.S[j] > 0) failed`)" in p.messages[-1]


def test_a_batched_bench_run_that_ended_well_notes_nothing():
    p = llama_batched_bench.parse(_text([*BATCHED, "", "llama_perf_context_print: total time = 17000 ms"]), "x.md")
    assert not [m for m in p.messages if m.startswith(llama_bench.STOPPED)]


def test_a_sweep_that_failed_after_its_rows_says_its_depths_ran():
    p = llama_sweep_bench.parse(_text([*SWEEP, "Aborted (core dumped)"]), "x.md")
    (msg,) = [m for m in p.messages if m.startswith(llama_bench.STOPPED)]
    assert "(`Aborted (core dumped)`)" in msg and "N_KV 0 to 512 ran, none deeper" in msg


def test_a_sweep_header_then_an_assert_is_refused_naming_the_assert():
    with pytest.raises(ParseError) as e:
        llama_sweep_bench.parse(_text([*SWEEP[:3], "/x.cu:1286: GGML_ASSERT(to_bf16_cuda != nullptr) failed"]), "x.md")
    assert e.value.line == 4 and "GGML_ASSERT(to_bf16_cuda != nullptr) failed" in str(e.value)


def test_a_sweep_header_with_no_row_and_no_failure_keeps_its_refusal():
    with pytest.raises(ParseError) as e:
        llama_sweep_bench.parse(_text(SWEEP[:3]), "x.md")
    assert "no llama-sweep-bench row found" in str(e.value)


def test_llama_bench_rows_then_a_crash_say_the_last_test_that_ran():
    p = llama_bench.parse(_text([*BENCH, "Segmentation fault (core dumped)"]), "x.md")
    (msg,) = [m for m in p.messages if m.startswith(llama_bench.STOPPED)]
    assert "its rows up to pp512 ran, none after" in msg


def test_timings_then_a_cuda_error_say_the_timings_ran():
    text = _text(
        [
            "llama_print_timings:        eval time =    1000.00 ms /   100 runs   (   10.00 ms per token,   100.00 tokens per second)",
            "CUDA error: out of memory",
        ]
    )
    p = llama_timings.parse(text, "x.md")
    assert any(m.startswith(llama_bench.STOPPED) and "at line 2" in m for m in p.messages)
    assert not [m for m in llama_timings.parse(text.splitlines()[0] + "\n", "x.md").messages if "stopped" in m]
