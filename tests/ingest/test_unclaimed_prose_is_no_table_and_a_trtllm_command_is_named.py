"""A sentence (it ends with `.`, `?` or `!`) is prose, never the header of a retyped table, even where it
names a measured quantity and a line of numbers follows it; a file whose only sign of a run is
TensorRT-LLM's gptManagerBenchmark or gptSessionBenchmark command (its result posted as an image) is
refused naming that command's line, as one with another benchmark's command and no output is."""

from __future__ import annotations

from benchbook.ingest import unclaimed

ISSUE = [
    "mpirun -n 2 --allow-run-as-root benchmarks/gptManagerBenchmark --model llama --engine_dir e",
    "",
    "I compare the token throughput with lmdeploy, and the performance is close to each other.",
    "",
    "But the performance of batch 24 and 22 is lower than batch 16, why is that?",
    "",
    "![image](https://github.com/x/y/assets/26128514/04ccf7c5)",
]


def test_a_sentence_naming_a_quantity_is_no_table_header():
    assert unclaimed.sign(ISSUE) is None


def test_a_header_without_a_sentence_end_still_names_its_table():
    table = ["output tokens/s by batch", "16 24 22", "755.6 700.1 698.0"]
    assert unclaimed.sign(table) == (1, "a table of output tokens/s by batch (2 rows of numbers)")


def test_a_gptmanager_command_by_its_path_is_named():
    line, what = unclaimed.command(ISSUE)
    assert line == 1 and what == "a command that runs benchmarks/gptManagerBenchmark, and none of its output"


def test_the_tool_named_in_prose_is_no_command():
    assert unclaimed.command(["We ran gptManagerBenchmark yesterday and it was slow."]) is None
