"""llama.cpp before mid-2023 printed each phase as `T ms / N tokens (T/N ms per token)`, with no tokens per
second: the request's rate is then 1e3 x N / T, kept where the printed ms per token fits T / N within its
rounding (0.01 ms), and rejected with the formula where it does not."""

from __future__ import annotations

import pytest

from benchbook.ingest import llama_timings

OLD = [
    "llama_print_timings: prompt eval time = 25546.94 ms /   353 tokens (   72.37 ms per token)",
    "llama_print_timings:        eval time = 25116.73 ms /    99 runs   (  253.70 ms per token)",
]


def test_the_rate_of_a_ms_per_token_print_is_its_tokens_over_its_time():
    t = llama_timings.parse("\n".join(OLD), "x.md").table
    rates = t[t["metric"].str.endswith("_rate")].set_index("metric")["value"]
    assert rates["pp_rate"] == pytest.approx(1e3 * 353 / 25546.94, abs=0.005)
    assert rates["tg_rate"] == pytest.approx(1e3 * 99 / 25116.73, abs=0.005)
    assert t["note"].str.contains("ms per token only").any()


def test_a_ms_per_token_its_own_time_and_count_contradict_is_rejected():
    bad = OLD[1].replace("253.70", "153.70")
    parsed = llama_timings.parse("\n".join([OLD[0], bad]), "x.md")
    assert set(parsed.table["metric"]) == {"pp_rate", "pp_duration"}
    assert parsed.rejected["reason"].str.contains("153.7 ms per token contradicts").any()
