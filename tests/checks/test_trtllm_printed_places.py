"""A trtllm-bench value is compared at the places it is printed with: the console prints 4, a copy
pasted into a Markdown table (PR 9459's two branches) keeps 2, and half a unit of the 4th place would
claim a precision the copy does not have."""

from __future__ import annotations

import pytest

from benchbook import checks, config

TRT = config.FIXTURES_DIR / "trtllm-bench"


def _row(name: str, quantity: str):
    t = checks.reproduce_all([TRT / name])
    return t[t["quantity"] == quantity].iloc[0]


def test_a_value_pasted_with_two_places_is_compared_at_two():
    r = _row("trtllm_pr9459_nemotron_nano_31b_a3_fp8_tp8_two_branches.md", "main: output_throughput")
    assert r.published == 15999.06 and r.tolerance >= 0.005  # half a unit of the 2nd place, and what it carries
    assert r.agrees and abs(r.recomputed - r.published) <= r.tolerance


def test_a_console_value_keeps_the_four_places_the_tool_prints():
    r = _row("trtllm_bench_0.17_throughput_engine.txt", "report 1: request_throughput")
    assert r.published == 221.8002 and r.tolerance == pytest.approx(0.00005)
