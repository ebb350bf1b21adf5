"""vLLM `bench throughput` in the bandwidth roofline: a batched run, stated (its output tok/s, prompt +
output tok/s, req/s) but never placed as a single stream; read as bandwidth, one read of the weights per
step amortised over the batch: the most weight bytes a token can cost at the device's peak, and the fewest
sequences per step its rate needs."""

from __future__ import annotations

import math

import pytest

from benchbook import config, ingest
from benchbook.analysis import bandwidth
from benchbook.presentation import bandwidth as show

YOUNG = config.FIXTURES_DIR / "vllm-bench-offline" / "young_tw_llama31_70b_rocm.md"
MI300X_GB_S = 5300.0  # data/hardware.csv


def table(path):
    return ingest.read_all([path], tool="vllm-bench-offline")[0]


def test_the_real_throughput_line_is_stated_and_not_placed():
    runs = bandwidth.throughput_runs(table(YOUNG))
    assert len(runs) == 1  # the latency run of the same file is not a throughput run
    r = runs.iloc[0]
    assert (r["output_tok_s"], r["total_tok_s"], r["request_rate"], r["line"]) == (1369.41, 2735.5, 5.35, 16)
    weights = r["weight_gb"]
    assert r["precision"] == "bf16" and weights == pytest.approx(2 * 70.55, rel=0.01)
    assert runs["dtype_assumed"].tolist() == [True]  # --dtype auto: bf16 assumed, said so
    assert r["single_stream_gb_s"] == pytest.approx(weights * 1369.41)
    assert math.isnan(r["min_batch"])  # the file names no device: nothing to bound the batch with
    text = show.throughput_note(runs)
    assert "1,369.41 output tok/s" in text and "not a batch-1 decode" in text and "amortised over the batch" in text
    assert "not bounded here" in text


def test_against_a_named_device_the_batch_is_bounded_from_below():
    r = bandwidth.throughput_runs(table(YOUNG), "MI300X").iloc[0]
    assert r["bytes_per_token_at_peak"] == pytest.approx(MI300X_GB_S / 1369.41)
    assert r["min_batch"] == pytest.approx(r["weight_gb"] * 1369.41 / MI300X_GB_S)
    assert "at least 36.5 sequences" in show.throughput_note(bandwidth.throughput_runs(table(YOUNG), "MI300X"))


def test_tensor_parallel_adds_the_devices_bandwidth_and_an_old_line_is_not_placed(tmp_path):
    f = tmp_path / "thr.md"
    f.write_text(
        "```sh\nvllm bench throughput --model meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 2 "
        "--input-len 100 --output-len 100 --num-prompts 10\n```\n\n"
        "Throughput: 2.00 requests/s, 400.00 total tokens/s, 200.00 output tokens/s\n\n"
        "## old\n\nThroughput: 2.00 requests/s, 400.00 tokens/s\n"
    )
    runs = bandwidth.throughput_runs(table(f), "MI300X")
    assert len(runs) == 1 and runs["peak_gb_s"].iat[0] == 2 * MI300X_GB_S
    assert runs["min_batch"].iat[0] == pytest.approx(runs["weight_gb"].iat[0] * 200.0 / (2 * MI300X_GB_S))
    # a command line that states no TP: one device's bandwidth
    f.write_text(f.read_text().replace(" --tensor-parallel-size 2", ""))
    assert bandwidth.throughput_runs(table(f), "MI300X")["peak_gb_s"].tolist() == [MI300X_GB_S]


def test_no_throughput_run_says_nothing():
    latency_only = table(YOUNG)
    latency_only = latency_only[latency_only["benchmark"] == "latency"]
    assert (
        bandwidth.throughput_runs(latency_only).empty
        and show.throughput_note(bandwidth.throughput_runs(latency_only)) == ""
    )
    assert show.throughput_note(bandwidth.throughput_runs(latency_only.iloc[0:0].drop(columns="benchmark"))) == ""


def test_an_unknown_model_size_is_said_once_for_all_the_runs_it_leaves_unsized(tmp_path):
    # two runs of a model nobody names (the MI100 thread's two lines): one sentence, not one per run
    f = tmp_path / "two.md"
    f.write_text(
        "When I use A\nI got: Throughput: 0.77 requests/s, 323.86 total tokens/s, 155.93 output tokens/s\n\n"
        "When I use B\nI got: Throughput: 7.77 requests/s, 3259.16 total tokens/s, 1569.15 output tokens/s\n"
    )
    text = show.throughput_note(bandwidth.throughput_runs(table(f)))
    assert text.count("size is unknown") == 1 and "no run's weight bytes per token are stated" in text
    # one run: the sentence speaks of it alone
    f.write_text("Throughput: 0.77 requests/s, 323.86 total tokens/s, 155.93 output tokens/s\n")
    one = show.throughput_note(bandwidth.throughput_runs(table(f)))
    assert "The model's size is unknown, so its weight bytes per token are not stated." in one
    # a sized run says nothing of the kind
    assert "size is unknown" not in show.throughput_note(bandwidth.throughput_runs(table(YOUNG)))


def _write(tmp_path, totals: str):
    f = tmp_path / "run.md"
    f.write_text(
        "vllm bench throughput --model meta-llama/Llama-3.1-8B-Instruct --num-prompts 1024 --input-len 1024 "
        "--output-len 1024 --max-num-seqs 128\n\n"
        "Throughput: 25.16 requests/s, 28983.75 total tokens/s, 3220.42 output tokens/s\n" + totals,
        encoding="utf-8",
    )
    return f


def test_the_tokens_a_throughput_run_generated_are_its_own_total_not_the_length_it_asked(tmp_path):
    # stop 46 (vLLM PR #34776): --output-len 1024 asked, `Total num output tokens: 131072` over 1,024 prompts
    f = _write(tmp_path, "Total num prompt tokens:  1048576\nTotal num output tokens:  131072\n")
    runs = bandwidth.throughput_runs(table(f))
    assert runs["generated_len"].tolist() == [128.0]
    text = show.throughput_note(runs)
    assert "1,024 + 1,024 tokens asked, of which it generated 128 output tokens per prompt" in text
    assert "so it is not placed on this single-stream roofline" in text
    # the other way: a run that generated what it asked, or prints no total, is said at its asked lengths alone
    for totals in ("Total num prompt tokens:  1048576\nTotal num output tokens:  1048576\n", ""):
        text = show.throughput_note(bandwidth.throughput_runs(table(_write(tmp_path, totals))))
        assert "1,024 + 1,024 tokens." in text and "generated" not in text


def test_a_throughput_runs_max_num_seqs_is_its_engines_batch_cap(tmp_path):
    f = _write(tmp_path, "")
    runs = batch_offline_runs(f)
    assert runs["max_batch_size"].tolist() == [128.0]
    # the other way: a command that sets no --max-num-seqs leaves the cap unstated (the engine's default)
    f.write_text(f.read_text(encoding="utf-8").replace(" --max-num-seqs 128", ""), encoding="utf-8")
    assert math.isnan(batch_offline_runs(f)["max_batch_size"].iat[0])


def batch_offline_runs(path):
    from benchbook.analysis import batch

    return batch.offline_runs(table(path))
