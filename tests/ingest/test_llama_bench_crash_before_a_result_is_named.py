"""A llama-bench run that crashed before printing a result (the shell's `Segmentation fault (core
dumped)` under its command) is refused naming the crash's line: a failed run, not an unknown file.
A crash after the run's table, or with no llama-bench command above it, is not this refusal."""

from benchbook.ingest import llama_bench

CMD = "user@node:/opt/llama.cpp$ build/bin/llama-bench -m m.gguf --rpc 10.0.0.2:50052 -ngl 99"
CRASH = "Segmentation fault (core dumped)"
TABLE = "| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |"


def test_a_crash_under_the_command_is_named_at_its_line():
    line, why = llama_bench.refuses("\n".join(["```", CMD, "ggml_cuda_init: found 1 CUDA devices:", CRASH, "```"]))
    assert line == 4 and why.startswith("llama-bench stopped before its first result: Segmentation fault")


def test_a_crash_after_the_table_or_without_a_command_is_not_this_refusal():
    assert llama_bench.crashed([CMD, TABLE.split("\n")[0], TABLE.split("\n")[1], CRASH]) is None
    assert llama_bench.crashed(["./main -m m.gguf", CRASH]) is None
