"""A write-up's generic bench command (`vllm bench serve --model org/m`) above a section that launches its own
server (`vllm serve org/m-FP8 -tp 8`) and then shows the block: vLLM's server answers only for the names it
serves (the model's path unless `--served-model-name` says another), so the block ran against that launch, and
its model is the launch's. A launch that serves another name, one above the bench command, or a sentence that
merely says `vllm serve` leaves the bench command's model."""

from __future__ import annotations

from benchbook import ingest

BLOCK = (
    "============ Serving Benchmark Result ============\n"
    f"{'Successful requests:':<40} {1000:<10}\n"
    f"{'Request throughput (req/s):':<40} {'6.82':<10}\n"
    "==================================================\n"
)
BENCH = "```\nvllm bench serve --model org/m --num-prompts 1000\n```\n\n"


def model(tmp_path, text: str) -> str:
    p = tmp_path / "w.md"
    p.write_text(text, encoding="utf-8")
    return ingest.read(p, tool="vllm-bench-serve")["model"].iloc[0]


def test_a_launch_below_the_bench_command_names_the_runs_model(tmp_path):
    text = "## Script\n\n" + BENCH + "## vLLM\n\n```\nvllm serve org/m-FP8 -tp 8\n```\n\n```\n" + BLOCK + "```\n"
    assert model(tmp_path, text) == "org/m-FP8"


def test_a_launch_wrapped_over_lines_with_a_served_name_leaves_the_bench_commands(tmp_path):
    launch = "```\nvllm serve org/m-FP8 -tp 8 \\\n  --served-model-name org/m\n```\n\n"
    assert model(tmp_path, "## Script\n\n" + BENCH + launch + "```\n" + BLOCK + "```\n") == "org/m"


def test_a_launch_above_the_bench_command_leaves_the_bench_commands(tmp_path):
    text = "```\nvllm serve org/m-FP8 -tp 8\n```\n\n" + BENCH + "```\n" + BLOCK + "```\n"
    assert model(tmp_path, text) == "org/m"


def test_a_sentence_that_says_vllm_serve_names_no_model(tmp_path):
    text = BENCH + "Then vllm serve the model and run it.\n\n```\n" + BLOCK + "```\n"
    assert model(tmp_path, text) == "org/m"
