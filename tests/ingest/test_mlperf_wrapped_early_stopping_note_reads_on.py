"""LoadGen wraps an early-stopping note over lines it starts with a space (loadgen/results.cc: " * Not
enough queries processed for 99th percentile\\n early stopping estimate (would need to process at\\n
least 662 total queries)."): those lines go on with the note, their numbers set aside with it, and the
summary is read. A line of the same words that does not follow a note is still no LoadGen line."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.ingest.core import ParseError

SUMMARY = """================================================
MLPerf Results Summary
================================================
SUT name : PySUT
Scenario : SingleStream
Mode     : PerformanceOnly
90.0th percentile latency (ns) : 50798000
Result is : VALID
  Min duration satisfied : Yes
  Min queries satisfied : Yes
  Early stopping satisfied: Yes
Early Stopping Result:
 * Processed at least 64 queries (210).
 * Not enough queries processed for 99.0th percentile
 early stopping estimate (would need to process at
 least 662 total queries).

================================================
Additional Stats
================================================
QPS w/ loadgen overhead         : 20.88
QPS w/o loadgen overhead        : 20.89

Mean latency (ns)               : 47877956
"""


def _read(tmp_path, text):
    f = tmp_path / "mlperf_log_summary.txt"
    f.write_text(text)
    return ingest.read(f)


def test_a_wrapped_note_reads_on_and_the_summary_is_read(tmp_path):
    df = _read(tmp_path, SUMMARY)
    assert (df["metric"] == "e2el").any()
    assert any("662" in r["text"] for r in df.attrs["rejected"])


def test_the_same_words_after_no_note_are_still_refused(tmp_path):
    text = SUMMARY.replace(" * Not enough queries processed for 99.0th percentile\n", "\n")
    with pytest.raises(ParseError, match="least 662"):
        _read(tmp_path, text)
