"""GuideLLM's benchmarks report, read for `guidellm`: the 0.2/0.3 schema (YAML here; JSON is the same
schema) and the 0.4+ schema of guidellm 0.5, the successful requests' distributions in the serving
contract, the generations' different TPOT, counts from the metrics' totals, and bad files refused with
one sentence naming the file."""

from __future__ import annotations

import copy
import json
import math

import pytest
import yaml
from conftest import cell

from benchbook import config, ingest
from benchbook.ingest import ParseError
from benchbook.ingest import guidellm as g
from benchbook.ingest import guidellm_report as report

FIX = config.FIXTURES_DIR / "guidellm"
OLD = FIX / "jhurlocker_llama32_3b_synchronous_benchmarks_v02_trimmed.yaml"
NEW = FIX / "nirjhar17_qwen3_0p6b_synchronous_benchmarks_trimmed.json"


def parsed(path):
    return ingest.read_parsed(path, tool="guidellm")[0]


def val(df, metric, statistic, run=None):
    """The value of the one row of `metric` at `statistic` (of `run`, when given)."""
    return cell(df if run is None else df[df["run"] == run], metric, statistic)["value"]


@pytest.mark.parametrize("path", [OLD, NEW], ids=lambda p: p.name)
def test_detected_as_guidellm_only(path):
    assert ingest.detect(path.read_text()) == ["guidellm"]


def test_old_schema_in_the_serving_contract():
    p = parsed(OLD)
    t = p.table
    assert p.version == report.OLD and set(t["format"]) == {report.OLD}
    assert set(t["run"]) == {"synchronous"} and set(t["model"]) == {"llama-3-2-3b"}
    assert set(t["max_concurrency"]) == {1.0} and set(t["request_rate"]) == {math.inf}
    assert val(t, metric="completed", statistic="count") == 14
    assert val(t, metric="failed", statistic="count") == 1  # incomplete, cut off at the end
    assert val(t, metric="e2el", statistic="mean") == pytest.approx(3912.7264874322076)  # s -> ms
    assert val(t, metric="ttft", statistic="p99") == pytest.approx(460.0398540496826)
    assert val(t, metric="tpot", statistic="mean") == pytest.approx(27.583449710206587)  # GuideLLM's ITL
    assert val(t, metric="request_throughput", statistic="value") == pytest.approx(0.25550426540581317)
    assert val(t, metric="duration", statistic="value") == pytest.approx(57.26882600784302)
    assert val(t, metric="total_generated_tokens", statistic="count") == 1792
    assert set(t["line"]) == {2}  # the benchmark's `- args:` item


def test_old_tpot_is_set_aside_new_tpot_is_normalized():
    """0.2's TPOT is (last - first token) / N, its ITL times (N-1)/N; 0.4+'s counts from the request start."""
    old = parsed(OLD)
    assert "normalized_time_per_output_token" not in set(old.table["metric"])
    assert old.rejected["reason"].str.contains("GuideLLM 0.2/0.3's TPOT").sum() == 1
    new = parsed(NEW).table
    assert val(new, metric="normalized_time_per_output_token", statistic="mean") == pytest.approx(22.145118564367294)
    assert val(new, metric="tpot", statistic="mean") == pytest.approx(20.96164815325181)


def test_new_schema_in_the_serving_contract():
    p = parsed(NEW)
    t = p.table
    assert p.version == "report 0.4+, guidellm 0.5.0"
    assert set(t["model"]) == {"Qwen/Qwen3-0.6B"} and set(t["dataset"]) == {'{"prompt_tokens":256,"output_tokens":128}'}
    assert val(t, metric="completed", statistic="count") == 22
    assert val(t, metric="incomplete", statistic="count") == 0  # request_totals; requests_made says 2
    assert val(t, metric="duration", statistic="value") == 60.0
    assert val(t, metric="e2el", statistic="median") == pytest.approx(2739.0007972717285)
    assert val(t, metric="input_throughput", statistic="value") == pytest.approx(98.29077837355412)
    assert any("request_totals kept" in m for m in p.messages)


def test_yaml_and_json_of_one_report_read_alike():
    as_json = json.dumps(yaml.safe_load(OLD.read_text()))
    a = g.parse(as_json, "b.json").table
    b = parsed(OLD).table
    cols = ["run", "metric", "statistic", "value"]
    assert a[cols].reset_index(drop=True).equals(b[cols].reset_index(drop=True))


def _one(strategy: dict) -> str:
    doc = json.loads(NEW.read_text())
    doc["benchmarks"][0]["config"]["strategy"] = strategy
    doc["benchmarks"].append(copy.deepcopy(doc["benchmarks"][0]))
    doc["benchmarks"][1]["config"]["strategy"] = {"type_": "throughput", "max_concurrency": 512}
    doc["benchmarks"][1]["config"]["profile"]["max_concurrency"] = 64
    return json.dumps(doc)


@pytest.mark.parametrize(
    "strategy, run, rate, cap",
    [
        ({"type_": "constant", "rate": 2.5}, "constant@2.50", 2.5, math.nan),
        ({"type_": "poisson", "rate": 4.0}, "poisson@4.00", 4.0, math.nan),
        ({"type_": "concurrent", "streams": 8}, "concurrent@8", math.inf, 8.0),
    ],
)
def test_rate_types_as_load(strategy, run, rate, cap):
    t = g.parse(_one(strategy), "b.json").table
    first = t.drop_duplicates("run").set_index("run")
    assert first.loc[run, "request_rate"] == rate
    assert first.loc[run, "max_concurrency"] == cap or (
        math.isnan(cap) and math.isnan(first.loc[run, "max_concurrency"])
    )
    assert first.loc["throughput", "request_rate"] == math.inf and first.loc["throughput", "max_concurrency"] == 64


def test_an_empty_distribution_is_not_a_measurement():
    doc = json.loads(NEW.read_text())
    doc["benchmarks"][0]["metrics"]["time_to_first_token_ms"]["successful"]["count"] = 0
    p = g.parse(json.dumps(doc), "b.json")
    assert "ttft" not in set(p.table["metric"])
    assert p.rejected["reason"].str.contains("empty distribution").sum() == 1


@pytest.mark.parametrize("path", [OLD, NEW], ids=lambda p: p.name)
def test_every_cell_is_kept_or_rejected(path):
    p = parsed(path)
    assert p.cells_read == len(p.table) + len(p.rejected) and p.cells_read > 0


def test_a_cut_json_file_is_one_sentence_naming_the_file_and_line():
    text = NEW.read_text()
    with pytest.raises(ParseError) as err:
        g.parse(text[: len(text) // 2], "benchmarks.json")
    msg = str(err.value)
    assert msg.startswith("benchmarks.json:1: not valid JSON (GuideLLM report)") and "\n" not in msg


def test_a_report_without_benchmarks_is_refused():
    with pytest.raises(ParseError, match="benchmarks.json:1: a GuideLLM report with no benchmark"):
        g.parse('{"metadata": {"guidellm_version": "0.5.0"}, "benchmarks": []}', "benchmarks.json")
    assert not report.sniff('{"benchmarks": [{"name": "bm25", "score": 0.5}]}')  # someone else's JSON


def test_of_two_counts_the_larger_is_kept():
    """GuideLLM's own stripped asset: run_stats cut to its one kept sample, request_totals 46 + 1."""
    p = parsed(FIX / "guidellm_assets_benchmarks_stripped_v02.json")
    assert val(p.table, "completed", "count") == 46 and val(p.table, "incomplete", "count") == 1
    assert val(p.table, "e2el", "mean") == pytest.approx(644.4743664368339)
    assert any("request_totals kept" in m for m in p.messages)
