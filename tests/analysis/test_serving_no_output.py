"""A run whose requests completed without one output token (the EPD fixture's shape): the TTFT, TPOT
and ITL vLLM prints for it (0.00, its mean of an empty list) are no latencies, so no SLO share,
Little's-law count or decode speed is drawn from them; the same block with tokens keeps them."""

from __future__ import annotations

import math

import pytest

from benchbook import ingest
from benchbook.analysis import serving
from benchbook.claims import serving as claims
from benchbook.presentation import serving as show
from benchbook.presentation import wording


def block(generated: int, ttft: float, tpot: float) -> str:
    """A `vllm bench serve` result block in the tool's own `{:<40} {:<10}` rows (synthetic numbers)."""
    rows = [
        ("Successful requests:", 297),
        ("Failed requests:", 3),
        ("Maximum request concurrency:", 32),
        ("Request rate configured (RPS):", "8.00"),
        ("Benchmark duration (s):", "37.54"),
        ("Total input tokens:", 304128),
        ("Total generated tokens:", generated),
        ("Request throughput (req/s):", "7.91"),
        ("Output token throughput (tok/s):", f"{generated / 37.54:.2f}"),
        ("Total token throughput (tok/s):", "8101.28"),
    ]
    lat = [("TTFT", ttft), ("TPOT", tpot), ("ITL", tpot)]
    lines = [f"{' Serving Benchmark Result ':=^50}"]
    lines += [f"{k:<40} {v:<10}" for k, v in rows]
    for name, v in lat:
        lines += [f"{s + ' ' + name + ' (ms):':<40} {v:<10.2f}" for s in ("Mean", "Median", "P99")]
    return "\n".join([*lines, "=" * 50, ""])


@pytest.fixture
def silent(tmp_path):
    p = tmp_path / "silent.txt"
    p.write_text(block(0, 0.0, 0.0))
    return serving.runs(ingest.read(p, tool="vllm-bench-serve"))


@pytest.fixture
def talking(tmp_path):
    p = tmp_path / "talking.txt"
    p.write_text(block(297 * 64, 120.0, 20.0))
    return serving.runs(ingest.read(p, tool="vllm-bench-serve"))


def test_a_run_without_output_tokens_has_no_latencies(silent, talking):
    assert bool(silent["no_output"].iat[0]) and math.isnan(silent["ttft_mean"].iat[0])
    assert math.isnan(silent["tpot_p99"].iat[0]) and math.isnan(silent["itl_median"].iat[0])
    assert not bool(talking["no_output"].iat[0]) and talking["ttft_mean"].iat[0] == 120.0


def test_no_slo_share_or_concurrency_is_drawn_from_the_zeros(silent, talking):
    lit = serving.littles_law(silent)
    assert math.isnan(lit["in_flight"].iat[0])
    c = wording.word("serving_saturation", claims.underfilled(lit))
    assert c.status == "withheld" and "without a single output token" in c.text
    assert "completed a request" not in c.text  # 297 did
    said = show.figures_sentence(lit, serving.goodput_bounds(silent, 450.0, 40.0), 450.0, 40.0)
    assert "not one output token generated" in said and "within both" not in said
    assert serving.littles_law(talking)["in_flight"].iat[0] > 0


def test_tpot_and_itl_are_not_said_to_be_missing_when_they_are_zeros(silent):
    c = wording.word("serving_saturation", claims.tpot_itl(silent))
    assert c.status == "withheld" and "No run generated an output token" in c.text
    assert "No run generated an output token" in show.pareto_sentence(silent)
