"""A heading names the first result below it: where a `vllm bench serve` block stands between a heading
and a `vllm bench latency` result, the heading titled the serving block, so the latency run is not named
by it; a heading right above the latency result names it."""

from __future__ import annotations

from benchbook import ingest

SERVE = (
    "============ Serving Benchmark Result ============\n"
    f"{'Successful requests:':<40} {100:<10}\n"
    "==================================================\n"
)
LATENCY = "Avg latency: 1.07 seconds\n50% percentile latency: 1.05 seconds\n"
CMD = "python benchmarks/benchmark_latency.py --model org/m --tensor-parallel-size 2\n"


def runs(tmp_path, text: str) -> list[str]:
    p = tmp_path / "w.md"
    p.write_text(text)
    return list(dict.fromkeys(ingest.read(p, tool="vllm-bench-offline")["run"]))


def test_a_heading_above_a_serving_block_does_not_name_the_latency_run_below_it(tmp_path):
    assert runs(
        tmp_path, f"#### PP2+DAG\n\n```\n{SERVE}```\n\nlatency test:\n\n```\n{CMD}```\n\n```\n{LATENCY}```\n"
    ) == ["latency 1"]


def test_a_heading_right_above_a_latency_result_names_it(tmp_path):
    assert runs(tmp_path, f"```\n{SERVE}```\n\n#### TP2 latency\n\n```\n{CMD}{LATENCY}```\n") == ["TP2 latency"]
