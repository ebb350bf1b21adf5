"""AIPerf's metric names laid out by another tool (a wrapper's markdown table with its own columns, CSV
rows printed with cells elided) are no AIPerf layout: the file is refused naming the first such row,
not with "no known tool output found". One such row alone, or rows of names AIPerf does not print,
say nothing of AIPerf."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.ingest.core import ParseError

MD = """# NVIDIA A100 SPEC DECODE BENCHMARKS

| Metric | osl-128 avg | osl-512 avg |
|---|---|---|
| Time to First Token (ms) | 49.26 | 49.89 |
| Request Latency (ms) | 1,075.71 | 3,922.21 |
"""

CSV = """results/x/aiperf_report.csv (key rows):
  Inter Token Latency (ms),2.81,...,p50=2.83,...
  Output Token Throughput (tokens/sec),598.78
"""


def _refused(tmp_path, text):
    f = tmp_path / "notes.md"
    f.write_text(text)
    with pytest.raises(ParseError) as e:
        ingest.read(f)
    return str(e.value)


def test_a_wrappers_markdown_table_names_its_first_row(tmp_path):
    assert "notes.md:5: a markdown table of AIPerf's metric names" in _refused(tmp_path, MD)


def test_csv_rows_another_tool_printed_name_their_first_row(tmp_path):
    assert "notes.md:2: CSV rows of AIPerf's metric names" in _refused(tmp_path, CSV)


def test_one_row_or_other_names_say_nothing_of_aiperf(tmp_path):
    one = MD.replace("| Request Latency (ms) | 1,075.71 | 3,922.21 |\n", "")
    assert "no known tool output found" in _refused(tmp_path, one)
    other = MD.replace("Time to First Token", "Boot Time").replace("Request Latency", "Disk Read")
    assert "no known tool output found" in _refused(tmp_path, other)
