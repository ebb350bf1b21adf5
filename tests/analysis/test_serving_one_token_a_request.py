"""A run whose requests made one output token each (the prefill block of the prefill-then-decode fixture):
vLLM takes TPOT only over requests with more than one output token and ITL between later chunks, printing
0 for an empty list, so its TPOT and ITL zeros are no latencies (the table says why the cell is empty) while
its TTFT, its estimated latency and its requests in flight stand; a block with more tokens keeps them."""

from __future__ import annotations

import math

import pytest

from benchbook import ingest
from benchbook.analysis import serving
from benchbook.presentation import serving as show


def block(generated: int, tpot: float) -> str:
    """A `vllm bench serve` result block in the tool's own `{:<40} {:<10}` rows (synthetic numbers)."""
    rows = [
        ("Successful requests:", 256),
        ("Failed requests:", 0),
        ("Benchmark duration (s):", "25.60"),
        ("Total input tokens:", 1048576),
        ("Total generated tokens:", generated),
        ("Request throughput (req/s):", "10.00"),
        ("Output token throughput (tok/s):", f"{generated / 25.6:.2f}"),
        ("Total token throughput (tok/s):", f"{(1048576 + generated) / 25.6:.2f}"),
    ]
    lines = [f"{' Serving Benchmark Result ':=^50}", *(f"{k:<40} {v:<10}" for k, v in rows)]
    for name, v in (("TTFT", 12000.0), ("TPOT", tpot), ("ITL", tpot)):
        lines += [f"{s + ' ' + name + ' (ms):':<40} {v:<10.2f}" for s in ("Mean", "Median", "P99")]
    return "\n".join([*lines, "=" * 50, ""])


def runs(tmp_path, generated, tpot):
    p = tmp_path / "run.txt"
    p.write_text(block(generated, tpot))
    return serving.runs(ingest.read(p, tool="vllm-bench-serve"))


@pytest.fixture
def single(tmp_path):
    return runs(tmp_path, 256, 0.0)


def test_zeros_of_one_token_requests_are_no_tpot_or_itl(single):
    assert bool(single["one_token"].iat[0])
    assert math.isnan(single["tpot_mean"].iat[0]) and math.isnan(single["itl_p99"].iat[0])
    assert single["ttft_mean"].iat[0] == 12000.0


def test_two_tokens_a_request_keep_their_tpot(tmp_path):
    r = runs(tmp_path, 512, 6.5)
    assert not bool(r["one_token"].iat[0]) and r["tpot_mean"].iat[0] == 6.5


def test_the_table_says_why_and_the_latency_is_the_ttft(tmp_path, single):
    p = tmp_path / "two.md"
    p.write_text("# Prefill\n\n" + block(256, 0.0) + "\n# Decode\n\n" + block(512, 6.5))
    t, missing = show.latency_table(serving.runs(ingest.read(p, tool="vllm-bench-serve")), "tpot")
    assert list(missing["mean TPOT (ms)"]) == [show.ONE_TOKEN, show.NOT_PRINTED]
    assert list(t["mean TPOT (ms)"].isna()) == [True, False]
    lit = serving.littles_law(single)
    assert lit["mean_e2el_s"].iat[0] == pytest.approx(12.0) and lit["in_flight"].iat[0] == pytest.approx(120.0, 0.01)


def test_a_run_without_token_counts_gets_no_estimate(single):
    # no total and no output throughput to give it back (x duration: `littles_law`, stop 60): no output length
    r = single.assign(total_generated_tokens=float("nan"), output_throughput=float("nan"), tpot_mean=10.0)
    assert math.isnan(serving.littles_law(r)["mean_e2el_s"].iat[0])
