"""One script above several result blocks, each pasted in its own fence under a heading that names its
configuration (`#### v0+GPU+PP2+DAG`), with no command of its own: every block ran that script's client
command, so each takes its rate and prompts. A block parted from the one before by prose keeps none of
that command's settings (the prose may say what changed)."""

from __future__ import annotations

from benchbook import ingest

BLOCK = (
    "============ Serving Benchmark Result ============\n"
    f"{'Successful requests:':<40} {100:<10}\n"
    f"{'Request throughput (req/s):':<40} {'2.72':<10}\n"
    "==================================================\n"
)
SCRIPT = "#### script\n\n```bash\npython benchmarks/benchmark_serving.py --model org/m --num-prompts 100 --request-rate 4\n```\n\n"


def settings(tmp_path, between: str):
    p = tmp_path / "w.md"
    p.write_text(f"{SCRIPT}#### a\n\n```\n{BLOCK}```\n\n{between}```\n{BLOCK}```\n")
    return ingest.read(p, tool="vllm-bench-serve").groupby("run", sort=False)[["num_prompts", "request_rate"]].first()


def test_a_block_under_its_own_heading_repeats_the_script_above(tmp_path):
    df = settings(tmp_path, "#### a+dag\n\n")
    assert df.loc["a"].tolist() == [100.0, 4.0] and df.loc["a+dag"].tolist() == [100.0, 4.0]


def test_a_block_after_prose_takes_none_of_the_command_above(tmp_path):
    df = settings(tmp_path, "#### b\n\nThen with eight times the prompts:\n\n")
    assert df.loc["b"].isna().all()
