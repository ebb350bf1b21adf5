"""llm-d-kv-cache-manager's analysis script writes an "Inference-Perf Benchmark Report" from inference-perf's
stage files: one `### QPS = N` table per requested rate, one row per experiment (a scheduler configuration,
its own sweep). Each row is one run at that rate, its experiment a deployment of its own (never a repeat of
another experiment's run), its success rate kept as printed (no count of requests beside it); the summary
across QPS (every stage pooled) and the EPP router's table are set aside, as is the `ITL p50/ p90` pair.
A markdown file without the report's title, or without a per-QPS table, is not this report."""

from __future__ import annotations

from benchbook.analysis import serving
from benchbook.ingest import inference_perf, inference_perf_report

REPORT = """# Inference-Perf Benchmark Report

The setup uses 4 vLLM pods running the `m/Model-8B` model, each with 2 H100 GPUs (Tensor-Parallelism=2).

```yaml
server:
  type: vllm
  model_name: m/Model-8B
```

### Summary across QPS

| Experiment | Output toks/s | Requests/s | Success Rate | TTFT p90 (s) | TTFT mean (s) | ITL mean (s) | ITL p50/ p90 (s) |
|---|---:|---:|---:|---:|---:|---:|---:|
| a-sched | 500.0 | 3.000 | 100.00% | 0.300 | 0.200 | 0.020 | 0.0000/0.090 |
| b-sched | 400.0 | 3.000 | 99.50% | 0.900 | 0.500 | 0.030 | 0.0000/0.090 |

### EPP Queue and KV Cache Metrics Summary

| Experiment | Wait Queue (mean/p90/max) | KV Cache % (mean/p90/max) | Pods | Data Points |
|---|---:|---:|---:|---:|
| a-sched | 0.1/0/3 | 50.0/70.0/80.0 | 4 | 100 |

## Per-QPS Results

### QPS = 2.0

| Experiment | Output toks/s | Requests/s | Success Rate | TTFT p90 (s) | TTFT mean (s) | ITL mean (s) | ITL p50/ p90 (s) |
|---|---:|---:|---:|---:|---:|---:|---:|
| a-sched | 300.0 | 2.001 | 100.00% | 0.250 | 0.150 | 0.015 | 0.0000/0.080 |
| b-sched | 290.0 | 2.002 | 99.00% | 0.800 | 0.400 | 0.025 | 0.0000/0.080 |

### QPS = 4.0

| Experiment | Output toks/s | Requests/s | Success Rate | TTFT p90 (s) | TTFT mean (s) | ITL mean (s) | ITL p50/ p90 (s) |
|---|---:|---:|---:|---:|---:|---:|---:|
| a-sched | 600.0 | 4.000 | 100.00% | 0.350 | 0.250 | 0.025 | 0.0000/0.100 |
| b-sched | 450.0 | 3.990 | 100.00% | 1.800 | 0.900 | 0.035 | 0.0000/0.100 |
"""


def _table(text: str = REPORT):
    parsed = inference_perf.parse(text, "benchmark_report.md")
    return parsed, parsed.table


def test_each_per_qps_row_is_one_run_of_its_experiment_at_that_rate():
    assert inference_perf.sniff(REPORT)
    parsed, t = _table()
    runs = t.drop_duplicates("run")
    assert list(runs["run"]) == ["a-sched, QPS 2", "b-sched, QPS 2", "a-sched, QPS 4", "b-sched, QPS 4"]
    assert list(runs["request_rate"]) == [2.0, 2.0, 4.0, 4.0]
    assert set(t["metadata"]) == {"deployment=a-sched", "deployment=b-sched"}
    assert set(t["model"]) == {"m/Model-8B"} and set(t["format"]) == {inference_perf_report.FORMAT}
    got = t[(t["run"] == "b-sched, QPS 2")].set_index(["metric", "statistic"])["value"]
    assert got[("output_throughput", "value")] == 290.0 and got[("request_throughput", "value")] == 2.002
    assert got[("ttft", "p90")] == 800.0 and got[("ttft", "mean")] == 400.0 and got[("itl", "mean")] == 25.0
    assert got[("success_rate", "value")] == 99.0


def test_the_experiments_are_series_of_their_own_not_repeats_of_one_sweep():
    _, t = _table()
    r = serving.runs(t.assign(source="benchmark_report.md"))
    keys = serving.series_key(r)
    assert keys.nunique() == 2
    assert all(k.endswith(("(a-sched)", "(b-sched)")) for k in keys)


def test_the_summary_the_router_table_and_the_itl_pair_are_set_aside_with_their_reasons():
    parsed, t = _table()
    why = parsed.rejected["reason"].value_counts() if "reason" in parsed.rejected else None
    assert why is not None
    assert why[inference_perf_report.SUMMARY] == 2 * 7
    assert why[inference_perf_report.OTHER] == 4
    assert why[inference_perf_report.PAIR] == 4
    assert not (t["value"] == 500.0).any()  # the summary's output toks/s is no run's


def test_a_markdown_table_without_the_reports_title_or_a_qps_table_is_not_this_report():
    assert not inference_perf.sniff(REPORT.replace("# Inference-Perf Benchmark Report", "# My benchmark"))
    assert not inference_perf.sniff(REPORT.replace("### QPS = ", "### Rate "))
    assert not inference_perf_report.sniff("# Inference-Perf Benchmark Report\n\nNo tables yet.\n")


def test_a_report_without_the_success_rate_column_keeps_the_others():
    text = REPORT.replace(" Success Rate |", "").replace(
        "---:|---:|---:|---:|---:|---:|---:|", "---:|---:|---:|---:|---:|---:|"
    )
    for pct in ("100.00% | ", "99.00% | ", "99.50% | "):
        text = text.replace(pct, "")
    _, t = _table(text)
    assert "success_rate" not in set(t["metric"]) and len(t) == 4 * 5
