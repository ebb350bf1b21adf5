"""A total token throughput is (prompt + output tokens) / duration, the sum of the input and output rates:
SGLang's 2024 `bench_serving` block prints both rates and no Total row (sglang issue 913), so its total,
and the compute drawn from it, is their sum; a block that prints its own total keeps it."""

from __future__ import annotations

import math

from benchbook import ingest
from benchbook.analysis import serving


def block(total: str | None) -> str:
    """An SGLang `bench_serving` result block in the tool's `{:<40} {:<10}` rows (synthetic numbers)."""
    rows = [
        ("Backend:", "sglang"),
        ("Traffic request rate:", "inf"),
        ("Successful requests:", 1000),
        ("Benchmark duration (s):", "400.00"),
        ("Total input tokens:", 240000),
        ("Total generated tokens:", 200000),
        ("Request throughput (req/s):", "2.50"),
        ("Input token throughput (tok/s):", "600.00"),
        ("Output token throughput (tok/s):", "500.00"),
    ]
    if total is not None:
        rows.append(("Total token throughput (tok/s):", total))
    lines = [f"{' Serving Benchmark Result ':=^50}", *(f"{k:<40} {v:<10}" for k, v in rows)]
    lines += [f"{' End-to-End Latency ':-^50}", f"{'Mean E2E Latency (ms):':<40} {'200000.00':<10}", "=" * 50, ""]
    return "\n".join(lines)


def runs(tmp_path, total):
    p = tmp_path / "sglang.txt"
    p.write_text(block(total))
    return serving.runs(ingest.read(p, tool="sglang-bench-serving"))


def test_input_and_output_rates_without_a_total_give_their_sum(tmp_path):
    assert runs(tmp_path, None)["total_token_throughput"].iat[0] == 1100.0


def test_a_printed_total_is_kept(tmp_path):
    r = runs(tmp_path, "1234.00")
    assert r["total_token_throughput"].iat[0] == 1234.0


def test_one_rate_alone_gives_no_total(tmp_path):
    p = tmp_path / "sglang.txt"
    p.write_text(block(None).replace(f"{'Input token throughput (tok/s):':<40} {'600.00':<10}\n", ""))
    r = serving.runs(ingest.read(p, tool="sglang-bench-serving"))
    assert math.isnan(r["total_token_throughput"].iat[0])
