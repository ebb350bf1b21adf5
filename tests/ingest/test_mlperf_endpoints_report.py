"""MLPerf Inference Endpoints' `report.txt` (metrics/report.py `Report.display`), read by mlperf-loadgen under
the summary's tidy names: QPS as the request throughput, TPS as the output throughput, the samples completed
and failed, the TTFT/TPOT/latency statistics and percentiles in ms; a poisson load pattern is the Server
scenario at its target_qps, max_throughput the Offline one. The early-stopping estimates (bounds), the
histograms, the output lengths and the accuracy scores are set aside, never kept as measurements."""

from __future__ import annotations

from benchbook import config, ingest

DIR = config.FIXTURES_DIR / "mlperf-loadgen"
SERVER = DIR / "mlperf_v61_nvidia_vr_nvl72_qwen3_vl_235b_a22b_server_endpoints_report.txt"
OFFLINE = DIR / "mlperf_v61_nvidia_vr_nvl72_deepseek_r1_offline_endpoints_report.txt"
SUMMARY = DIR / "mlperf_v41_amd_8xmi300x_2xepyc_turin_llama2_70b_99_server_mlperf_log_summary.txt"


def _value(df, metric, stat):
    got = df.loc[df["metric"].eq(metric) & df["statistic"].eq(stat), "value"]
    return float(got.iloc[0]) if len(got) else None


def test_a_poisson_report_is_a_server_run_at_its_target_qps():
    df = ingest.read(SERVER)
    assert set(df["tool"]) == {"mlperf-loadgen"}
    assert set(df["scenario"]) == {"Server"} and set(df["target_qps"]) == {2340.0}
    assert _value(df, "request_throughput", "value") == 2323.27
    assert _value(df, "output_throughput", "value") == 99742.46
    assert _value(df, "completed", "count") == 1545248 and _value(df, "failed", "count") == 0
    assert _value(df, "ttft", "p99") == 4413.22 and _value(df, "tpot", "median") == 115.6


def test_early_stopping_estimates_are_no_percentiles():
    # the report prints p99 TTFT 4413.22 ms and, below it, an early-stopping estimate of 4431.16 ms
    df = ingest.read(SERVER)
    assert df.loc[df["metric"].eq("ttft") & df["statistic"].eq("p99"), "value"].tolist() == [4413.22]
    rejected = ingest.read_parsed(SERVER)[0].rejected
    kept_aside = rejected.loc[rejected["text"].str.contains("4431.16"), "reason"].tolist()
    assert kept_aside and all("early-stopping" in r for r in kept_aside)


def test_a_max_throughput_report_is_an_offline_run_with_no_target():
    df = ingest.read(OFFLINE)
    assert set(df["scenario"]) == {"Offline"}
    assert df["target_qps"].isna().all()
    assert _value(df, "request_throughput", "value") == 312.23
    assert _value(df, "ttft", "mean") is None  # an offline run's report prints no TTFT


def test_a_loadgen_summary_is_not_read_as_an_endpoints_report():
    df = ingest.read(SUMMARY)
    assert set(df["loadgen_file"]) == {"summary"}
