"""vLLM times each request's first chunk (TTFT) and every later one (ITL) whatever text it holds, and
counts output tokens from the text it kept: a block with 0 generated tokens beside a TTFT and an ITL
above 0 streamed tokens it did not count (the tgi backend, vllm#14673). Its TTFT and ITL are latencies,
its TPOT and output rate (0) are not; a block whose TTFT and ITL are 0 too had no token come at all."""

from __future__ import annotations

import math

from benchbook import ingest
from benchbook.analysis import serving
from benchbook.claims import serving as claims
from benchbook.presentation import serving as show
from benchbook.presentation import wording


def block(ttft: float, itl: float) -> str:
    """A `vllm bench serve` result block with no generated token counted (synthetic numbers)."""
    rows = [
        ("Successful requests:", 100),
        ("Benchmark duration (s):", "10.09"),
        ("Total input tokens:", 12800),
        ("Total generated tokens:", 0),
        ("Request throughput (req/s):", "9.91"),
        ("Output token throughput (tok/s):", "0.00"),
        ("Total Token throughput (tok/s):", "1268.18"),
    ]
    lines = [f"{' Serving Benchmark Result ':=^50}", *(f"{k:<40} {v:<10}" for k, v in rows)]
    for name, v in (("TTFT", ttft), ("TPOT", 0.0), ("ITL", itl)):
        lines += [f"{s + ' ' + name + ' (ms):':<40} {v:<10.2f}" for s in ("Mean", "Median", "P99")]
    return "\n".join([*lines, "=" * 50, ""])


def runs(tmp_path, ttft, itl):
    p = tmp_path / f"b{ttft}.txt"
    p.write_text(block(ttft, itl))
    return serving.runs(ingest.read(p, tool="vllm-bench-serve"))


def test_a_zero_count_beside_timed_chunks_keeps_ttft_and_itl_and_drops_tpot_and_the_rates(tmp_path):
    r = runs(tmp_path, 180.26, 77.93)
    assert bool(r["uncounted"].iat[0]) and not bool(r["no_output"].iat[0])
    assert r["ttft_mean"].iat[0] == 180.26 and r["itl_mean"].iat[0] == 77.93
    assert math.isnan(r["tpot_mean"].iat[0]) and math.isnan(r["output_throughput"].iat[0])
    said = show.figures_sentence(r, serving.goodput_bounds(r, 450.0, 40.0), 450.0, 40.0)
    assert "no output token counted although tokens streamed" in said
    assert "no first token ever came" not in said and "within both" not in said
    assert "counted none of their text" in show.pareto_sentence(r)
    c = wording.word("serving_saturation", claims.tpot_itl(r))
    assert c.status == "withheld" and "although its tokens streamed" in c.text


def test_a_zero_count_with_no_chunk_timed_is_no_token_at_all(tmp_path):
    r = runs(tmp_path, 0.0, 0.0)
    assert bool(r["no_output"].iat[0]) and not bool(r["uncounted"].iat[0])
    assert math.isnan(r["ttft_mean"].iat[0])
    said = show.figures_sentence(r, serving.goodput_bounds(r, 450.0, 40.0), 450.0, 40.0)
    assert "no first token ever came" in said
