"""TensorRT-LLM's gptSessionBenchmark and benchmark.py lines, read by the tools' own definitions: one
static batch per line, `latency(ms)` the mean generate() call (in s), `tokensPerSec` / `tokens_per_sec`
= batch x output_length / latency; benchmark.py's precision, QuantMode (`QuantMode.0`: none), world_size
and compute_cap as settings; a command only of the line's own form; an `N/A` latency (the tool's
out-of-memory print) or a line cut before its latency set aside naming the line."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.ingest import trtllm_static

SESSION = (
    "[BENCHMARK] batch_size 1 input_length 1024 output_length 128 latency(ms) 2561.35 tokensPerSec 49.97 "
    "generation_time(ms) 2492.30 generationTokensPerSec 51.36 gpu_peak_mem(gb) 44.75\n"
)
PY = (
    "[BENCHMARK] model_name llama_7b world_size 2 num_heads 32 precision float16 batch_size 64 input_length 128 "
    "output_length 128 gpu_peak_mem(gb) 20.5 build_time(s) 0 tokens_per_sec 7373.14 percentile95(ms) 1116.268 "
    "percentile99(ms) 1118.393 latency(ms) 1111.06 compute_cap sm90 quantization {q}\n"
)


def _read(tmp_path, text):
    f = tmp_path / "log.md"
    f.write_text(text)
    return ingest.read(f)


def _value(df, metric, statistic):
    return df[(df["metric"] == metric) & (df["statistic"] == statistic)]["value"].tolist()


def test_a_gptsession_line_is_one_batch_with_its_mean_latency(tmp_path):
    df = _read(tmp_path, "./gptSessionBenchmark --engine_dir e --batch_size 1\n" + SESSION)
    assert set(df["tool"]) == {"trtllm-static-batch"} and set(df["format"]) == {"gptSessionBenchmark"}
    assert set(df["batch_size"]) == {1.0} and set(df["output_len"]) == {128.0} and set(df["input_len"]) == {1024.0}
    assert _value(df, "latency", "mean") == [pytest.approx(2.56135)] and _value(df, "throughput", "value") == [49.97]
    assert df["metadata"].iat[0].startswith("cli_command=./gptSessionBenchmark")
    # the tool's own rate: batch x output_length / mean latency
    assert 1 * 128 / 2.56135 == pytest.approx(49.97, abs=0.01)


def test_a_benchmark_py_line_states_precision_quantization_world_size_and_compute_cap(tmp_path):
    df = _read(tmp_path, "./gptSessionBenchmark --engine_dir e\n" + PY.format(q="QuantMode.FP8_QDQ|FP8_KV_CACHE"))
    assert set(df["model"]) == {"llama_7b"} and set(df["dtype"]) == {"float16"}
    assert set(df["quantization"]) == {"QuantMode.FP8_QDQ|FP8_KV_CACHE"} and set(df["tensor_parallel"]) == {2.0}
    assert set(df["compute_cap"]) == {"sm90"} and _value(df, "latency", "p99") == [pytest.approx(1.118393)]
    assert df["metadata"].isna().all()  # a gptSessionBenchmark command is no benchmark.py line's
    plain = _read(tmp_path, "run benchmark.py\n" + PY.format(q="QuantMode.0"))
    assert plain["quantization"].isna().all() and plain["metadata"].isna().all()  # prose is no command


def test_an_out_of_memory_print_and_a_cut_line_are_set_aside_by_line(tmp_path):
    oom = "[BENCHMARK] batch_size 64 input_length 1024 output_length 128 latency(ms) N/A tokensPerSec N/A\n"
    cut = "[BENCHMARK] model_name chatglm3_6b world_size 1 num_heads 32 num_kv_hea\n"
    df = _read(tmp_path, SESSION + oom + cut)
    reasons = {r["line"]: r["reason"] for r in df.attrs["rejected"]}
    assert "out of memory" in reasons[2] and "cut before its latency" in reasons[3]
    assert set(df["batch_size"]) == {1.0}


def test_a_line_beside_a_gptmanager_run_is_not_this_readers():
    run = "[BENCHMARK] num_samples 5\n[BENCHMARK] total_latency(ms) 10.0\n"
    assert trtllm_static.sniff(SESSION) and not trtllm_static.sniff(run + SESSION)
