"""gptSessionBenchmark's 2023 line prints `latency(ms)` and no rate; the tool's later lines print
`tokensPerSec` = batch_size x output_length / (latency / 1000), so a latency-only line gets that rate,
noted as computed, and a line that prints its own rate keeps it (no second value)."""

from __future__ import annotations

import pytest

from benchbook import ingest

OLD = "[BENCHMARK] batch_size 4 input_length 20 output_length 20 latency(ms) 432.51\n"
NEW = "[BENCHMARK] batch_size 4 input_length 20 output_length 20 latency(ms) 432.51 tokensPerSec 180.00\n"


def _rates(tmp_path, text):
    f = tmp_path / "log.md"
    f.write_text(text)
    df = ingest.read(f)
    return df[df["metric"] == "throughput"]


def test_a_latency_only_line_gets_batch_times_tokens_over_latency(tmp_path):
    t = _rates(tmp_path, OLD)
    assert t["value"].tolist() == [pytest.approx(4 * 20 / 0.43251)]
    assert "prints no tokensPerSec" in t["note"].iat[0]


def test_a_line_with_its_own_rate_keeps_it(tmp_path):
    t = _rates(tmp_path, NEW)
    assert t["value"].tolist() == [180.0] and t["note"].isna().all()
