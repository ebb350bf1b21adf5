"""A file holding an SGLang server's launch and that server's own log of its batches is named by the log
(the part of the file that is output), not by the launch; a launch with no log is named by the launch, and a
benchmark's command still comes first (its output is what a reader would take)."""

from __future__ import annotations

from benchbook.ingest import unclaimed

# real: sgl-project/sglang issue 11948 (an EAGLE3 run's launch, then its scheduler log)
LAUNCH = [
    "**use eagle3**",
    "python3 -m sglang.launch_server \\",
    "    --model Qwen3-8B \\",
    "    --tensor-parallel-size 2",
]
LOG = [
    "[2025-10-22 10:27:57 TP0] Decode batch. #running-req: 1, #token: 108, token usage: 0.00, accept len: 2.17,"
    " accept rate: 0.54, cuda graph: True, gen throughput (token/s): 0.39, #queue-req: 0, ",
]


def test_the_log_under_the_launch_is_named():
    line, what = unclaimed.command([*LAUNCH, "", *LOG])
    assert line == 6 and what.startswith("SGLang's scheduler log")


def test_a_launch_with_no_log_is_named_by_the_launch():
    assert unclaimed.command(LAUNCH) == (2, "a command that launches sglang.launch_server, and no benchmark output")


def test_a_benchmarks_command_comes_before_the_log():
    bench = "python3 -m sglang.bench_serving --backend sglang --num-prompts 80"
    line, what = unclaimed.command([*LAUNCH, bench, *LOG])
    assert line == 5 and what == "a command that runs sglang.bench_serving, and none of its output"
