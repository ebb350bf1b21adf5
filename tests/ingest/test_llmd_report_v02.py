"""llm-d benchmark report version 0.2 (`run:` / `scenario.stack` / `results.request_performance`):
the schema's own example read into the serving contract as version 0.1 is, its throughputs'
mean kept as the harness's rate, the stage from `load.standardized.stage`, the devices named."""

from __future__ import annotations

import pytest
from conftest import cell

from benchbook import config, ingest
from benchbook.ingest import ParseError
from benchbook.ingest import llmd_report as lr

V02 = config.FIXTURES_DIR / "llm-d-benchmark-report" / "llmd_benchmark_br_v0_2_schema_example_qwen3_0p6b.yaml"


def test_the_v02_example_reads_into_the_serving_contract():
    assert ingest.detect(V02.read_text()) == ["llm-d-benchmark-report"]
    (p,) = ingest.read_parsed(V02)
    assert p.cells_read == len(p.table) + len(p.rejected)
    t = p.table
    assert set(t["format"]) == {lr.FORMAT_V02} and set(t["run"]) == {"stage 3"}
    assert set(t["request_rate"]) == {10.0} and set(t["num_prompts"]) == {500.0}  # stages[3]: 10 req/s x 50 s
    assert t["max_concurrency"].isna().all()  # concurrency .inf: no cap
    assert set(t["model"]) == {"Qwen/Qwen3-0.6B"}
    assert cell(t, "ttft", "mean")["value"] == pytest.approx(36.8578234128654)
    assert cell(t, "request_throughput", "value")["value"] == pytest.approx(2262.448)
    assert cell(t, "completed", "count")["value"] == 500
    assert "duration" not in set(t["metric"])  # run.time.duration is the harness run's
    meta = set(t["metadata"])
    assert meta == {"version=0.2; gpus=8xNVIDIA H100 80GB HBM3; tp=8; pp=1; dp=1; ep=1"}
    reasons = set(p.rejected["reason"])
    assert "a statistic of a rate over time: the report's rate is its mean" in reasons


def test_a_throughput_in_other_units_is_set_aside():
    text = V02.read_text().replace(
        "units: queries/s\n          mean: 2262.448", "units: tokens/s\n          mean: 5.0", 1
    )
    t = lr.parse(text, "edited.yaml")
    assert "request_throughput" not in set(t.table["metric"])
    assert any("expected 'queries/s'" in r for r in t.rejected["reason"])


def test_a_v02_report_without_results_is_refused_naming_the_file():
    text = V02.read_text().split("\nresults:")[0] + "\nresults:\n  profiling: {}\n"
    assert lr.sniff(V02.read_text())
    with pytest.raises(ParseError) as err:
        lr.parse(text, "cut.yaml")
    assert err.value.line == 1 and "llm-d benchmark report" in err.value.message
