"""LoadGen's early-stopping note names the queries of the run (`* Processed 100 queries.`), the count its
detail log writes as `result_query_count` beside the same note (MLPerf v6.0, Cisco TEST06: 100 and 100;
Red Hat TEST09: 6396 and 6396). In the Server scenario a query is one sample, so it is the requests
completed; a MultiStream query holds several samples, so there it is not."""

from __future__ import annotations

from conftest import cell

from benchbook import config, ingest

FIX = config.FIXTURES_DIR / "mlperf-loadgen"
TEST06 = FIX / "cisco_v60_2x8xmi350x_llama2_70b_99_server_test06_invalid_100_queries_summary.txt"
TEST09 = FIX / "redhat_v60_llmd_openshift_8xb200_gpt_oss_120b_server_test09_invalid_ttft_summary.txt"


def test_a_server_runs_processed_queries_are_its_completed_requests():
    for path, n, line in ((TEST06, 100, 19), (TEST09, 6396, 18)):
        c = cell(ingest.read_parsed(path)[0].table, "completed", "value")
        assert (c["value"], c["line"]) == (n, line)
        assert f"Processed {n} queries" in path.read_text().splitlines()[line - 1]


def test_the_count_is_kept_once_where_two_notes_state_it(tmp_path):
    text = TEST06.read_text().replace(
        "TTFT Early Stopping Result:\n\n",
        "TTFT Early Stopping Result:\n * Run unsuccessful.\n * Processed 100 queries.\n",
    )
    f = tmp_path / "mlperf_log_summary.txt"
    f.write_text(text)
    p = ingest.read_parsed(f)[0]
    assert (p.table["metric"] == "completed").sum() == 1
    assert any("another early-stopping note" in r for r in p.rejected["reason"])


def test_a_multistream_query_is_not_a_request(tmp_path):
    text = TEST06.read_text().replace("Scenario : Server", "Scenario : MultiStream")
    f = tmp_path / "mlperf_log_summary.txt"
    f.write_text(text)
    p = ingest.read_parsed(f)[0]
    assert not (p.table["metric"] == "completed").any()
    assert any("Processed 100 queries" in r for r in p.rejected["text"])
