"""aiperf parser: the real AIPerf example run (JSON and CRLF CSV), the serving contract, failed
runs, GenAI-Perf-style quoted numbers, bad input."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError, vllm_serve
from benchbook.ingest import aiperf as a

FIX = config.FIXTURES_DIR / "aiperf"
JSON = FIX / "example_run1_profile_export_aiperf.json"
CSV = FIX / "example_run1_profile_export_aiperf.csv"
TOOL = "aiperf"


def parsed(path):
    return ingest.read_parsed(path, tool=TOOL)[0]


def cell(df, metric, statistic):
    hit = df[(df["metric"] == metric) & (df["statistic"] == statistic)]
    assert len(hit) == 1, (metric, statistic, len(hit))
    return hit.iloc[0]


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
    assert kinds["percentile p25 is not a tidy statistic"] == 10
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
