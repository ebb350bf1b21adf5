"""trtllm-bench throughput reports in batch_saturation: one point per run (no knee), the engine's max batch
size as a ceiling, compute = 2 x active params x tok/s at the run's precision, a fraction only of a named
device's peak; a `trtllm-bench latency` report is not offline throughput."""

from __future__ import annotations

import math

import pytest

from benchbook import config, declarations, ingest
from benchbook.analysis import batch, roofline
from benchbook.presentation import batch as show

FIX = config.FIXTURES_DIR / "trtllm-bench"
ENGINE = FIX / "trtllm_bench_0.17_throughput_engine.txt"  # FP8 engine, output tok/s only
STREAM = FIX / "trtllm_bench_0.21_streaming_blog.txt"  # PyTorch backend, bf16, output and total tok/s
MULTIMODAL = FIX / "trtllm_bench_1.0_multimodal_docs.txt"  # names no model


def table(path):
    return ingest.read_all([path])[0]


def h100():
    return roofline.choose("H100-SXM5-80GB", [], 0.0, 0.0)


def test_engine_report_is_one_fp8_run_with_its_max_batch():
    r = batch.offline_runs(table(ENGINE))
    assert len(r) == 1
    run = r.iloc[0]
    assert (run["tool"], run["benchmark"], run["model"]) == ("trtllm-bench", "throughput", "meta-llama/Llama-3.1-8B")
    assert run["output_tok_s"] == pytest.approx(28390.4265) and math.isnan(run["total_tok_s"])
    assert math.isnan(run["batch_size"]) and run["max_batch_size"] == 4096  # a ceiling, not a batch setting
    assert run["precision"] == "fp8"  # Quantization: FP8
    assert batch.sweep(table(ENGINE)).empty  # no batch point: nothing for the knee


def test_streaming_report_is_bf16_and_counts_prompt_tokens():
    run = batch.offline_runs(table(STREAM)).iloc[0]
    assert run["precision"] == "bf16" and run["max_batch_size"] == 3840
    assert (run["output_tok_s"], run["total_tok_s"]) == (pytest.approx(11076.77), pytest.approx(22153.5399))


def test_compute_against_the_peak_of_the_runs_precision():
    pk = h100()
    eng = batch.offline_points(batch.offline_runs(table(ENGINE)), {"meta-llama/Llama-3.1-8B": 8.03}, pk).iloc[0]
    assert eng["achieved_tflops"] == pytest.approx(2 * 8.03e9 * 28390.4265 / 1e12)
    assert eng["compute_fraction"] == pytest.approx(eng["achieved_tflops"] / pk.peak_tflops("fp8"))
    assert eng["tokens_counted"].startswith("output tokens only")
    st = batch.offline_points(batch.offline_runs(table(STREAM)), {"meta-llama/Llama-3.1-8B-Instruct": 8.03}, pk)
    assert st["compute_fraction"].iat[0] == pytest.approx(2 * 8.03e9 * 22153.5399 / 1e12 / pk.peak_tflops("bf16"))
    text = show.offline_sentence(st, pk)
    assert "trtllm-bench throughput run" in text and "3840" in text and "dense bf16 peak" in text
    assert "no knee is stated" in text


def test_a_run_over_several_gpus_is_set_against_one_gpus_peak_per_gpu():
    """The same FP8 engine report at TP 4 x PP 2 spans eight GPUs: its compute is shared among them, so
    the fraction of one H100's peak is an eighth of the one-GPU run's, and the page says it per GPU."""
    pk = h100()
    one = batch.offline_points(batch.offline_runs(table(ENGINE)), {"meta-llama/Llama-3.1-8B": 8.03}, pk).iloc[0]
    text = ENGINE.read_text().replace("TP Size:                1", "TP Size:                4")
    text = text.replace("PP Size:                1", "PP Size:                2")
    runs = batch.offline_runs(ingest.trtllm_bench.parse(text, "tp4pp2.txt").table)
    assert runs["devices"].iat[0] == 8.0 and one["devices"] == 1.0
    eight = batch.offline_points(runs, {"meta-llama/Llama-3.1-8B": 8.03}, pk).iloc[0]
    assert eight["achieved_tflops"] == pytest.approx(one["achieved_tflops"])
    assert eight["compute_fraction"] == pytest.approx(one["compute_fraction"] / 8)
    said = show.offline_sentence(batch.offline_points(runs, {"meta-llama/Llama-3.1-8B": 8.03}, pk), pk)
    assert "per GPU over its 8 GPUs (TP x PP)" in said
    assert "per GPU over its" not in show.offline_sentence(
        batch.offline_points(batch.offline_runs(table(ENGINE)), {"meta-llama/Llama-3.1-8B": 8.03}, pk), pk
    )


def test_no_fraction_without_a_device_or_a_missing_peak():
    runs = batch.offline_runs(table(ENGINE))
    pts = batch.offline_points(runs, {"meta-llama/Llama-3.1-8B": 8.03}, None)
    assert math.isnan(
        pts["compute_fraction"].iat[0]
    ) and "no device the hardware table knows is named" in show.offline_sentence(pts, None)
    a100 = roofline.choose("A100-SXM4-80GB", [], 0.0, 0.0)  # named, but no fp8 tensor cores
    pts = batch.offline_points(runs, {"meta-llama/Llama-3.1-8B": 8.03}, a100)
    assert math.isnan(pts["compute_fraction"].iat[0]) and "no dense fp8 figure" in show.offline_sentence(pts, a100)


def test_unnamed_model_gives_no_compute():
    pts = batch.offline_points(batch.offline_runs(table(MULTIMODAL)), {}, h100())
    assert math.isnan(pts["achieved_tflops"].iat[0]) and "pass params_b" in show.offline_sentence(pts, h100())


def test_latency_report_is_not_offline_throughput():
    df = table(ENGINE)
    df["metadata"] = df["metadata"].str.replace("subcommand=throughput", "subcommand=latency")
    assert batch.offline_runs(df).empty


def test_inputs_sentence_counts_the_runs_with_no_batch():
    runs = batch.offline_runs(table(ENGINE))
    sw = batch.sweep(table(ENGINE))
    text = show.inputs_sentence("f", sw, runs)
    assert "meta-llama/Llama-3.1-8B" in text and "1 run with no batch setting" in text
    assert "a model the output does not name" in show.inputs_sentence("f", sw)


def test_the_input_line_names_the_dtype_of_a_run_with_no_batch_as_its_row_does():
    """A run of its own (no batch setting) with a result states its weights' precision on its row:
    the input line lists it among the dtypes with results; one whose precision is unstated leaves none."""
    runs = batch.offline_runs(table(ENGINE))
    sw = batch.sweep(table(ENGINE))
    assert runs["precision"].iat[0] == "fp8"
    text = show.inputs_sentence("f", sw, runs)
    assert "dtypes with results: fp8" in text and "no dtype with a result" not in text
    tabbed = batch.offline_runs(table(TABBED))
    assert "no dtype with a result" in show.inputs_sentence("f", batch.sweep(table(TABBED)), tabbed)


def test_the_notebook_accepts_every_offline_tool():
    assert set(batch.OFFLINE_TOOLS) <= set(declarations.chapter("batch_saturation").tools)


TABBED = FIX / "trtllm_bench_0.21_blog_tabbed_overview.txt"  # a performance overview alone


def test_a_report_states_its_requests_rate_and_the_engines_precision():
    eng = batch.offline_runs(table(ENGINE)).iloc[0]
    assert (eng["requests"], eng["request_rate"]) == (3000, pytest.approx(221.8002))
    pts = batch.offline_points(batch.offline_runs(table(ENGINE)), {"meta-llama/Llama-3.1-8B": 8.03}, h100())
    assert pts["weight_bytes_per_param"].iat[0] == 1.0  # FP8: one byte per weight, not bf16's two
    assert pts["weight_gb"].iat[0] == pytest.approx(8.03)
    text = show.offline_sentence(pts, h100())
    assert "3,000 requests at 221.80 req/s" in text and "weights in fp8" in text and "2 byte" not in text
    tab = batch.offline_runs(table(TABBED)).iloc[0]
    assert math.isnan(tab["requests"]) and tab["request_rate"] == pytest.approx(86.5373)
    assert tab["precision"] is None  # no Dtype, no Quantization line: not assumed bf16
    text = show.offline_sentence(batch.offline_points(batch.offline_runs(table(TABBED)), {}, h100()), h100())
    assert "86.54 req/s" in text and "precision not stated" in text
