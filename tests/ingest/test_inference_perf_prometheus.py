"""inference-perf's Prometheus report: the model server's own metrics over a stage's window, read
into the serving contract (server-side completions and rates, the histograms' mean and percentiles
in ms); a token counter's `mean` (a time-averaged rate) is never read as a length per request."""

from __future__ import annotations

import json

import pytest
from conftest import cell

from benchbook import config, ingest
from benchbook.ingest import ParseError, inference_perf

PROM = config.FIXTURES_DIR / "inference-perf" / "kubecon25_h100_vllm_v0_engine_stage_6_prometheus_metrics.json"
LIFECYCLE = config.FIXTURES_DIR / "inference-perf" / "kubecon25_h100_vllm_bnb_quant_stage_3_lifecycle_metrics.json"


def test_the_stage_report_reads_server_side_counts_rates_and_latencies():
    assert ingest.detect(PROM.read_text()) == ["inference-perf"]
    (p,) = ingest.read_parsed(PROM)
    assert p.cells_read == len(p.table) + len(p.rejected) == 26
    t = p.table
    assert set(t["format"]) == {inference_perf.PROMETHEUS}
    assert cell(t, "completed", "count")["value"] == 28207
    assert cell(t, "request_throughput", "value")["value"] == pytest.approx(137.598486)
    assert cell(t, "output_throughput", "value")["value"] == pytest.approx(8786.847886)
    assert cell(t, "ttft", "median")["value"] == pytest.approx(4186.162)
    assert cell(t, "tpot", "p99")["value"] == pytest.approx(260.145)
    assert not {"input_sequence_length", "output_sequence_length", "failed", "sent"} & set(t["metric"])
    assert t["request_rate"].isna().all() and t["num_prompts"].isna().all()
    lengths = p.rejected[p.rejected["text"].str.startswith(("prompt_len.mean", "output_len.mean"))]
    assert len(lengths) == 2 and lengths["reason"].str.contains("not tokens per request").all()


def test_a_lifecycle_report_is_not_read_as_a_prometheus_one():
    t = ingest.read(LIFECYCLE)
    assert inference_perf.PROMETHEUS not in set(t["format"])
    assert "input_sequence_length" in set(t["metric"])  # the client counted lengths per request


def test_a_rate_that_is_no_number_is_set_aside_and_a_cut_report_refused_naming_its_line(tmp_path):
    obj = json.loads(PROM.read_text())
    obj["successes"]["rate"] = "fast"
    bad = tmp_path / "stage_0_prometheus_metrics.json"
    bad.write_text(json.dumps(obj, indent=1))
    t = ingest.read_parsed(bad)[0]
    assert "request_throughput" not in set(t.table["metric"])
    assert any(r == "expected a number" for r in t.rejected["reason"])
    bad.write_text(PROM.read_text()[:-40])
    with pytest.raises(ParseError) as err:
        ingest.read(bad)
    assert err.value.line == 1 and "not valid JSON" in err.value.message
