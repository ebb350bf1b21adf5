"""mlperf-loadgen parser: real LLM Server and Offline LoadGen summaries (MLPerf Inference v4.1 and v6.1),
bad input."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import cell

from benchbook import config, ingest
from benchbook.ingest import ParseError
from benchbook.ingest import mlperf as m

FIX = config.FIXTURES_DIR / "mlperf-loadgen"
SERVER = FIX / "amd_mi300x_llama2_70b_server_summary.txt"
OFFLINE = FIX / "amd_mi300x_llama2_70b_offline_summary.txt"
#: LoadGen of v6.1 prints "Mean Time per Output Token (ns)" (percentile rows keep "time to output token").
V61_SERVER = FIX / "intel_2s_gnr_llama31_8b_server_summary.txt"
#: A multi-node Offline run printing its token rate in exponent notation (1.0399e+06).
V61_OFFLINE = FIX / "amd_9x8xmi355x_gpt_oss_120b_offline_summary.txt"
TOOL = "mlperf-loadgen"


def parsed(path):
    return ingest.read_parsed(path, tool=TOOL)[0]


#: An Offline summary pasted from the banner under its title (mlcommons/inference#2310).
TITLELESS = FIX / "mlcommons_issue2310_pysut_offline_performanceonly_1633_samples_tokens_cut.md"


@pytest.mark.parametrize("path", [SERVER, OFFLINE, TITLELESS], ids=lambda p: p.name)
def test_detected_as_mlperf_only(path):
    assert ingest.detect(path.read_text()) == [TOOL]


def test_server_values_settings_and_units():
    p = parsed(SERVER)
    t = p.table
    assert cell(t, "request_throughput", "value")["value"] == 71.74
    row = cell(t, "output_throughput", "value")
    assert (row["value"], row["line"], row["unit"]) == (21028.23, 8, "tok/s")
    ttft = cell(t, "ttft", "p99")
    assert (ttft["value"], ttft["unit"], ttft["line"]) == (1604.171041, "ms", 41)
    assert "ns" in ttft["note"]
    assert cell(t, "tpot", "mean")["value"] == 143.097185
    assert cell(t, "e2el", "max")["value"] == 201165.526734
    assert cell(t, "scheduled_request_rate", "value")["value"] == 73.66
    assert set(t["scenario"]) == {"Server"} and set(t["result"]) == {"VALID"}
    assert set(t["target_qps"]) == {73.5}
    assert set(t["ttft_limit_ms"]) == {2000.0} and set(t["tpot_limit_ms"]) == {200.0}
    assert t["latency_limit_ms"].isna().all() and set(t["parameters_line"]) == {55.0}
    assert "TTFT Early Stopping Result:" in t["checks"].iat[0]


def test_every_latency_limit_loadgen_prints_is_read():
    """LoadGen prints `target_latency (ns)` for a benchmark judged on its sample latency (SDXL) and
    `ttft_latency` / `tpot_latency` for the LLMs (`TestSettingsInternal::LogSummary`)."""
    t = parsed(FIX / "google_tpu_v6x4_sdxl_server_summary.txt").table
    assert set(t["latency_limit_ms"]) == {20000.0} and set(t["parameters_line"]) == {31.0}
    assert t["ttft_limit_ms"].isna().all() and t["tpot_limit_ms"].isna().all()
    a30 = FIX / "a30_llama31_8b_server_invalid_summary.txt"
    t = parsed(a30).table  # no Test Parameters section
    assert t[["latency_limit_ms", "ttft_limit_ms", "parameters_line"]].isna().all(axis=None)
    n = len(a30.read_text().splitlines())
    cut = a30.read_text() + "\n" + "=" * 48 + "\nTest Parameters Used\n" + "=" * 48 + "\ntarget_qps : 0.35\n"
    t = m.parse(cut, "cut.txt").table  # the section, cut before its limits: its line, no limit
    assert set(t["parameters_line"]) == {float(n + 3)} and t["ttft_limit_ms"].isna().all()


def test_server_counting_percentiles_and_the_repeated_rate():
    p = parsed(SERVER)
    assert p.cells_read == len(p.table) + len(p.rejected) == 31
    assert {"p97", "p99.9"} <= set(p.table["statistic"])  # every rank LoadGen prints keeps it
    dup = p.rejected[p.rejected["reason"].str.startswith("duplicate row")]
    assert list(dup["line"]) == [33]


def test_offline():
    p = parsed(OFFLINE)
    t = p.table
    assert cell(t, "request_throughput", "value")["value"] == 80.15
    assert cell(t, "output_throughput", "value")["value"] == 23514.8
    assert cell(t, "e2el", "p50")["value"] == 900756.542973
    assert "ttft" not in set(t["metric"])
    assert set(t["scenario"]) == {"Offline"} and set(t["target_qps"]) == {80.0}
    assert p.messages == [f"{OFFLINE.name}:52: 9 warnings encountered. See detailed log."]
    assert p.cells_read == 12  # samples_per_query too: 3 x 24,576 = 73,728 samples, the printed rate x max latency


def test_newer_loadgen_time_per_output_token_rows_are_tpot():
    p = parsed(V61_SERVER)
    t = p.table
    assert cell(t, "tpot", "mean")["value"] == 77.914654
    assert (cell(t, "tpot", "min")["value"], cell(t, "tpot", "max")["value"]) == (48.049086, 101.016474)
    assert cell(t, "tpot", "p99")["value"] == 96.363771
    assert not p.rejected["reason"].str.contains("no tidy name").any()
    assert set(t["tpot_limit_ms"]) == {100.0} and set(t["target_qps"]) == {8.8}


def test_model_from_a_sut_name_that_carries_it_and_none_from_pysut():
    t = parsed(FIX / "nvidia_dgx_h100x8_mixtral_8x7b_server_summary.txt").table
    assert set(t["model"]) == {"mixtral-8x7b"} and set(t["sut"]) == {"mixtral-8x7b-Server-SUT"}
    assert set(parsed(FIX / "nvidia_b200x1_llama2_70b_offline_summary.txt").table["model"]) == {"llama2-70b"}
    assert parsed(V61_SERVER).table["model"].isna().all()  # PySUT names no model


def test_exponent_token_rate_is_read_whole():
    t = parsed(V61_OFFLINE).table
    assert cell(t, "output_throughput", "value")["value"] == 1.0399e06
    assert cell(t, "request_throughput", "value")["value"] == 762.084


def test_invalid_run_is_said():
    text = (
        SERVER.read_text()
        .replace("Result is : VALID", "Result is : INVALID")
        .replace("Performance constraints satisfied : Yes", "Performance constraints satisfied : No")
    )
    p = m.parse(text, "inv.txt")
    assert set(p.table["result"]) == {"INVALID"}
    assert p.messages[0].startswith("inv.txt: LoadGen marked the run INVALID (Performance constraints satisfied=No")


@pytest.mark.parametrize("printed", ["NO", "No", "no"])
def test_the_unmet_check_loadgen_prints_in_capitals_is_in_the_reason(printed):
    # real: mlperf/mobile_app#110 prints `Min duration satisfied : NO` (loadgen/results.cc writes "NO")
    text = (
        SERVER.read_text()
        .replace("Result is : VALID", "Result is : INVALID")
        .replace("Min duration satisfied : Yes", f"Min duration satisfied : {printed}")
    )
    p = m.parse(text, "inv.txt")
    assert f"Min duration satisfied={printed}" in p.messages[0]
    # the other way: a met check is said as met, and a VALID run gets no such message
    assert "Min queries satisfied=Yes" in p.messages[0]
    assert not any("marked the run" in x for x in m.parse(SERVER.read_text(), "ok.txt").messages)


def test_cli_writes_the_printed_numbers(tmp_path):
    from typer.testing import CliRunner

    from benchbook.cli import app

    out = tmp_path / "out.csv"
    res = CliRunner().invoke(app, ["ingest", str(OFFLINE), "-o", str(out)])
    assert res.exit_code == 0, res.output
    df = pd.read_csv(out)
    assert 23514.8 in set(df["value"]) and set(df["unit"]) >= {"ms", "req/s", "tok/s"}


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello\n",
        "MLPerf Results Summary\n",
        "MLPerf Results Summary\nScenario : Server\n",
        "MLPerf Results Summary\nScenario : Server\nsomething 12 odd\n",
    ],
)
def test_bad_input_raises_parse_error(text):
    with pytest.raises(ParseError):
        m.parse(text, "bad.txt")


def test_the_errors_loadgen_logged_are_read_with_their_line():
    """loadgen/logging.cc ends the summary with "No errors encountered during test." or "N ERRORS
    encountered. See detailed log.": the count and its line are kept, and a count above 0 is said."""
    t = parsed(OFFLINE).table
    assert set(t["errors_logged"]) == {0.0} and set(t["errors_line"]) == {54.0}
    text = OFFLINE.read_text().replace("No errors encountered during test.", "3 ERRORS encountered. See detailed log.")
    p = m.parse(text, "err.txt")
    assert set(p.table["errors_logged"]) == {3.0}
    assert "err.txt:54: 3 ERRORS encountered. See detailed log." in p.messages
    cut = "\n".join(OFFLINE.read_text().splitlines()[:50])  # a summary cut before its last lines
    assert m.parse(cut, "cut.txt").table["errors_logged"].isna().all()


SINGLE = FIX / "hpe_4x_rtx_pro_4500_llama31_8b_edge_singlestream_summary.txt"


def test_singlestream_rates_with_loadgen_overhead_are_its_throughputs_and_without_are_set_aside():
    """LoadGen's SingleStream prints (samples - 1) / last issue time as `QPS w/ loadgen overhead` (a rate it
    completed at) and 1 / mean latency as `QPS w/o` (a latency restated): the first is read, the second not."""
    p = parsed(SINGLE)
    t = p.table
    assert cell(t, "request_throughput", "value")["value"] == 0.85
    assert cell(t, "output_throughput", "value")["value"] == 109.45
    assert sum("1 / the mean latency" in r for r in p.rejected["reason"]) == 2
    # a Server summary prints no such rows: its rate is `Completed samples per second`, not these
    assert cell(parsed(SERVER).table, "request_throughput", "value")["value"] == 71.74


def test_a_summary_pasted_below_other_text_is_found_and_ends_at_loadgens_last_line():
    """LoadGen opens the summary with its title between two banners and then `SUT name :`
    (loadgen/results.cc) and ends it with the errors count (loadgen/logging.cc): pasted anywhere in
    an issue or a log, the summary is found by that opening, and the text after it is no part of it."""
    summary = OFFLINE.read_text()
    prose = "I ran the benchmark as follows and the QPS looked low.\n" * 60  # past the first 2,000 characters
    after = "\nThis used 12 GPUs; target_qps : 99\n"
    text = prose + "\n" + summary + after
    assert ingest.detect(text) == [TOOL]
    t = m.parse(text, "pasted.txt").table
    assert set(t["target_qps"]) == set(parsed(OFFLINE).table["target_qps"])
    assert (
        cell(t, "request_throughput", "value")["value"]
        == cell(parsed(OFFLINE).table, "request_throughput", "value")["value"]
    )
    # the title named in prose, without LoadGen's banner and SUT line under it, is no summary
    assert TOOL not in ingest.detect(prose + "The MLPerf Results Summary was INVALID.\nScenario: Server\n")
    assert TOOL not in ingest.detect(prose + "MLPerf Results Summary\nScenario : Server\n")


def test_the_issue_paste_is_read_without_the_reply_below_it():
    path = FIX / "mlcommons_issue1666_bert99_singlestream_cuda_fell_back_to_cpu.md"
    assert ingest.detect(path.read_text()) == [TOOL]
    t = parsed(path).table
    assert set(t["scenario"]) == {"SingleStream"} and set(t["result"]) == {"INVALID"}
    assert cell(t, "request_throughput", "value")["value"] == 1.57
    assert cell(t, "e2el", "p90")["value"] == 700.060891
    assert set(t["errors_line"]) == {90.0}


def test_a_summary_pasted_in_a_fenced_block_ends_at_its_fence():
    # mlcommons/inference#871: the summary's fence closes, then the author's prose and checker log lines
    path = FIX / "mlperf_issue871_tflite_resnet50_singlestream_xavier.md"
    p = m.parse(path.read_text(encoding="utf-8"), path.name)
    assert cell(p.table, "e2el", "p90")["value"] == pytest.approx(77.975401)
    assert cell(p.table, "e2el", "p90")["scenario"] == "SingleStream"
    # the same lines with no fence between summary and prose: the prose is still no summary line
    unfenced = path.read_text(encoding="utf-8").replace("```\n\nHowever", "\nHowever")
    with pytest.raises(ParseError, match="Label : value"):
        m.parse(unfenced, path.name)


def test_a_summary_pasted_from_below_its_title_is_read_from_its_sut_line():
    """Without the `MLPerf Results Summary` title, the banner under it, `SUT name :` and then
    `Scenario :` (the order loadgen/results.cc writes) still open the summary."""
    summary = OFFLINE.read_text()
    titleless = "I got this:\n" + summary.split("MLPerf Results Summary", 1)[1]
    assert ingest.detect(titleless) == [TOOL]
    p = m.parse(titleless, "titleless.md")
    assert (
        cell(p.table, "request_throughput", "value")["value"]
        == (cell(parsed(OFFLINE).table, "request_throughput", "value")["value"])
    )
    assert "no 'MLPerf Results Summary' title" in p.messages[0]
    # a banner over a `SUT name :` line with no Scenario line under it is no LoadGen summary
    assert TOOL not in ingest.detect("=" * 48 + "\nSUT name : PySUT\nModel : llama\nTokens per second: 3\n")


MULTI = FIX / "amitashnanda_v51_m1pro_onnxruntime_resnet50_multistream_summary.txt"


def test_a_stream_scenarios_result_line_its_query_size_and_an_unset_limit():
    """A MultiStream summary's first line is its result, the 99th-percentile query latency that Additional
    Stats prints again (set aside with that reason, its percentile kept); `samples_per_query` is the
    size of each query; `target_latency (ns): 0` is no limit (loadgen/test_settings.h: a stream scenario
    is judged on a latency percentile, not against a limit). A Server run's limits are still read."""
    p = parsed(MULTI)
    t = p.table
    assert set(t["result_percentile"]) == {99.0} and set(t["samples_per_query"]) == {8.0}
    assert t["latency_limit_ms"].isna().all()
    assert any("the scenario's result" in r for r in p.rejected["reason"])
    assert cell(t, "e2el", "p99")["value"] == 364.079667
    single = parsed(FIX / "mlperf_issue871_tflite_resnet50_singlestream_xavier.md").table
    assert set(single["result_percentile"]) == {90.0}
    server = parsed(FIX / "google_tpu_v6x4_sdxl_server_summary.txt").table
    assert set(server["latency_limit_ms"]) == {20000.0} and server["result_percentile"].isna().all()
