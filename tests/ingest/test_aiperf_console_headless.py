"""AIPerf's LLM Metrics rows pasted without the table's title and header: read under the exporter's
fixed columns (`ConsoleMetricsExporter.STAT_COLUMN_KEYS`: avg, min, max, p99, p90, p50, std) where each
row has exactly those seven cells and a unit AIPerf writes; six cells (the first releases' avg ... p75,
or GenAI-Perf's table) or one row alone are not read as AIPerf's."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import aiperf, aiperf_console

FIX = config.FIXTURES_DIR / "aiperf"
ROWS = FIX / "aiperf_issue535_four_rows_no_header_na_percentiles.md"

TWO = """\
│ Request Latency (ms) │ 1,200.50 │ 900.00 │ 1,500.00 │ 1,490.00 │ 1,400.00 │ 1,180.00 │ 120.00 │
│ Request Throughput (requests/sec) │ 3.20 │ N/A │ N/A │ N/A │ N/A │ N/A │ N/A │
"""


def test_four_rows_without_a_header_are_aiperf_only():
    assert ingest.detect(ROWS.read_text()) == ["aiperf"]


def test_each_value_under_the_exporters_fixed_column():
    p = ingest.read_parsed(ROWS, tool="aiperf")[0]
    t = p.table.set_index(["metric", "statistic"])["value"]
    assert t[("input_sequence_length", "mean")] == 512 and t[("input_sequence_length", "std")] == 0
    assert t[("output_throughput", "value")] == pytest.approx(5388.43)
    assert t[("request_throughput", "value")] == pytest.approx(1.80)
    assert t[("completed", "count")] == 100
    assert set(p.table["format"]) == {aiperf_console.HEADLESS}
    assert any("without the table's title and header" in m for m in p.messages)


def test_a_synthetic_pair_reads_the_percentiles_in_order():
    t = aiperf.parse(TWO, "x.md").table
    e = t[t["metric"] == "e2el"].set_index("statistic")["value"]
    assert (e["mean"], e["min"], e["max"], e["p99"], e["p90"], e["p50"], e["std"]) == (
        1200.5,
        900.0,
        1500.0,
        1490.0,
        1400.0,
        1180.0,
        120.0,
    )


@pytest.mark.parametrize(
    "text",
    [
        # six statistics: the first AIPerf releases (avg ... p75) or GenAI-Perf's table: columns not known
        TWO.replace(" 1,180.00 │ 120.00 │", " 1,180.00 │").replace(" N/A │ N/A │\n", " N/A │\n"),
        # one row alone
        TWO.splitlines()[0] + "\n",
        # a unit AIPerf does not write (GenAI-Perf's `per sec`)
        TWO.replace("(ms)", "(per sec)").replace("(requests/sec)", "(per sec)"),
    ],
    ids=["six_columns", "one_row", "genai_perf_units"],
)
def test_rows_of_another_layout_are_not_read_as_aiperfs(text):
    assert not aiperf_console.is_headless(text)
    assert "aiperf" not in ingest.detect(text)


def test_rows_under_their_header_take_the_titled_path():
    titled = "NVIDIA AIPerf | LLM Metrics\n┃ Metric ┃ avg ┃ min ┃ max ┃ p99 ┃ p90 ┃ p50 ┃ std ┃\n" + TWO
    assert not aiperf_console.is_headless(titled)
