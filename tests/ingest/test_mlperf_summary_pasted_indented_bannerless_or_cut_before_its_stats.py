"""LoadGen summaries as people paste them, each read by how results.cc writes one:

- indented in a page's code block: results.cc starts every row at the line's start, so a paste indents
  them all alike, and the summary ends at the first line set less deep (the page's next paragraph);
- from its `SUT name :` line, with no banner above it: `SUT name :`, `Scenario :` and `Mode :`, the three
  lines results.cc writes first, open it;
- cut before Additional Stats: a SingleStream result line (`90th percentile latency (ns)`, an LLM's
  `90th first token percentile latency (ns)`) is set aside only where a row of the copy prints the same
  latency again, else it is the run's latency at that percentile;
- a value written over by a placeholder (`xxxxxxxxxx`) is refused naming its line: no measured value.
A SUT named `<model> SUT` (FuriosaAI's `GPT-J SUT`) names its model."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.ingest import mlperf as m
from benchbook.ingest.core import ParseError

HEAD = """================================================
MLPerf Results Summary
================================================
SUT name : GPT-J SUT
Scenario : Offline
Mode     : PerformanceOnly
Samples per second: 12.1491
Result is : VALID
"""


def _value(p, metric, stat):
    t = p.table
    return t[(t["metric"] == metric) & (t["statistic"] == stat)]["value"].tolist()


def test_an_indented_summary_ends_where_the_page_goes_back_to_its_margin():
    page = (
        "Run it:\n\n"
        + "".join("  " + s + "\n" for s in HEAD.splitlines())
        + "\nConfiguration\n\n  x.Server.target_qps = 1900\n"
    )
    p = m.parse(page, "page.rst")
    assert _value(p, "request_throughput", "value") == [12.1491] and set(p.table["model"]) == {"GPT-J"}
    flush = HEAD + "\nConfiguration\n  x.Server.target_qps = 1900\n"  # not indented: the summary runs on
    with pytest.raises(ParseError, match="Label : value"):
        m.parse(flush, "flush.txt")


SERVER = """My result
```
SUT name : LWIS_Server
Scenario : Server
Mode     : PerformanceOnly
Scheduled samples per second : 110.25
Result is : INVALID
```
"""


def test_a_summary_pasted_from_its_sut_name_line_is_read():
    assert m.TOOL.name in ingest.detect(SERVER)
    p = m.parse(SERVER, "issue.md")
    assert _value(p, "scheduled_request_rate", "value") == [110.25] and "line 3" in p.messages[0]
    # a SUT name with no Scenario and Mode lines under it is no LoadGen summary
    assert m.TOOL.name not in ingest.detect("SUT name : x\nModel : llama\nTokens per second: 3\n")


STREAM = """================================================
MLPerf Results Summary
================================================
SUT name : TFLite
Scenario : SingleStream
Mode     : PerformanceOnly
90th percentile latency (ns) : 6196843547
90th first token percentile latency (ns) : 5568099822
Result is : VALID
"""
STATS = """
================================================
Additional Stats
================================================
90.00 percentile latency (ns)   : 6196843547
"""


def test_a_result_line_is_the_runs_latency_where_the_copy_has_no_row_repeating_it():
    p = m.parse(STREAM, "cut.md")
    assert _value(p, "e2el", "p90") == [pytest.approx(6196.843547)]
    assert _value(p, "ttft", "p90") == [pytest.approx(5568.099822)]
    whole = m.parse(STREAM + STATS, "whole.md")
    assert _value(whole, "e2el", "p90") == [pytest.approx(6196.843547)]  # once: the stats row's
    assert (whole.rejected["line"] == 7).any() and _value(whole, "ttft", "p90") == [pytest.approx(5568.099822)]


def test_a_placeholder_value_is_refused_naming_its_line():
    with pytest.raises(ParseError) as err:
        m.parse(STREAM.replace("6196843547", "xxxxxxxxxx"), "placeholder.md")
    assert err.value.line == 7 and "placeholder" in err.value.message


def test_a_sut_name_without_a_hyphenated_model_names_none():
    p = m.parse(HEAD.replace("GPT-J SUT", "PySUT"), "py.txt")
    assert p.table["model"].isna().all()
