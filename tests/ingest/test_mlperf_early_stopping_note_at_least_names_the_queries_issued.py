"""Where a run met its early-stopping minimum, LoadGen's note names the minimum and then, in parentheses, the
queries it issued: `* Processed at least 64 queries (129272).` (mlcommons/inference, loadgen/results.cc:
`" * Processed at least " + std::to_string(h_min + 1) + " queries (" + std::to_string(queries_issued) +
")."`). In the SingleStream and Server scenarios a query is one sample, so the count in parentheses is the
requests completed; the minimum is a threshold, set aside; a MultiStream query holds several samples."""

from __future__ import annotations

from conftest import cell

from benchbook import config, ingest

FIX = config.FIXTURES_DIR / "mlperf-loadgen"
H100 = FIX / "jamesjellow_h100_80gb_bert99_onnxruntime_cu121_singlestream_summary.txt"
MULTI = FIX / "amitashnanda_v51_m1pro_onnxruntime_resnet50_multistream_summary.txt"


def test_the_queries_issued_are_the_completed_requests_not_the_minimum():
    p = ingest.read_parsed(H100)[0]
    c = cell(p.table, "completed", "value")
    assert (c["value"], c["line"]) == (129272, 13)
    assert H100.read_text().splitlines()[12].strip() == "* Processed at least 64 queries (129272)."
    # 129272 queries at 215.45 per second: 600 s, the run's min_duration (600000 ms)
    assert any("early-stopping minimum (64)" in r for r in p.rejected["reason"])
    assert 64 not in set(p.table.loc[p.table["metric"] == "completed", "value"])


def test_a_multistream_query_is_not_a_request():
    assert "Processed at least" in MULTI.read_text()
    assert not (ingest.read_parsed(MULTI)[0].table["metric"] == "completed").any()
