"""mlperf-loadgen's detail log (`mlperf_log_detail.txt`, one `:::MLLOG {json}` line per key): the results
the summary is printed from, read under the summary's names; the `effective_*` settings; every number of a
`result_*` key kept or set aside with its reason."""

from __future__ import annotations

import json

import pytest
from conftest import cell

from benchbook import config, ingest
from benchbook.ingest import ParseError
from benchbook.ingest import mlperf as m

DETAIL = config.FIXTURES_DIR / "mlperf-loadgen" / "amitashnanda_v51_m1pro_resnet50_singlestream_mlperf_log_detail.txt"


def _line(key, value):
    meta = {"is_error": False, "is_warning": False, "file": "results.cc", "line_no": 1, "pid": 1, "tid": 1}
    entry = {"key": key, "value": value, "time_ms": 1.0, "namespace": "mlperf::logging", "event_type": "POINT_IN_TIME"}
    return ":::MLLOG " + json.dumps({**entry, "metadata": meta})


def _log(*pairs):
    return "\n".join(_line(k, v) for k, v in [("loadgen_version", "5.1.0 @ x"), *pairs]) + "\n"


def test_a_singlestream_detail_log_is_read_like_its_summary():
    assert ingest.detect(ingest._load_text(DETAIL)) == ["mlperf-loadgen"]
    p = ingest.read_parsed(DETAIL)[0]
    t = p.table
    s = t.iloc[0]
    assert (s["scenario"], s["mode"], s["sut"], s["result"]) == ("SingleStream", "PerformanceOnly", "PySUT", "VALID")
    assert (s["result_percentile"], s["samples_per_query"], s["errors_logged"]) == (90.0, 1.0, 0.0)
    assert s["loadgen_file"] == "detail log" and p.version == "detail log"
    assert cell(t, "request_throughput", "value")["value"] == 32.0538  # result_qps_with_loadgen_overhead
    assert cell(t, "completed", "value")["value"] == 19234.0  # a SingleStream query is one sample
    assert cell(t, "e2el", "p90")["value"] == 32.229833 and cell(t, "e2el", "p99.9")["value"] == 158.48725
    reasons = list(p.rejected["reason"])
    assert sum("1 / the mean latency" in r for r in reasons) == 1 and sum("early-stopping" in r for r in reasons) == 5
    assert p.cells_read == len(t) + len(reasons) == 17


def test_an_llm_server_log_keeps_the_summarys_rates_and_sets_aside_the_ones_it_does_not_print():
    """A Server LLM log: `result_completed_tokens_per_second` is the summary's `Completed tokens per second`;
    the other token rates and the over-latency count (every query, its target_latency being 0) are set
    aside; the limit 0 is unset; the query count is its requests (one sample each)."""
    text = _log(
        ("effective_scenario", "Server"),
        ("effective_target_qps", 9.3),
        ("effective_target_latency_ns", 0),
        ("result_validity", "VALID"),
        ("result_query_count", 13368),
        ("result_overlatency_query_count", 13368),
        ("result_scheduled_samples_per_sec", 9.37147),
        ("result_completed_samples_per_sec", 9.35694),
        ("result_first_token_99.00_percentile_latency_ns", 407241795),
        ("result_time_per_output_token_99.00_percentile_ns", 97097395),
        ("result_time_to_output_token_mean", 48338269),
        ("result_token_throughput_with_loadgen_overhead", 1209.01),
        ("result_token_throughput", 2.04403e-08),
        ("result_completed_tokens_per_second", 1207.14),
        ("num_errors", 0),
    )
    p = m.parse(text, "server_detail.txt")
    t = p.table
    assert cell(t, "output_throughput", "value")["value"] == 1207.14
    assert cell(t, "scheduled_request_rate", "value")["value"] == 9.37147
    assert cell(t, "ttft", "p99")["value"] == 407.241795 and cell(t, "tpot", "p99")["value"] == 97.097395
    assert cell(t, "tpot", "mean")["value"] == 48.338269 and cell(t, "completed", "value")["value"] == 13368
    assert t["latency_limit_ms"].isna().all() and t["result_percentile"].isna().all()
    assert len(p.rejected) == 3 and p.cells_read == len(t) + 3


LLM_SERVER = (
    config.FIXTURES_DIR / "mlperf-loadgen" / "coreweave_v60_gb200_nvl72_x64_deepseek_r1_server_mlperf_log_detail.txt"
)


def test_an_llm_logs_ttft_and_tpot_limits_are_its_requested_token_latencies():
    """LoadGen logs an LLM run's TTFT and TPOT limits among the requested settings only
    (`requested_server_ttft_latency`, `requested_server_tpot_latency`, ns): they are the run's own limits,
    the summary's `ttft_latency (ns)` / `tpot_latency (ns)`."""
    s = ingest.read_parsed(LLM_SERVER)[0].table.iloc[0]
    assert (s["ttft_limit_ms"], s["tpot_limit_ms"]) == (2000.0, 80.0)


def test_token_limits_of_a_run_without_token_latencies_are_not_its_limits():
    pairs = [
        ("effective_scenario", "Server"),
        ("requested_server_ttft_latency", 2000000000),
        ("requested_server_tpot_latency", 200000000),
        ("result_validity", "VALID"),
        ("result_completed_samples_per_sec", 9.3),
    ]
    off = m.parse(_log(("requested_use_token_latencies", False), *pairs), "x.txt").table
    on = m.parse(_log(("requested_use_token_latencies", True), *pairs), "x.txt").table
    assert off["ttft_limit_ms"].isna().all() and off["tpot_limit_ms"].isna().all()
    assert set(on["ttft_limit_ms"]) == {2000.0} and set(on["tpot_limit_ms"]) == {200.0}


def test_an_offline_or_multistream_query_count_is_no_request_count():
    """An Offline query holds every sample, a MultiStream one `samples_per_query`: their query count is
    not the requests completed."""
    for scenario in ("Offline", "MultiStream"):
        log = _log(("effective_scenario", scenario), ("result_query_count", 1), ("result_samples_per_second", 91.2))
        t = m.parse(log, "x").table
        assert set(t["metric"]) == {"request_throughput"}


@pytest.mark.parametrize(
    "text",
    [
        _line("effective_scenario", "Server") + "\n:::MLLOG {not json}\n" + _line("result_validity", "VALID") + "\n",
        _log(("result_validity", "VALID")),  # no scenario, no result
    ],
)
def test_a_broken_detail_log_is_refused_with_its_line(text):
    with pytest.raises(ParseError, match="bad.txt:(2|1):"):
        m.parse(text, "bad.txt")


def test_a_copy_cut_inside_its_last_line_is_read_to_there():
    text = _log(("effective_scenario", "SingleStream"), ("result_qps_with_loadgen_overhead", 32.05))
    t = m.parse(text + ':::MLLOG {"key": "result_min_lat', "cut.txt").table
    assert cell(t, "request_throughput", "value")["value"] == 32.05
