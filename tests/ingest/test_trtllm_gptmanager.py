"""TensorRT-LLM gptManagerBenchmark's `[BENCHMARK] key value` lines, read by the tool's own definitions
(`Recorder::calculateMetrics`): num_samples -> completed (successful requests), num_error_samples ->
failed, total_latency -> duration in s, seq_throughput -> request_throughput, token_throughput ->
output_throughput, sequence_latency -> e2el; the repeated num_samples is set aside naming its line;
settings from the command above (`--request_rate`, its absence or a negative rate: every request at
once); outputs with no command between them keep the command above the first and are its processes
(`L, process N`); the one-line form of
gptSessionBenchmark / benchmark.py beside a run is set aside naming its line (alone, trtllm_static reads it)."""

from __future__ import annotations

import math

import pytest

from benchbook import ingest

RUN = """[BENCHMARK] num_samples 500
[BENCHMARK] num_error_samples 2

[BENCHMARK] num_samples 500
[BENCHMARK] total_latency(ms) 52372.21
[BENCHMARK] seq_throughput(seq/sec) 9.55
[BENCHMARK] token_throughput(token/sec) 2870.80

[BENCHMARK] avg_sequence_latency(ms) 2755.07
[BENCHMARK] p99_sequence_latency(ms) 3108.04
[BENCHMARK] p50_sequence_latency(ms) 2747.11
"""


def _read(tmp_path, text):
    f = tmp_path / "log.md"
    f.write_text(text)
    return ingest.read(f)


def _value(df, metric, statistic):
    return df[(df["metric"] == metric) & (df["statistic"] == statistic)]["value"].tolist()


def test_the_tools_numbers_map_by_its_definitions(tmp_path):
    df = _read(tmp_path, "./gptManagerBenchmark --engine_dir e --request_rate 10 --max_num_samples 500\n" + RUN)
    assert set(df["tool"]) == {"trtllm-gptmanager"}
    assert _value(df, "completed", "count") == [500] and _value(df, "failed", "count") == [2]
    assert _value(df, "duration", "value") == [pytest.approx(52.37221)]
    assert _value(df, "request_throughput", "value") == [9.55]
    assert _value(df, "e2el", "mean") == [2755.07] and _value(df, "e2el", "p99") == [3108.04]
    assert set(df["request_rate"]) == {10.0} and set(df["num_prompts"]) == {500.0}
    assert any("again" in r["reason"] for r in df.attrs["rejected"])


def test_no_rate_in_the_command_is_every_request_at_once_and_no_command_is_unknown(tmp_path):
    df = _read(tmp_path, "./gptManagerBenchmark --engine_dir e\n" + RUN)
    assert set(df["request_rate"]) == {math.inf}
    bare = _read(tmp_path, RUN)
    assert bare["request_rate"].isna().all()


def test_outputs_with_no_command_between_keep_the_command_above_the_first(tmp_path):
    df = _read(tmp_path, "gptManagerBenchmark --request_rate 150.0 &\n" + RUN + "\n" + RUN)
    assert set(df["request_rate"]) == {150.0}
    # one command's processes (a loop, or processes started together): one run's, never configurations
    assert sorted(set(df["run"])) == ["gptManagerBenchmark, process 1", "gptManagerBenchmark, process 2"]
    own = _read(
        tmp_path, "gptManagerBenchmark --request_rate 150.0\n" + RUN + "gptManagerBenchmark --request_rate 5\n" + RUN
    )
    assert sorted(set(own["request_rate"])) == [5.0, 150.0] and sorted(set(own["run"])) == ["run 1", "run 2"]
    bare = _read(tmp_path, RUN + "\n" + RUN)  # no command: nothing says they are one command's processes
    assert sorted(set(bare["run"])) == ["run 1", "run 2"]


def test_the_one_line_form_beside_a_run_is_set_aside_naming_its_line(tmp_path):
    line = "[BENCHMARK] batch_size 1 input_length 1024 output_length 128 latency(ms) 2561.35 tokensPerSec 49.97\n"
    df = _read(tmp_path, "gptManagerBenchmark --request_rate 10\n" + RUN + line)
    assert set(df["tool"]) == {"trtllm-gptmanager"}
    aside = [r for r in df.attrs["rejected"] if "trtllm-static-batch reads" in r["reason"]]
    assert [r["line"] for r in aside] == [13]
