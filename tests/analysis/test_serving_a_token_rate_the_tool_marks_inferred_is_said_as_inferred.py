"""MLPerf LoadGen prints `Completed tokens per second (inferred)` where the SUT reports no tokens
(`infer_token_latencies`): samples per second x the tokens per sample its settings assume, no count of tokens.
The serving page keeps the tool's word beside that figure (`serving.runs`' `output_inferred`, said in the run's
figures and in the one-load answer); a summary that prints `Completed tokens per second` plainly says nothing
of the kind."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.analysis import serving
from benchbook.claims import serving as serving_claims

SUMMARY = """================================================
MLPerf Results Summary
================================================
SUT name : PySUT
Scenario : Server
Mode     : PerformanceOnly
Completed samples per second    : 3.84
{label}: 265.06
Result is : VALID
  Performance constraints satisfied : Yes
  Min duration satisfied : Yes
  Min queries satisfied : Yes
  Early stopping satisfied: Yes

================================================
Additional Stats
================================================
Scheduled samples per second : 3.84
Min latency (ns)                : 1536098448
Max latency (ns)                : 22488101489
Mean latency (ns)               : 8058324307
50.00 percentile latency (ns)   : 7533014514
90.00 percentile latency (ns)   : 12435169864
"""


def _runs(tmp_path, label: str):
    path = tmp_path / "mlperf_log_summary.txt"
    path.write_text(SUMMARY.format(label=label), encoding="utf-8")
    return serving.runs(ingest.read_all([path])[0])


@pytest.mark.parametrize(
    "label, inferred",
    [("Completed tokens per second (inferred)", True), ("Completed tokens per second", False)],
)
def test_a_rate_loadgen_marks_inferred_keeps_its_word(tmp_path, label, inferred):
    r = _runs(tmp_path, label)
    assert len(r) == 1 and r["output_throughput"].iloc[0] == pytest.approx(265.06)
    assert bool(r["output_inferred"].iloc[0]) is inferred
    claim = serving_claims.growth(r.assign(series="all"), "request_rate")
    assert claim.evidence.get("inferred") is inferred
