"""A llama.cpp tool run under cuda-gdb halts where a kernel faults, and the debugger prints `CUDA Exception: Warp
Misaligned Address` (the fault a run without the debugger reports as `CUDA error: misaligned address`): that line is
where the run stopped. Under a llama-batched-bench header with no row, the refusal names it; after rows, the note
says the batches after them never ran. A sentence that only speaks of such an exception is no stop."""

import pytest

from benchbook.ingest import llama_batched_bench, llama_bench
from benchbook.ingest.core import ParseError

SETTINGS = (
    "main: n_kv_max = 2048, n_batch = 2048, n_ubatch = 256, flash_attn = 1, is_pp_shared = 0, is_tg_separate = 0, "
    "n_gpu_layers = -1, n_threads = 4, n_threads_batch = 4"
)
HEADER = (
    "|    PP |     TG |    B |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |      T s |    S t/s |\n"
    "|-------|--------|------|--------|----------|----------|----------|----------|----------|----------|"
)
ROW = "|   128 |    128 |    1 |    256 |    0.108 |  1186.64 |    3.079 |    41.57 |    3.187 |    80.32 |"
FAULT = "CUDA Exception: Warp Misaligned Address"


def test_a_fault_under_a_header_with_no_row_is_named_at_its_line():
    text = "\n".join([SETTINGS, "", HEADER, "", FAULT, "The exception was triggered at PC 0x7fff20cd8fb0"])
    with pytest.raises(ParseError, match=r":6: llama-batched-bench stopped before its first row: `CUDA Exception"):
        llama_batched_bench.parse(text, "run.md")


def test_a_fault_after_rows_is_where_the_rest_never_ran():
    lines = [SETTINGS, "", *HEADER.split("\n"), ROW, "", FAULT]
    assert llama_bench.failed_after(lines, 3) == (7, FAULT)


def test_words_about_the_exception_are_no_stop():
    lines = [SETTINGS, "", *HEADER.split("\n"), ROW, "", "The CUDA Exception: Warp Misaligned Address is fixed by #123"]
    assert llama_bench.failed_after(lines, 3) is None
    text = "\n".join([SETTINGS, "", HEADER, "", "No CUDA Exception: the run was cut here"])
    with pytest.raises(ParseError, match="no llama-batched-bench row found"):
        llama_batched_bench.parse(text, "run.md")
