"""An InferenceX sweep summary (`metadata` naming InferenceX as its benchmark tool, and one result per
concurrency, as SemiAnalysis's dashboard repository keeps it): each result a run at its concurrency, the
machine, TP, precision and framework from `metadata`; totals and per-GPU throughputs as printed, latencies in
ms as printed (`<stat>_<name>_ms`), the request throughput completed / duration, `interactivity` set aside.
A JSON whose metadata names another tool is no summary."""

from __future__ import annotations

import json

from benchbook import config, ingest
from benchbook.ingest import inferencex

SUMMARY = config.FIXTURES_DIR / "inferencex" / "inferencex_app_glm47_gaudi3_8x_hl325l_tp8_summary.json"


def test_each_result_is_a_run_at_its_concurrency_on_the_summarys_machine():
    df = ingest.read(SUMMARY)
    assert set(df["tool"]) == {"inferencex"} and df["run"].nunique() == 8
    assert sorted(set(df["max_concurrency"])) == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0]
    meta = df["metadata"].iloc[0]
    assert meta.startswith("gpus=8x Intel Gaudi 3 HL-325L") and "tp=8" in meta and "dtype=BF16" in meta
    c32 = df[df["max_concurrency"] == 32.0]
    got = {(m, s): v for m, s, v in c32[["metric", "statistic", "value"]].itertuples(index=False)}
    assert got[("output_throughput", "value")] == 305.34 and got[("output_throughput_per_gpu", "value")] == 38.17
    assert got[("ttft", "p99")] == 3252.36 and got[("completed", "count")] == 320
    assert abs(got[("request_throughput", "value")] - 320 / 749.6) < 1e-9


def test_interactivity_is_set_aside():
    rejected = ingest.read_parsed(SUMMARY)[0].rejected
    assert len(rejected) == 8 and rejected["reason"].str.startswith("interactivity").all()


def test_metadata_of_another_tool_is_no_summary():
    doc = json.loads(SUMMARY.read_text(encoding="utf-8"))
    doc["metadata"]["benchmark_tool"] = "vllm bench serve"
    assert not inferencex.summary(doc)
    assert inferencex.summary(json.loads(SUMMARY.read_text(encoding="utf-8")))
