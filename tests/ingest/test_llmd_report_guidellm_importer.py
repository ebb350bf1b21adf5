"""llm-d's GuideLLM importer (native_to_br0_1.import_guidellm): it copies GuideLLM's args (profile and
`rate` list) and writes the benchmark's index as `metadata.stage`, and it labels `request_latency` ms
while filling it from GuideLLM's `request_latency`, which is in seconds."""

from __future__ import annotations

import pytest
from conftest import cell

from benchbook import config
from benchbook.ingest import llmd_report as lr

FIX = config.FIXTURES_DIR / "llm-d-benchmark-report"
GUIDE = FIX / "llmd_precise_prefix_guide_qwen3_0p6b_guidellm_rate5_stage1_benchmark_report.yaml"


def report(name: str, profile: str, stage: int, units: str = "ms") -> str:
    return f"""metrics:
  latency:
    request_latency:
      mean: 0.124
      units: {units}
    time_to_first_token:
      mean: 13.2
      units: ms
  requests:
    total: 149
    failures: 0
scenario:
  load:
    args:
      profile: {profile}
      rate:
      - 1.0
      - 5.0
      - 10.0
    metadata:
      stage: {stage}
    name: {name}
version: '0.1'
"""


def test_a_guidellm_stage_takes_the_rate_its_index_names_in_the_profiles_rate_list():
    t = lr.parse(GUIDE.read_text(), GUIDE.name).table
    assert set(t["request_rate"]) == {5.0}  # args.rate [1, 5, 10], metadata.stage 1
    assert set(lr.parse(report("guidellm", "constant", 2), "x").table["request_rate"]) == {10.0}
    concurrent = lr.parse(report("guidellm", "concurrent", 0), "x").table
    assert set(concurrent["max_concurrency"]) == {1.0}  # a concurrent profile's rates are streams


@pytest.mark.parametrize(
    "name, profile, stage",
    [("guidellm", "sweep", 1), ("inference-perf", "constant", 1), ("guidellm", "constant", 3)],
)
def test_no_rate_where_the_index_does_not_name_one_of_the_profiles_rates(name, profile, stage):
    # a sweep's benchmarks are not its rate list in order; another harness's args are not GuideLLM's;
    # an index past the list names none
    t = lr.parse(report(name, profile, stage), "x").table
    assert t["request_rate"].isna().all()


def test_guidellm_request_latency_labelled_ms_is_read_in_seconds():
    t = lr.parse(GUIDE.read_text(), GUIDE.name).table
    e2el = cell(t, "e2el", "mean")
    assert e2el["value"] == pytest.approx(124.42724816751159)  # 0.124 s, not 0.124 ms
    assert "in s" in e2el["note"]
    assert cell(t, "ttft", "mean")["value"] == pytest.approx(13.210789469264498)  # GuideLLM's _ms metric


def test_another_harness_request_latency_in_ms_stays_ms():
    t = lr.parse(report("inference-perf", "constant", 1), "x").table
    assert cell(t, "e2el", "mean")["value"] == pytest.approx(0.124)
    t = lr.parse(report("guidellm", "constant", 1, units="s"), "x").table
    assert cell(t, "e2el", "mean")["value"] == pytest.approx(124.0)  # a report labelled s is converted once
