"""aiperf parser: the real AIPerf example run (JSON and CRLF CSV), the serving contract, failed
runs, GenAI-Perf-style quoted numbers, bad input."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from conftest import cell

from benchbook import config, ingest
from benchbook.ingest import ParseError, vllm_serve
from benchbook.ingest import aiperf as a

FIX = config.FIXTURES_DIR / "aiperf"
JSON = FIX / "example_run1_profile_export_aiperf.json"
CSV = FIX / "example_run1_profile_export_aiperf.csv"
TOOL = "aiperf"


def parsed(path):
    return ingest.read_parsed(path, tool=TOOL)[0]


@pytest.mark.parametrize("path", [JSON, CSV], ids=lambda p: p.name)
def test_detected_as_aiperf_only(path):
    assert ingest.detect(path.read_bytes().decode()) == [TOOL]


def test_json_values_lines_and_settings():
    p = parsed(JSON)
    t = p.table
    row = cell(t, "ttft", "mean")
    assert (row["value"], row["unit"], row["line"]) == (2343.219436988764, "ms", 43)
    assert cell(t, "ttft", "p99")["value"] == 3833.3894000399996
    assert cell(t, "tpot", "p50")["value"] == 27.615130366666666  # AIPerf "Inter Token Latency"
    assert cell(t, "itl", "mean")["value"] == 27.755153106189347  # AIPerf "Inter Chunk Latency"
    assert cell(t, "e2el", "max")["value"] == 9299.772642
    assert cell(t, "request_throughput", "value")["unit"] == "req/s"
    assert cell(t, "output_throughput", "value")["value"] == 2320.7222350404572
    assert cell(t, "duration", "value")["unit"] == "s"
    assert (cell(t, "completed", "count")["value"], cell(t, "failed", "count")["value"]) == (89, 11)
    assert set(t["model"]) == {"openai/gpt-oss-20b"}
    assert set(t["max_concurrency"]) == {100} and set(t["num_prompts"]) == {100}
    assert t["request_rate"].isna().all()
    assert "aiperf profile" in t["metadata"].iat[0]


def test_json_counting_and_reasons():
    p = parsed(JSON)
    assert p.cells_read == len(p.table) + len(p.rejected) == 152
    kinds = p.rejected["reason"].value_counts()
    assert not p.rejected["reason"].str.contains("percentile").any()  # p1 ... p75 keep their ranks
    assert (p.table["statistic"] == "p25").sum() == 10 and {"p1", "p5", "p75"} <= set(p.table["statistic"])
    assert kinds["a timestamp (ns since the epoch), not a measurement"] == 4
    assert p.messages == [f"{JSON.name}: 11 of 100 requests failed (11 x RequestCancellationError)"]


def test_csv_crlf_sections():
    p = parsed(CSV)
    t = p.table
    row = cell(t, "ttft", "p90")
    assert (row["value"], row["line"]) == (3796.93, 10)
    assert cell(t, "completed", "count")["line"] == 19
    assert cell(t, "duration", "value")["value"] == 9.32
    assert cell(t, "ttst", "mean")["value"] == 120.17
    assert p.cells_read == len(t) + len(p.rejected) == 131


def test_json_and_csv_agree_to_the_csv_rounding():
    j, c = parsed(JSON).table, parsed(CSV).table
    keys = ["metric", "statistic"]
    both = j.merge(c, on=keys, suffixes=("_j", "_c"))
    assert len(both) > 60
    assert ((both["value_j"] - both["value_c"]).abs() <= 0.005 + 1e-9 * both["value_j"].abs()).all()
    assert (both["unit_j"] == both["unit_c"]).all()


def test_serving_contract():
    assert "aiperf" in ingest.SERVING_TOOLS
    assert ingest.tools()[TOOL].settings == ingest.tools()["vllm-bench-serve"].settings
    t = parsed(JSON).table
    vllm_units = {m: d.split(":")[0] for m, d in vllm_serve.METRICS.items()}
    for metric, unit in t[t["statistic"] != "count"].groupby("metric")["unit"].first().items():
        if metric in vllm_units:
            assert unit == vllm_units[metric], metric


def _export(records: dict, **extra) -> str:
    return json.dumps({"records": records, **extra}, indent=2)


def test_every_request_failed_is_reported_not_divided():
    """Synthetic, in the shape of the example export: 100 errors, no request_count, no latencies."""
    text = _export(
        {
            "error_request_count": {
                "tag": "error_request_count",
                "unit": "requests",
                "avg": 100.0,
                "std": None,
                "count": 1,
            }
        },
        error_summary=[{"error_details": {"code": 500, "type": "InternalServerError"}, "count": 100}],
    )
    p = a.parse(text, "failed.json")
    assert list(p.table["metric"]) == ["failed"]
    assert p.messages == ["failed.json: " + a.ALL_FAILED + " (100 failed: 100 x InternalServerError)"]


def test_genai_perf_quoted_thousands_and_unknown_section():
    """Synthetic, GenAI-Perf CSV layout: quoted numbers with thousands separators, N/A cells."""
    text = (
        "Metric,avg,min,max,p99,p90,p75,p50,p25\r\n"
        '"Time To First Token (ms)","1,234.50","1,000.00","2,000.00",N/A,N/A,N/A,"1,200.00",N/A\r\n'
        "\r\n"
        "GPU,Power (W)\r\n"
        "0,350.5\r\n"
    )
    p = a.parse(text, "g.csv")
    assert cell(p.table, "ttft", "mean")["value"] == 1234.5
    assert cell(p.table, "ttft", "p50")["value"] == 1200.0
    assert len(p.table) == 4
    assert [r.split(" (")[0] for r in p.rejected["reason"]] == ["table not read"]  # 350.5; the 0 is the GPU label
    assert p.cells_read == 5


@pytest.mark.parametrize(
    "text", ["", "{", "[]", '{"records": {}}', '{"a": 1}', "hello\n", "Metric,avg\nTime to First Token (ms),fast\n"]
)
def test_bad_input_raises_parse_error_or_rejects(text):
    try:
        p = a.parse(text, "bad")
    except ParseError:
        return
    assert len(p.table) == 0 and len(p.rejected) == p.cells_read > 0


def test_cli_writes_the_printed_numbers(tmp_path):
    from typer.testing import CliRunner

    from benchbook.cli import app

    out = tmp_path / "out.csv"
    res = CliRunner().invoke(app, ["ingest", str(CSV), "-o", str(out)])
    assert res.exit_code == 0, res.output
    df = pd.read_csv(out)
    assert 2343.22 in set(df["value"]) and set(df["tool"]) == {TOOL}


# --- per-request JSONL, the Unit-column CSV, an all-failed export (issue 27, classes 1 and 7) -----

JSONL = FIX / "example_run1_profile_export_first17.jsonl"
ONE = FIX / "nvda_ci_reference_qwen3_0.6b_one_record_profile_export.jsonl"
FAILED = FIX / "nvda_ci_reference_failed_all_timeout_profile_export_aiperf.json"
UNIT_CSV = FIX / "nvda_ci_reference_qwen3_0.6b_excerpt_profile_export_aiperf.csv"
EXCERPT = FIX / "nvda_ci_reference_qwen3_0.6b_excerpt_profile_export_aiperf.json"


@pytest.mark.parametrize("path", [JSONL, ONE, FAILED, UNIT_CSV, EXCERPT], ids=lambda p: p.name)
def test_new_exports_detected_as_aiperf_only(path):
    """Of the serving tools, aiperf alone; an export with GPU power in its telemetry is also the
    energy contract's (`aiperf-telemetry`)."""
    found = ingest.detect(path.read_bytes().decode())
    telemetry = ["aiperf-telemetry"] if path == EXCERPT else []
    assert found == [TOOL, *telemetry]


def test_jsonl_counts_failed_records_and_summarises_the_rest():
    p = parsed(JSONL)
    t = p.table
    assert (cell(t, "completed", "count")["value"], cell(t, "failed", "count")["value"]) == (6, 11)
    # the six completed requests' TTFTs, by hand from the file
    ttfts = [1680.543782, 3340.543979, 1413.032097, 464.66410099999996, 2914.470172, 597.557863]
    assert cell(t, "ttft", "mean")["value"] == pytest.approx(sum(ttfts) / 6)
    assert cell(t, "ttft", "max")["value"] == 3340.543979
    assert cell(t, "tpot", "min")["value"] == 25.383637276041668  # AIPerf's per-request Inter Token Latency
    # duration: first send (line 17's min_request_timestamp) to last response (line 17's max_response_timestamp)
    d = (1759522428010213454 - 1759522419155478796) / 1e9
    assert cell(t, "duration", "value")["value"] == pytest.approx(d)
    assert cell(t, "request_throughput", "value")["value"] == pytest.approx(6 / d)
    assert cell(t, "total_generated_tokens", "count")["value"] == 193 + 193 + 211 + 241 + 223 + 247
    assert p.cells_read == len(p.table) + len(p.rejected)
    assert "11 failed: 11 x 499 RequestCancellationError" in p.messages[0]


def test_jsonl_requests_for_exact_goodput():
    req = a.requests(JSONL)
    assert list(req.columns) == vllm_serve.REQUEST_COLUMNS
    assert len(req) == 17 and req["success"].sum() == 6  # a cancelled request is a failure
    assert req.loc[req["success"], "ttft_ms"].min() == 464.66410099999996
    assert req.loc[~req["success"], "ttft_ms"].isna().all()
    assert a.requests(JSON).empty  # a summary export holds no request


def test_jsonl_newer_schema_times_from_metadata():
    t = parsed(ONE).table
    assert cell(t, "ttft", "mean")["value"] == 31.742933999999998  # `time_to_first_token`, not `ttft`
    d = (1762551538441354976 - 1762551534797067827) / 1e9  # request_end_ns - request_start_ns
    assert cell(t, "duration", "value")["value"] == pytest.approx(d)


def test_warmup_records_are_set_aside():
    line = JSONL.read_text().splitlines()[11].replace('"credit_phase":"profiling"', '"credit_phase":"warmup"')
    p = a.parse(line + "\n" + JSONL.read_text().splitlines()[12] + "\n", "x.jsonl")
    assert cell(p.table, "completed", "count")["value"] == 1
    assert list(p.rejected["reason"]) == ["a warmup request, not measured"]


def test_unit_column_csv_is_read_not_set_aside():
    p = parsed(UNIT_CSV)
    assert p.rejected.empty  # the whole table was once 'table not read'
    assert cell(p.table, "e2el", "p99")["value"] == 3909.3341161199996
    assert cell(p.table, "request_throughput", "value")["unit"] == "req/s"
    assert cell(p.table, "tpot", "std")["value"] == 0.3514929398171827


def test_all_failed_export_keeps_the_count_and_says_why():
    p = parsed(FAILED)
    assert cell(p.table, "failed", "count")["value"] == 5
    assert set(p.table["metric"]) == {"failed"}
    assert "every request failed" in p.messages[0] and "5 x TimeoutError" in p.messages[0]


@pytest.mark.parametrize(
    ("path", "cap", "rate"),
    [(JSON, True, True), (FAILED, True, True), (CSV, False, False), (JSONL, False, False)],
    ids=lambda x: getattr(x, "name", str(x)),
)
def test_formats_declare_what_they_record(path, cap, rate):
    fmt = parsed(path).table["format"].iat[0]
    assert ingest.carries(TOOL, fmt, "max_concurrency") is cap
    assert ingest.carries(TOOL, fmt, "request_rate") is rate
    assert ingest.carries(TOOL, fmt, "e2el") is True
    assert ingest.carries("vllm-bench-serve", "text", "e2el") is None  # a parser that declares nothing


# --- schema 1.1-1.5: `count` and `sum` per metric, `run_info`, `warmup_metrics` (issue 30) -----


def _schema_1_3(total_osl: bool):
    """Synthetic, in the shape AIPerf's docs/reference/json-export-schema.md documents for 1.1+:
    record metrics carry `count` (records behind the distribution) and `sum` (mean x count);
    derived and aggregate ones only `unit` + `avg`."""
    doc = {
        "schema_version": "1.4",
        "run_info": {"random_seed": 44, "trial": 0, "variation_index": 2},
        "warmup_metrics": {"request_latency": {"unit": "ms", "avg": 9999.0, "count": 2, "sum": 19998.0}},
        "request_latency": {"unit": "ms", "avg": 2620.71, "min": 2145.06, "max": 3411.1, "count": 20, "sum": 52414.2},
        "output_sequence_length": {"unit": "tokens", "avg": 64.0, "min": 64.0, "max": 64.0, "count": 20, "sum": 1280.0},
        "input_sequence_length": {"unit": "tokens", "avg": 256.0, "count": 20, "sum": 5120.0},
        "request_throughput": {"unit": "requests/sec", "avg": 1.45},
        "request_count": {"unit": "requests", "avg": 20.0},
    }
    if total_osl:
        doc["total_osl"] = {"unit": "tokens", "avg": 1280.0}
    return json.dumps(doc, indent=2)


def test_schema_1_1_count_and_sum_are_kept_where_they_mean_something():
    p = a.parse(_schema_1_3(total_osl=False), "s.json")
    t = p.table
    assert cell(t, "e2el", "count")["value"] == 20  # the records behind the latency distribution
    assert cell(t, "completed", "count")["value"] == 20
    # the sums of the per-request lengths are the run's token totals when the export prints none
    assert cell(t, "total_generated_tokens", "count")["value"] == 1280
    assert cell(t, "total_input_tokens", "count")["value"] == 5120
    reasons = dict(zip(p.rejected["text"], p.rejected["reason"], strict=True))
    assert "mean x count" in reasons["request_latency.sum: 52414.2"]
    assert p.cells_read == len(t) + len(p.rejected)
    # run_info and the warmup phase's metrics are not the run's measurements
    assert 9999.0 not in set(t["value"]) and 44.0 not in set(t["value"])


def test_schema_1_1_sum_is_set_aside_beside_the_exports_own_total():
    p = a.parse(_schema_1_3(total_osl=True), "s.json")
    assert (p.table["metric"] == "total_generated_tokens").sum() == 1  # total_osl, not a second row
    reasons = dict(zip(p.rejected["text"], p.rejected["reason"], strict=True))
    assert reasons["output_sequence_length.sum: 1280.0"].endswith("kept as total_osl")


def test_a_csv_with_a_sum_column_is_read_not_refused():
    text = "Metric,avg,min,max,p50,std,count,sum\r\nRequest Latency (ms),2620.71,2145.06,3411.10,2568.73,297.93,20,52414.29\r\n"
    p = a.parse(text, "s.csv")
    assert cell(p.table, "e2el", "mean")["value"] == 2620.71
    assert cell(p.table, "e2el", "count")["value"] == 20
    assert list(p.rejected["reason"]) == ["the sum of the per-request values (mean x count)"]


AGENTIC = FIX / "inferencemax_rocm_glm51_mxfp4_agentic_conc8_profile_export_aiperf_trimmed.json"


def test_an_empty_error_summary_is_the_file_saying_no_request_failed():
    """AIPerf 0.8.0 on an agentic trace: `error_summary: []` and no `error_request_count` (AIPerf
    exports that metric only when a request fails, and lists each failure in the summary)."""
    p = a.parse(AGENTIC.read_text(encoding="utf-8"), "x.json")
    failed = p.table[p.table["metric"] == "failed"]
    assert list(failed["value"]) == [0.0] and "error_summary is empty" in failed["note"].iloc[0]
    assert p.cells_read == len(p.table) + len(p.rejected)


def test_no_error_summary_states_no_failure_count_and_a_listed_failure_is_counted():
    text = AGENTIC.read_text(encoding="utf-8")
    without = a.parse(text.replace('"error_summary": [],', ""), "x.json").table
    assert "failed" not in set(without["metric"])
    listed = text.replace(
        '"error_summary": [],', '"error_summary": [{"error_details": {"type": "Timeout"}, "count": 2}],'
    )
    assert "failed" not in set(a.parse(listed, "x.json").table["metric"])  # a count needs error_request_count


KIMI_CSV = FIX / "inferencemax_rocm_kimik25_mxfp4_tp4_conc56_agentic_profile_export_aiperf.csv"


def test_a_csv_with_a_request_count_and_no_error_row_says_none_failed():
    """AIPerf computes `error_request_count` from failed records only and its CSV exporter writes a row
    per result, so a CSV with its Request Count row and no Error Request Count row ran without a
    failure (AIPerf's RequestErrorRateMetric reads the absence as 0 too)."""
    p = parsed(KIMI_CSV)
    failed = cell(p.table, "failed", "count")
    assert (failed["value"], failed["line"]) == (0.0, 58) and "only when a request failed" in failed["note"]
    assert cell(p.table, "completed", "count")["value"] == 72
    assert p.cells_read == len(p.table) + len(p.rejected)


def test_a_csv_error_row_is_the_count_and_no_request_count_leaves_failures_unknown():
    """The other ways: the Error Request Count row gives the count (the example run: 11), and a CSV
    without its Request Count row (an excerpt) says nothing of failures."""
    assert cell(parsed(CSV).table, "failed", "count")["value"] == 11
    assert "failed" not in set(parsed(UNIT_CSV).table["metric"])
    text = "Metric,avg,min,max,p50\r\nRequest Latency (ms),2620.71,2145.06,3411.10,2568.73\r\n"
    assert "failed" not in set(a.parse(text, "s.csv").table["metric"])
