"""trtllm-bench's report up to 0.14: `= STATISTICS` where PERFORMANCE OVERVIEW later stands, `Total
Latency (seconds)`; here a copy whose rules a Markdown converter escaped (`\\===`) and whose first
banner was cut."""

from __future__ import annotations

import pytest
from conftest import cell

from benchbook import config, ingest
from benchbook.ingest import trtllm_bench

V014 = (
    config.FIXTURES_DIR
    / "trtllm-bench"
    / "readme_trtllm_bench_v014_llama2_7b_fp8_statistics_and_low_latency_benchmark_lines.md"
)

RULE = "=" * 59
#: The 0.12-0.14 STATISTICS section as the tool prints it (tab-padded), with a synthetic run's numbers.
STATISTICS = f"""{RULE}
= STATISTICS
{RULE}
Number of requests:\t\t100
Average Input Length (tokens):\t128.0
Average Output Length (tokens):\t128.0
Token Throughput (tokens/sec):\t640.0
Request Throughput (req/sec):\t5.0
Total Latency (seconds):\t20.0
{RULE}
"""


def test_the_escaped_statistics_report_is_read_with_its_settings_above_the_cut_banner():
    text = V014.read_text(encoding="utf-8")
    assert ingest.detect(text) == ["trtllm-bench"]
    p = trtllm_bench.parse(text, V014.name)
    t = p.table
    assert cell(t, "completed", "count")["value"] == 3000
    assert cell(t, "output_throughput", "value")["value"] == pytest.approx(18886.813971319196)
    assert cell(t, "request_throughput", "value")["value"] == pytest.approx(147.55323415093122)
    # printed in seconds: kept as printed, not divided as `Total Latency (ms)` is
    assert cell(t, "duration", "value")[["value", "unit", "line"]].tolist() == [pytest.approx(20.331645167), "s", 66]
    assert set(t["model"]) == {"meta-llama/Llama-2-7b-hf"}  # the inline-code command above the report
    assert set(t["dataset"]) == {"/tmp/synthetic_128_128.txt"}
    meta = t["metadata"].iloc[0]
    assert "tp=1" in meta and "pp=1" in meta and "max_batch_size=4096" in meta
    assert p.cells_read == len(t) + len(p.rejected) == 7  # the issue rate is set aside as out of range
    assert 336154.41 not in set(t["value"])  # the [BENCHMARK] lines after the fence are not this report


def test_seconds_and_milliseconds_each_give_the_duration_in_seconds():
    t = trtllm_bench.parse(STATISTICS, "x").table
    assert cell(t, "duration", "value")["value"] == 20.0
    assert cell(t, "output_throughput", "value")["value"] == 640.0  # 100 x 128 / 20 s: output tokens only
    ms = STATISTICS.replace("Total Latency (seconds):\t20.0", "Total Latency (ms):\t20000.0")
    assert cell(trtllm_bench.parse(ms, "x").table, "duration", "value")["value"] == 20.0


def test_a_statistics_section_without_the_reports_labels_is_not_trtllm_bench():
    other = f"{RULE}\n= STATISTICS\n{RULE}\nRequests served: 100\nMean latency (seconds): 2.0\n{RULE}\n"
    assert "trtllm-bench" not in ingest.detect(other)
    assert "trtllm-bench" not in ingest.detect(STATISTICS.replace("= STATISTICS", "STATISTICS"))


def test_a_fence_closes_a_section_that_lost_its_closing_rule():
    text = "```\n" + STATISTICS.rsplit(RULE, 1)[0] + "```\n\nNumber of requests: 7\n"
    t = trtllm_bench.parse(text, "x").table
    assert cell(t, "completed", "count")["value"] == 100 and 7 not in set(t["value"])
