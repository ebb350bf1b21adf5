"""The first vLLM benchmark_serving.py (2023): its five lines, read by the vllm-bench-serve parser."""

from __future__ import annotations

import math

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError, UnknownFormat

FIX = config.FIXTURES_DIR / "vllm-bench-serve"
ISSUE = FIX / "vllm_issue359_a100_llama7b_rate200_2023.md"
KSERVE = FIX / "kserve_vllm_runtime_llama2_7b_rate5_2023.md"
LINES = """Total time: 10.00 s
Throughput: 4.00 requests/s
Average latency: 2.50 s
Average latency per token: 0.01 s
Average latency per output token: 0.05 s
"""


def _value(df, metric, statistic="value"):
    hit = df[(df["metric"] == metric) & (df["statistic"] == statistic)]
    assert len(hit) == 1, (metric, statistic, len(hit))
    return hit.iloc[0]


def test_the_issue_run_is_read_with_its_namespace_load():
    df = ingest.read(ISSUE)
    assert set(df["tool"]) == {"vllm-bench-serve"} and set(df["format"]) == {"text 2023"}
    assert _value(df, "duration")["value"] == 166.88
    assert _value(df, "request_throughput")["value"] == 5.99
    assert _value(df, "e2el", "mean")["value"] == pytest.approx(67590.0)  # printed in seconds
    assert set(df["request_rate"]) == {200.0} and set(df["num_prompts"]) == {1000.0}
    assert df["max_concurrency"].isna().all()  # the 2023 script had no cap


def test_latency_per_output_token_is_not_tpot():
    """The script divides the whole latency (first-token wait included) by the output tokens."""
    df = ingest.read(ISSUE)
    assert _value(df, "e2el_per_output_token", "mean")["value"] == pytest.approx(1100.0)
    assert "tpot" not in set(df["metric"])


def test_every_prompt_completed_by_the_scripts_retry_loop():
    df = ingest.read(ISSUE)
    assert _value(df, "completed", "count")["value"] == 1000.0
    assert _value(df, "failed", "count")["value"] == 0.0


def test_without_a_prompt_count_completed_is_not_invented():
    """KServe's copy prints no Namespace and passes no --num-prompts: completed stays unknown."""
    df = ingest.read(KSERVE)
    assert not {"completed", "failed"} & set(df["metric"])


def test_a_copy_of_the_script_under_another_name_gives_its_request_rate():
    df = ingest.read(KSERVE)
    assert set(df["request_rate"]) == {5.0}
    assert _value(df, "request_throughput")["value"] == 4.61


def test_no_request_rate_anywhere_is_left_unknown_for_the_default(tmp_path):
    p = tmp_path / "bare.txt"
    p.write_text(LINES, encoding="utf-8")
    df = ingest.read(p)
    assert df["request_rate"].isna().all() and math.isclose(_value(df, "e2el", "mean")["value"], 2500.0)


def test_a_forks_extra_line_is_set_aside_with_its_reason(tmp_path):
    p = tmp_path / "fork.txt"
    p.write_text(LINES + "Throughput: 812.5 tokens/s\n", encoding="utf-8")
    df = ingest.read(p)
    assert [r["line"] for r in df.attrs["rejected"]] == [6]
    assert "no tidy name" in df.attrs["rejected"][0]["reason"]


def test_a_block_without_its_average_latency_line_is_refused_naming_the_line(tmp_path):
    p = tmp_path / "near.txt"
    p.write_text("Total time: 10.00 s\nThroughput: 4.00 requests/s\nAverage first token latency: 0.5 s\n")
    with pytest.raises(ParseError, match=r"near\.txt:3: expected 'Average latency: N s'"):
        ingest.read(p)


def test_a_throughput_line_without_total_time_above_it_is_not_this_tool(tmp_path):
    p = tmp_path / "other.txt"
    p.write_text("Throughput: 4.00 requests/s\nAverage latency: 2.50 s\n", encoding="utf-8")
    with pytest.raises(UnknownFormat):
        ingest.read(p)
