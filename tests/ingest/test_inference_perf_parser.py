"""inference-perf parser: llm-d's published summary lifecycle reports, the serving contract (s to
ms), percentiles without a tidy name set aside, failures, a lagging load generator."""

from __future__ import annotations

import json

import pytest
from conftest import cell

from benchbook import config, ingest
from benchbook.ingest import ParseError
from benchbook.ingest import inference_perf as ip

FIX = config.FIXTURES_DIR / "inference-perf"
QWEN = FIX / "llmd_benchmark_guide_qwen3_32b_summary_lifecycle_metrics.json"
PD = FIX / "llmd_pd_disaggregation_gpt_oss_120b_summary_lifecycle_metrics.json"
TOOL = "inference-perf"


def parsed(path):
    return ingest.read_parsed(path, tool=TOOL)[0]


@pytest.mark.parametrize("path", [QWEN, PD], ids=lambda p: p.name)
def test_detected_as_inference_perf_only(path):
    assert ingest.detect(path.read_text()) == [TOOL]


def test_summary_values_in_the_contract():
    t = parsed(QWEN).table
    assert cell(t, "completed", "count")["value"] == 3600
    assert cell(t, "e2el", "mean")["value"] == pytest.approx(5018.124350203054)  # 5.018... s in the file
    assert cell(t, "e2el", "mean")["unit"] == "ms"
    assert cell(t, "ttft", "p99")["value"] == pytest.approx(120.7716233390948)
    assert cell(t, "tpot", "median")["value"] == pytest.approx(9.469471096488253)
    assert cell(t, "itl", "max")["value"] == pytest.approx(164.861869008746)
    assert cell(t, "request_throughput", "value")["value"] == 9.129153381242592
    assert cell(t, "output_throughput", "value")["value"] == 2253.085197994428
    assert cell(t, "output_sequence_length", "mean")["value"] == 246.8011111111111
    assert cell(t, "failed", "count")["value"] == 0
    # the summary spans every stage: no rate, no cap, no model in the file
    assert t["request_rate"].isna().all() and t["max_concurrency"].isna().all() and t["model"].isna().all()
    assert set(t["num_prompts"]) == {3600}
    assert set(t["format"]) == {ip.SUMMARY}


def test_lines_point_at_the_numbers():
    lines = QWEN.read_text().splitlines()
    t = parsed(QWEN).table
    row = cell(t, "ttft", "mean")
    assert '"mean": 0.055621399055906094' in lines[row["line"] - 1]


def test_counting_and_reasons():
    p = parsed(QWEN)
    assert p.cells_read == len(p.table) + len(p.rejected)
    kinds = p.rejected["reason"].value_counts()
    assert not p.rejected["reason"].str.contains("percentile").any()
    assert (p.table["statistic"] == "p99.9").sum() == 8  # every rank kept as printed
    # a request sent before its schedule has a negative delay: outside the screen's range, set aside
    assert any(r.startswith("out of physical range: negative ms") for r in kinds.index)


def test_lagging_load_generator_is_said():
    assert any("sent requests late" in m for m in parsed(PD).messages)
    assert not any("sent requests late" in m for m in parsed(QWEN).messages)


def test_stage_report_gives_its_rate_and_failures():
    obj = json.loads(QWEN.read_text())
    obj["load_summary"].update(send_duration=49.9, requested_rate=5.0, achieved_rate=5.01)
    obj["failures"] = {"count": 4, "request_latency": {"mean": 30.0, "max": 31.0}, "prompt_len": None}
    p = ip.parse(json.dumps(obj, indent=2), "stage_1_lifecycle_metrics.json")
    t = p.table
    assert set(t["request_rate"]) == {5.0} and set(t["format"]) == {ip.STAGE}
    assert cell(t, "failed", "count")["value"] == 4
    assert cell(t, "failed_e2el", "max")["value"] == 31000.0
    assert cell(t, "achieved_rate", "value")["value"] == 5.01
    assert "4 of 3604 requests failed" in " ".join(p.messages)
    assert ingest.carries(TOOL, ip.STAGE, "request_rate") and not ingest.carries(TOOL, ip.SUMMARY, "request_rate")


def test_non_streaming_nulls_are_said():
    obj = json.loads(QWEN.read_text())
    for k in ("time_to_first_token", "time_per_output_token", "inter_token_latency"):
        obj["successes"]["latency"][k] = None
    p = ip.parse(json.dumps(obj), "summary_lifecycle_metrics.json")
    assert "ttft" not in set(p.table["metric"])
    assert any("streaming: true" in m for m in p.messages)


@pytest.mark.parametrize("text", ["{", "[]", '{"load_summary": {}}'])
def test_bad_input_raises_parse_error(text):
    with pytest.raises(ParseError):
        ip.parse(text, "x.json")


def test_report_fragments_cut_with_an_ellipsis_are_refused_naming_their_line():
    # real: kubernetes-sigs/inference-perf PR 101 quotes three reports as `"successes": {` ... `...`
    from benchbook.ingest import inference_perf

    fragment = 'Snippet from summary report:\n```\n  "successes": {\n    "count": 57,\n    ...\n```\n'
    line, why = inference_perf.refuses(fragment)
    assert line == 3 and "fragments of inference-perf lifecycle reports" in why
    # the other way: a block closed by its own brace is no fragment, and a whole report is read, not refused
    assert inference_perf.refuses(fragment.replace("    ...\n", "  },\n")) is None
    assert inference_perf.refuses('{\n  "successes": {\n    ...\n') is None


def test_a_report_the_copy_ends_inside_is_refused_naming_its_line():
    # real: inference-perf PRs 215 (a lifecycle report) and 95 (a Prometheus report), each cut by the index
    report = '{\n  "load_summary": {\n    "count": 10,\n    "requested_rate": 1.0\n  },\n  "successes": {\n    "count": 10\n  }\n}\n'
    text = "# A PR\n\nExample stage_3 lifecycle:\n```\n" + report
    cut = text[: text.index('"successes"')]
    assert ip.refuses(cut) == (5, ip.CUT.format(end=9))
    # the other way: the same report whole, its fence closed, is no cut copy
    assert ip.refuses(text + "```\n") is None
