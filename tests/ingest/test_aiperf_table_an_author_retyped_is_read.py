"""A Markdown table an author re-typed from one AIPerf run (issue #35 class 6): its header names AIPerf's
metric column and AIPerf's statistics (`| Metric | avg | p50 | p99 |`), so which statistic each number is,
the table says, and the `aiperf profile` command above it is the run's; its rows name AIPerf's metrics in
full or by the abbreviations AIPerf's metrics reference gives (TTFT, TTST, ITL: AIPerf's Inter Token
Latency, vLLM's TPOT). A table whose columns are its own (`osl-128 avg`) stays a wrapper's and is refused,
and a text that never names AIPerf is not read as AIPerf's."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import aiperf, aiperf_console

DEVTO = (
    config.FIXTURES_DIR / "aiperf/devto_qainsights_granite4_350m_ollama_aiperf_c1_retyped_table_then_c50_command_cut.md"
)

TWO = """I benchmarked two caps with AIPerf.

aiperf profile --model m1 --concurrency 4 --request-count 40

| Metric | avg | p99 |
|---|---|---|
| Time to First Token (ms) | 100.0 | 150.0 |
| Request Throughput (requests/sec) | 2.0 | N/A |

aiperf profile --model m1 --concurrency 16 --request-count 160

| Metric | avg | p99 |
|---|---|---|
| TTFT (ms) | 300.0 | 450.0 |
| Request Throughput (requests/sec) | 5.0 | N/A |
"""


def test_the_devto_table_is_read_under_its_header_with_the_command_above_it():
    assert ingest.detect(DEVTO.read_text()) == ["aiperf"]
    p = ingest.read_parsed(DEVTO, tool="aiperf")[0]
    t = p.table.set_index(["metric", "statistic"])["value"]
    assert (t[("ttft", "mean")], t[("ttft", "p50")], t[("ttft", "p99")]) == (223.11, 217.60, 317.61)
    assert t[("tpot", "mean")] == pytest.approx(10.67)  # "ITL (ms)": AIPerf's Inter Token Latency
    assert t[("e2el", "p99")] == pytest.approx(3251.73)
    assert t[("request_throughput", "value")] == pytest.approx(0.76)
    # the command above the table (concurrency 1, 50 requests), not the second run's below it (concurrency 50)
    assert set(p.table["max_concurrency"]) == {1} and set(p.table["num_prompts"]) == {50}
    assert set(p.table["model"]) == {"granite4:350m"}
    assert set(p.table["format"]) == {aiperf_console.RETYPED}


def test_each_table_is_one_run_with_the_command_above_it():
    t = aiperf.parse(TWO, "notes.md").table
    ttft = t[(t["metric"] == "ttft") & (t["statistic"] == "mean")].set_index("max_concurrency")["value"]
    assert ttft.to_dict() == {4.0: 100.0, 16.0: 300.0}
    assert t["run"].nunique() == 2


def test_a_table_with_no_command_above_it_knows_no_setting():
    bare = TWO.split("\n\n", 2)[2].split("aiperf profile --model m1 --concurrency 16")[0]
    t = aiperf.parse("Numbers from an AIPerf run:\n\n" + bare, "notes.md").table
    assert set(t["format"]) == {aiperf_console.RETYPED_BARE}
    assert t["model"].isna().all()


def test_a_table_whose_columns_are_not_aiperfs_statistics_is_not_read():
    own = TWO.replace("| Metric | avg | p99 |", "| Metric | osl-128 avg | osl-512 avg |")
    assert not aiperf_console.is_retyped(own)
    assert aiperf_console.refuses(own)[1].startswith(
        "a markdown table of AIPerf's metric names laid out by another tool"
    )


def test_a_text_that_never_names_aiperf_is_not_read_as_aiperfs():
    other = TWO.replace("with AIPerf", "with a script").replace("aiperf profile", "bench run")
    assert "aiperf" not in ingest.detect(other)
