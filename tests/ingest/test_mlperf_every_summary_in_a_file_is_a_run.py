"""LoadGen writes one summary per run (loadgen/results.cc), so a file holding several summaries (a
write-up that shows an Offline and a Server run, each under its command) holds several runs: each is
read, none dropped. A summary pasted into an HTML page keeps the page's markup (`<pre>`,
`<b>Samples per second: 11022.4</b>`): LoadGen writes no `<`, so the tags are taken off and the row read.
A file with one summary keeps the run name it always had."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.ingest.core import ParseError

OFFLINE = """================================================
MLPerf Results Summary
================================================
SUT name : PySUT
Scenario : Offline
Mode     : PerformanceOnly
Samples per second: 365.738
Tokens per second: 103480
Result is : VALID
"""

SERVER = """================================================
MLPerf Results Summary
================================================
SUT name : PySUT
Scenario : Server
Mode     : PerformanceOnly
Completed samples per second    : 354.41
Completed tokens per second: 100282.36
Result is : VALID
"""


def _read(tmp_path, text):
    f = tmp_path / "notes.md"
    f.write_text(text)
    return ingest.read(f)


def test_two_summaries_are_two_runs(tmp_path):
    text = f"Offline:\n\n```text\n{OFFLINE}...\n```\n\nServer:\n\n```text\n{SERVER}...\n```\n"
    df = _read(tmp_path, text)
    runs = df.drop_duplicates("run").set_index("run")["scenario"].to_dict()
    assert runs == {"summary 1": "Offline", "summary 2": "Server"}
    rates = df[df["metric"] == "request_throughput"].set_index("run")["value"].to_dict()
    assert rates == {"summary 1": 365.738, "summary 2": 354.41}


def test_one_summary_keeps_its_run_name(tmp_path):
    df = _read(tmp_path, OFFLINE)
    assert set(df["run"]) == {"summary"}


def test_html_marks_inside_the_rows_are_taken_off(tmp_path):
    text = OFFLINE.replace("Samples per second: 365.738", "<b>Samples per second: 365.738</b>")
    df = _read(tmp_path, f"<details>\n<pre>\n{text}</pre>\n</details>\n")
    assert df.loc[df["metric"] == "request_throughput", "value"].tolist() == [365.738]
    assert df["result"].iloc[0] == "VALID"


def test_a_row_in_another_markup_is_still_refused(tmp_path):
    text = OFFLINE.replace("Samples per second: 365.738", "[b]Samples per second: 365.738[/b]")
    with pytest.raises(ParseError, match=r"Samples per second"):
        _read(tmp_path, text)
