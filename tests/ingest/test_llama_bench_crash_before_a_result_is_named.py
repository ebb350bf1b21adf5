"""A llama-bench run that crashed before printing a result (the shell's `Segmentation fault (core
dumped)` under its command) is refused naming the crash's line: a failed run, not an unknown file.
A crash after the run's table, or with no llama-bench command above it, is not this refusal."""

import pytest

from benchbook.ingest import llama_bench
from benchbook.ingest.core import ParseError

CMD = "user@node:/opt/llama.cpp$ build/bin/llama-bench -m m.gguf --rpc 10.0.0.2:50052 -ngl 99"
CRASH = "Segmentation fault (core dumped)"
TABLE = "| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |"


def test_a_crash_under_the_command_is_named_at_its_line():
    line, why = llama_bench.refuses("\n".join(["```", CMD, "ggml_cuda_init: found 1 CUDA devices:", CRASH, "```"]))
    assert line == 4 and why.startswith("llama-bench stopped before its first result: Segmentation fault")


def test_a_crash_after_the_table_or_without_a_command_is_not_this_refusal():
    assert llama_bench.crashed([CMD, TABLE.split("\n")[0], TABLE.split("\n")[1], CRASH]) is None
    assert llama_bench.crashed(["./main -m m.gguf", CRASH]) is None


def test_an_exception_nothing_caught_is_a_crash():
    # libstdc++ prints this line for an uncaught exception (a Vulkan device lost), then aborts the process
    lost = "terminate called after throwing an instance of 'vk::DeviceLostError'"
    line, why = llama_bench.refuses("\n".join([CMD, "ggml_vulkan: Found 2 Vulkan devices:", lost, "  what():  x"]))
    assert line == 3 and why.startswith("llama-bench stopped before its first result: terminate called")
    assert llama_bench.crashed([CMD, "terminate the run by hand if it hangs"]) is None


def test_a_crash_under_a_header_with_no_row_is_named_at_its_line():
    # llama-bench prints its header before the first test: a crash there is the run failing, not a cut copy
    text = "\n".join([CMD, *TABLE.split("\n"), "[SYCL] call ggml_sycl_rms_norm", CRASH])
    with pytest.raises(ParseError, match=r":5: llama-bench stopped before its first result: Segmentation fault"):
        llama_bench.parse(text, "run.md")


def test_a_header_with_no_row_and_no_crash_is_still_a_cut_copy_and_rows_before_a_crash_are_read():
    with pytest.raises(ParseError, match=r":2: llama-bench output with no measured rows"):
        llama_bench.parse("\n".join([CMD, *TABLE.split("\n"), "[SYCL] call ggml_sycl_rms_norm"]), "run.md")
    row = "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | tg128 | 49.39 ± 0.16 |"
    parsed = llama_bench.parse("\n".join([CMD, *TABLE.split("\n"), row, CRASH]), "run.md")
    assert 49.39 in list(parsed.table["value"])
