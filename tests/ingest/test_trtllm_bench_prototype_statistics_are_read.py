"""trtllm-bench's prototype (benchmarks/suite/tensorrt_llm_bench, 2024) prints `= STATISTICS` with
`Throughput (tokens/second)`, which its in-flight benchmarker computes as output tokens / end-to-end
time: it is the run's output throughput. The same benchmarker writes `first_token_latency=0`,
`time_per_output_token=0` and `peak_gpu_mem=0.0` without measuring them (its README: "not reported ...
typically as 0.0"), so a 0 there is set aside as no measurement; a value the static benchmarker measured
is kept."""

from __future__ import annotations

from benchbook import ingest

REPORT = """===========================================================
= METADATA
===========================================================
Model:                  meta-llama/Llama-2-7b-hf
TP Size:                1
PP Size:                1
Scheduling Policy:      Max Utilization
In-flight Batcher?:     True
Dtype:                  float16
KV Cache Dtype:         FP8
Quantization:           FP8
KV Memory Percentage:   98.0%

===========================================================
= ENGINE DETAILS
===========================================================
Engine Directory:       /tmp/meta-llama/llama-2-7b-hf
Max Batch Size:         1024
Total Input Length:     128000
Total Output Length:    128000
Max Tokens:             8000

===========================================================
= STATISTICS
===========================================================
Throughput (tokens/second):     17634.422523488243
Total Latency (ms):             7258.5309
First Token Latency (ms):       0.0
Token-to-token Latency (ms):    0.0
Peak GPU Memory Usage (GB):     0.0
"""


def _read(tmp_path, text):
    f = tmp_path / "bench.log"
    f.write_text(text)
    return ingest.read(f)


def test_the_prototype_throughput_is_the_output_throughput(tmp_path):
    df = _read(tmp_path, REPORT)
    assert df.loc[df["metric"] == "output_throughput", "value"].round(2).tolist() == [17634.42]
    assert "max_batch_size=1024" in df["metadata"].iloc[0]


def test_a_zero_the_benchmarker_did_not_measure_is_set_aside(tmp_path):
    df = _read(tmp_path, REPORT)
    assert not (df["metric"] == "ttft").any()
    reasons = {r["line"]: r["reason"] for r in df.attrs["rejected"]}
    assert sorted(n for n, why in reasons.items() if "does not measure" in why) == [28, 29, 30]


def test_a_measured_first_token_latency_is_kept(tmp_path):
    df = _read(tmp_path, REPORT.replace("First Token Latency (ms):       0.0", "First Token Latency (ms):       41.5"))
    assert df.loc[df["metric"] == "ttft", "value"].tolist() == [41.5]
