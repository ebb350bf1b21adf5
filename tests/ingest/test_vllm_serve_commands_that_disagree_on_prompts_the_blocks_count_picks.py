"""Two commands above one result block that set different `--num-prompts` (a write-up's "fast" benchmark of 20
prompts and its "realistic" one of 8, each in its own section, both above the realistic block): the tool sends
every prompt and counts each as completed or failed, so the command whose count equals the block's own
`Successful requests` + `Failed requests` is the one that printed it. Where no command's count is the block's, or
the commands agree, the first command's stands."""

from __future__ import annotations

from benchbook import ingest


def block(completed: int, failed: int = 0) -> str:
    return (
        "============ Serving Benchmark Result ============\n"
        f"{'Successful requests:':<40} {completed:<10}\n"
        f"{'Failed requests:':<40} {failed:<10}\n"
        f"{'Request throughput (req/s):':<40} {'0.04':<10}\n"
        "==================================================\n"
    )


def prompts(tmp_path, first: int, second: int, completed: int, failed: int = 0) -> float:
    p = tmp_path / "w.md"
    p.write_text(
        "### fast benchmark\n\n```\nvllm bench serve --model org/m \\\n"
        f"  --num-prompts {first} --max-concurrency 1\n```\n\n"
        "### realistic context benchmark\n\n```\nvllm bench serve --model org/m \\\n"
        f"  --num-prompts {second} --max-concurrency 1\n```\n\n"
        f"## results\n\n```\nrealistic\n{block(completed, failed)}```\n",
        encoding="utf-8",
    )
    return ingest.read(p, tool="vllm-bench-serve")["num_prompts"].iloc[0]


def test_the_command_whose_count_is_the_blocks_own_ran_it(tmp_path):
    assert prompts(tmp_path, first=20, second=8, completed=8) == 8.0


def test_completed_and_failed_together_are_the_prompts_sent(tmp_path):
    assert prompts(tmp_path, first=20, second=8, completed=6, failed=2) == 8.0


def test_the_first_command_stands_where_its_count_is_the_blocks(tmp_path):
    assert prompts(tmp_path, first=1000, second=500, completed=1000) == 1000.0


def test_the_first_command_stands_where_no_count_is_the_blocks(tmp_path):
    assert prompts(tmp_path, first=20, second=8, completed=7) == 20.0


def test_a_later_block_that_takes_the_commands_settings_takes_their_counts_too(tmp_path):
    """Both commands in one section, both blocks in a later one (a write-up's "high load" 100 prompts and
    "low load" 10): the second block inherits the commands' settings, and its own count (10 completed, no
    failure row) picks the command of 10, never the first command's 100 with 90 "failed"."""
    p = tmp_path / "two.md"
    command = "vllm bench serve --model org/m \\\n  --num-prompts {n} --max-concurrency {c}\n"
    row = "{:<40} {:<10}\n"
    result = (
        "============ Serving Benchmark Result ============\n{}==================================================\n"
    )
    p.write_text(
        "- high\n\n"
        + command.format(n=100, c=8)
        + "\n- low\n\n"
        + command.format(n=10, c=1)
        + "\nresults\n\n- high\n\n"
        + result.format(row.format("Successful requests:", 100) + row.format("Maximum request concurrency:", 8))
        + "\n- low\n\n"
        + result.format(row.format("Successful requests:", 10) + row.format("Maximum request concurrency:", 1)),
        encoding="utf-8",
    )
    runs = ingest.read(p, tool="vllm-bench-serve").drop_duplicates("run")
    assert list(runs["num_prompts"]) == [100.0, 10.0]
