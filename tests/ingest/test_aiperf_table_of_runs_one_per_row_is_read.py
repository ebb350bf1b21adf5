"""A Markdown table an author laid out one AIPerf run per row (issue #35 class 6): its first column the load
as AIPerf's option names it (`concurrency`), every other column one of AIPerf's metric labels with its unit
(`Time to First Token (ms)`): each row one run at that load, each number under its column's metric, read as the
table names it (the header names no statistic). A column that is no AIPerf metric with its unit, or a load
that is not a number, leaves the table unread and the file refused naming its line."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.ingest import aiperf_console

HEAD = "| concurrency | Time to First Token (ms) | Output Token Throughput Per User (tokens/sec/user) | Request Latency (ms) |"
RUNS = f"""Results of `aiperf profile` at three caps.

{HEAD}
|---|---|---|---|
| 1 | 559.10 | 64.45 | 16110.81 |
| 5 | 57879.07 | 63.62 | 73615.48 |
"""


def _read(tmp_path, text):
    f = tmp_path / "report.md"
    f.write_text(text)
    return ingest.read(f)


def test_each_row_is_one_run_at_its_load(tmp_path):
    df = _read(tmp_path, RUNS)
    assert set(df["format"]) == {aiperf_console.RETYPED_RUNS} and set(df["run"]) == {"concurrency 1", "concurrency 5"}
    ttft = df[df["metric"] == "ttft"].sort_values("max_concurrency")
    assert ttft["value"].tolist() == [559.10, 57879.07] and ttft["max_concurrency"].tolist() == [1.0, 5.0]
    assert set(ttft["statistic"]) == {"value"} and ttft["line"].tolist() == [5, 6]
    assert df[df["metric"] == "e2el"]["value"].tolist() == [16110.81, 73615.48]
    assert df[df["metric"] == "output_token_throughput_per_user"]["unit"].tolist() == ["tok/s/user"] * 2


@pytest.mark.parametrize(
    "change",
    [
        ("Request Latency (ms)", "Speedup"),  # a column that is no AIPerf metric with its unit
        ("| 5 |", "| five |"),  # a load that is not a number
        ("Results of `aiperf profile`", "Results of our client"),  # a text that never names AIPerf
    ],
)
def test_a_table_that_does_not_fit_stays_refused_naming_its_line(tmp_path, change):
    text = RUNS.replace(*change)
    assert aiperf_console.by_run_tables(text.split("\n")) == [] or "aiperf" not in text.lower()
    with pytest.raises(ingest.ParseError, match=r"report\.md:\d+: "):
        _read(tmp_path, text)
