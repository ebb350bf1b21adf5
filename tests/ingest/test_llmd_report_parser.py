"""llm-d benchmark report parser: llm-d's published reports (YAML 0.1), the serving contract (s to
ms), the stage's rate from the scenario, percentiles without a tidy name set aside."""

from __future__ import annotations

import pytest
from conftest import cell

from benchbook import config, ingest
from benchbook.ingest import ParseError
from benchbook.ingest import llmd_report as lr

FIX = config.FIXTURES_DIR / "llm-d-benchmark-report"
PRECISE = FIX / "llmd_precise_prefix_cache_qwen3_32b_stage2_benchmark_report.yaml"
PD = FIX / "llmd_pd_disaggregation_gpt_oss_120b_rate45_benchmark_report.yaml"
TOOL = "llm-d-benchmark-report"


def parsed(path):
    return ingest.read_parsed(path, tool=TOOL)[0]


@pytest.mark.parametrize("path", [PRECISE, PD], ids=lambda p: p.name)
def test_detected_as_llmd_report_only(path):
    assert ingest.detect(path.read_text()) == [TOOL]


def test_stage_rate_and_model_from_the_scenario():
    t = parsed(PRECISE).table
    assert set(t["request_rate"]) == {10.0}  # stages[2] of 17
    assert set(t["model"]) == {"Qwen/Qwen3-32B"}  # model.name says unknown; the scenario names it
    assert set(t["run"]) == {"stage 2"} and set(t["num_prompts"]) == {200}
    assert set(parsed(PD).table["request_rate"]) == {45.0}


def test_values_in_the_contract():
    t = parsed(PRECISE).table
    assert cell(t, "e2el", "mean")["value"] == pytest.approx(31201.138343144265)
    assert cell(t, "ttft", "p99")["value"] == pytest.approx(7078.293362634135)
    assert cell(t, "tpot", "p50")["value"] == pytest.approx(28.610963689017808)
    assert cell(t, "itl", "max")["value"] == pytest.approx(659.2390739824623)
    assert cell(t, "request_throughput", "value")["value"] == 3.798167020643812
    assert cell(t, "duration", "value")["value"] == 22.336875702952966
    assert (cell(t, "completed", "count")["value"], cell(t, "failed", "count")["value"]) == (200, 0)
    assert cell(t, "output_sequence_length", "mean")["value"] == 922.125


def test_lines_and_counting():
    p = parsed(PD)
    lines = PD.read_text().splitlines()
    assert "mean: 2.775478398489283" in lines[cell(p.table, "e2el", "mean")["line"] - 1]
    assert p.cells_read == len(p.table) + len(p.rejected)
    # every rank kept, llm-d's `p0p1` / `p99p9` (its `Statistics` writes the decimal point as `p`) as 0.1 and 99.9
    assert not p.rejected["reason"].str.contains("percentile|statistic").any()
    assert {"p0.1", "p1", "p5", "p10", "p25", "p75", "p99.9"} <= set(p.table["statistic"])


def test_failures_said():
    text = PD.read_text().replace("failures: 0", "failures: 12")
    p = lr.parse(text, "x.yaml")
    assert cell(p.table, "completed", "count")["value"] == 5388
    assert p.messages == ["x.yaml: 12 of 5400 requests failed"]


@pytest.mark.parametrize("text", ["metrics: [", "- 1\n- 2\n", "scenario: {}\n"])
def test_bad_input_raises_parse_error(text):
    with pytest.raises(ParseError):
        lr.parse(text, "x.yaml")


SCHED = FIX / "llmd_inference_scheduling_qwen3_32b_16xh100_rate40_benchmark_report.yaml"


def test_a_stage_index_its_own_request_count_contradicts_gives_way_to_the_one_stage_that_sends_it():
    """llm-d's published rate-40 report says `metadata.stage: 2` (10 req/s for 20 s: 200 requests)
    but counts 1,520 requests: inference-perf sends int(rate x duration) a stage, and only stage 9
    (40 req/s for 38 s) sends 1,520."""
    p = lr.parse(SCHED.read_text(), "x.yaml")
    assert set(p.table["run"]) == {"stage 9 (labelled 2)"} and set(p.table["request_rate"]) == {40.0}
    assert p.messages == [
        "x.yaml: metadata.stage 2 names a stage that sends 200 requests (10 req/s for 20 s), but the report "
        "counts 1520: only stage 9 (40 req/s for 38 s) sends that many, so the report is read as stage 9's"
    ]


def test_a_stage_index_its_count_agrees_with_is_kept():
    p = lr.parse(PRECISE.read_text(), "x.yaml")  # stage 2: 10 req/s x 20 s = the report's 200 requests
    assert set(p.table["run"]) == {"stage 2"} and p.messages == []


def test_a_count_two_stages_send_leaves_the_named_stage():
    pad = "\n" + " " * 10
    first = f"duration: 50{pad}num_requests: null{pad}rate: 15.0"
    text = SCHED.read_text().replace(first, f"duration: 38{pad}num_requests: null{pad}rate: 40.0")
    assert text.count("rate: 40.0") == 2
    p = lr.parse(text, "x.yaml")
    assert set(p.table["run"]) == {"stage 2"} and set(p.table["request_rate"]) == {10.0} and p.messages == []
