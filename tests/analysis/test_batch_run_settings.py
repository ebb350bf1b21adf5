"""batch_saturation reads each run's own settings: the model an MLPerf SUT name gives, a vLLM run's
precision from --quantization or --dtype (bf16 assumed only with neither), series split by every
setting that differs, no gain across a zero batch step, speculative decoding said, and no device
assumed for a run that names none."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import batch, roofline
from benchbook.claims import batch as batch_claims
from benchbook.presentation import batch as show

FIX = config.FIXTURES_DIR
NVIDIA = FIX / "mlperf-loadgen" / "nvidia_b200x1_llama2_70b_offline_summary.txt"
AMD = FIX / "mlperf-loadgen" / "amd_mi300x_llama2_70b_offline_summary.txt"
TORCHAO = FIX / "vllm-bench-offline" / "vllm_docs_torchao_int8wo_latency.md"
KV = FIX / "vllm-bench-offline" / "wjb_llama3_8b_latency_fp8kv_and_throughput.md"
MTP = FIX / "trtllm-bench" / "dsv32_blog_b200_min_latency_tp4_mtp3.md"
LFM = FIX / "vllm-bench-offline" / "lfm25_350m_h100_bench_throughput.md"


def table(path):
    return ingest.read_all([path])[0]


def test_mlperf_model_is_the_one_its_sut_name_gives():
    assert batch.offline_runs(table(NVIDIA))["model"].tolist() == ["llama2-70b"]  # llama2-70b-Offline-SUT
    assert batch.offline_runs(table(AMD))["model"].tolist() == [""]  # PySUT names none


def test_vllm_precision_from_quantization_or_dtype_assumed_only_with_neither():
    def vllm(dtype, quantization, model):
        got = batch.run_precision(model, quantization, dtype)
        return got["precision"], got["precision_assumed"]

    assert vllm(None, "torchao", "jerryzh168/llama3-8b-int8wo") == ("int8 weight-only", False)
    assert vllm(None, "compressed-tensors", "org/m-w8a8") == ("int8", False)
    assert vllm("bfloat16", "torchao", "some-org/some-model") == (batch.UNSTATED, False)
    assert vllm(None, "fp8", "m") == ("fp8", False)
    assert vllm("float16", None, "m") == ("fp16", False)
    assert vllm(None, None, "m") == ("bf16", True)
    assert vllm(None, None, "deepseek-ai/DeepSeek-R1") == ("fp8", False)  # the model table's fp8 checkpoint


def test_torchao_int8_weight_only_run_reads_one_byte_per_weight():
    sw = batch.sweep(table(TORCHAO))
    assert sw[["dtype", "variant", "batch_size"]].values.tolist() == [["int8 weight-only", "--quantization torchao", 1]]
    assert not sw["dtype_assumed"].any()
    rl = batch.step_roofline(sw, {"jerryzh168/llama3-8b-int8wo": 8.0}, None)
    assert rl["weight_bytes"].iat[0] == 8.0e9  # 1 byte per weight, not bf16's 2
    a100 = roofline.choose("A100-SXM4-80GB", [])
    rl = batch.step_roofline(sw, {"jerryzh168/llama3-8b-int8wo": 8.0}, a100)
    assert rl["peak_gb_s"].iat[0] == 2039.0 and math.isnan(rl["peak_tflops"].iat[0])  # matmuls not in int8
    assert "bf16" not in show.inputs_sentence("f", sw, batch.offline_runs(table(TORCHAO)))


def test_runs_that_differ_in_kv_cache_dtype_are_two_series_with_no_gain_between():
    sw = batch.sweep(table(KV))
    keys = [k for k, _ in batch.series(sw)]
    assert [k[3:] for k in keys] == [("bf16", ""), ("bf16", "KV cache fp8")]
    assert batch.marginal_gain(sw)["gain_tok_s_per_seq"].isna().all()  # one batch per series: no step
    assert "KV cache fp8" in show.inputs_sentence("f", sw, batch.offline_runs(table(KV)))


def _sweep(rows):
    d = pd.DataFrame(rows, columns=["batch_size", "throughput_tok_s", "variant"])
    return d.assign(model="m", framework="vllm", gpu="", dtype="bf16", has_result=True, conflict=False, latency_s=1.0)


def test_runs_with_the_same_settings_share_a_series_and_gain_per_added_sequence():
    mg = batch.marginal_gain(_sweep([(1, 100.0, ""), (4, 340.0, "")]))
    assert mg["gain_tok_s_per_seq"].tolist()[1] == 80.0


def test_a_repeated_batch_in_one_series_is_no_step_never_a_division_by_zero():
    mg = batch.marginal_gain(_sweep([(10, 500.0, ""), (10, 340.0, ""), (20, 600.0, "")]))
    gains = mg["gain_tok_s_per_seq"].tolist()
    assert math.isnan(gains[1]) and not np.isinf(mg["gain_tok_s_per_seq"]).any()
    assert "inf" not in show.gain_sentence(mg)


def test_speculative_decoding_is_said_with_what_it_does_to_weight_reads():
    runs = batch.offline_runs(table(MTP))
    c = batch_claims.speculative(runs)
    assert c.status == "shown" and c.evidence["method"] == "MTP" and c.evidence["tokens_per_step"] is None
    with_al = runs.assign(tokens_per_step=2.5)
    assert batch_claims.speculative(with_al).evidence["tokens_per_step"] == 2.5
    assert batch_claims.speculative(batch.offline_runs(table(LFM))).status == "withheld"
    assert (
        c.rule == "a run whose output states a speculative-decoding method (or an acceptance length above 1) is named"
    )


def test_an_acceptance_length_is_the_tokens_a_step_yields_only_from_one_up():
    spec = ("spec_decode_acceptance_length", "mean")
    assert batch._speculative({"speculative": "MTP"}, {spec: 2.5}) == ("MTP", 2.5)
    assert batch._speculative({}, {spec: 1.6}) == ("speculative decoding", 1.6)  # printed, method unnamed
    assert batch._speculative({}, {}) == (None, 1.0)  # no speculative decoding: one token a step
    # a step yields at least the token it decodes: a printed 0 counts nothing, the tokens a step are unknown
    method, per_step = batch._speculative({"speculative": "MTP"}, {spec: 0.0})
    assert method == "MTP" and math.isnan(per_step)


def test_no_device_is_assumed_when_neither_the_output_nor_gpu_names_one():
    assert roofline.choose("", []) is None
    assert roofline.choose("", ["A100 80GB"]).source == "detected"
    given = roofline.choose("", [], 2000.0, 0.0)
    assert (given.source, given.total_bandwidth_gb_s) == ("parameter", 2000.0)
    words = show.device_sentence(None, {"m": 8.0}, {"m": "table"})
    assert "A100" not in words and "none is assumed" in words and "no share of a peak is given" in words
    pts = batch.offline_points(batch.offline_runs(table(LFM)), {"LiquidAI/LFM2.5-350M": 0.35}, None)
    assert pts[
        "compute_fraction"
    ].isna().all() and "no device the hardware table knows is named" in show.offline_sentence(pts, None)


def test_a_run_with_more_in_flight_than_its_cap_is_flagged_and_one_within_is_not():
    mtp1 = batch.offline_runs(table(FIX / "trtllm-bench" / "dsv32_blog_b200_max_throughput_tp8_ep8_mtp1.md"))
    checked = batch.over_cap(mtp1)
    assert checked["in_flight"].iat[0] == pytest.approx(8.4162 * 120.3257013)  # 1,013 against a cap of 256
    assert checked["implied_requests"].iat[0] == pytest.approx(8.4162 * 365.0091921)  # 3,072 for 768 sent
    c = batch_claims.over_cap(checked)
    assert c.status == "shown" and c.evidence["cap"] == 256.0 and c.evidence["sent"] == 768.0
    within = batch_claims.over_cap(batch.over_cap(batch.offline_runs(table(MTP))))  # concurrency 1
    assert within.status == "withheld" and within.applicable
    assert not batch_claims.over_cap(batch.over_cap(batch.offline_runs(table(LFM)))).applicable  # no cap printed


def test_the_over_cap_claim_keeps_its_id():
    checked = batch.over_cap(
        batch.offline_runs(table(FIX / "trtllm-bench" / "dsv32_blog_b200_max_throughput_tp8_ep8_mtp1.md"))
    )
    assert batch_claims.over_cap(checked).id == "over_cap"


def test_a_mixture_of_experts_is_sized_by_its_total_and_its_active_parameters_named():
    """Mixtral 8x7B is 46.7 B parameters, 12.9 B active per token (data/models.csv): the page says both
    and which the roofline uses; a dense model keeps one figure."""
    mix = batch.model_size("mixtral-8x7b", {})
    assert mix == (12.9, "table") and batch.moe_total("mixtral-8x7b", mix[1]) == 46.7
    words = show.device_sentence(None, {"mixtral-8x7b": 12.9}, {"mixtral-8x7b": "table"}, {"mixtral-8x7b": 46.7})
    assert "46.70 B parameters in all, 12.90 B of them active per token" in words
    assert "mixtral-8x7b: 12.90 B parameters" not in words
    # the other way: a dense model (and a size the output printed) has no second figure
    assert batch.moe_total("llama2-70b", batch.model_size("llama2-70b", {})[1]) is None
    assert batch.moe_total("mixtral-8x7b", "printed") is None
    dense = show.device_sentence(None, {"llama2-70b": 68.98}, {"llama2-70b": "table"}, {"llama2-70b": None})
    assert "llama2-70b: 68.98 B parameters (" in dense and "active" not in dense


def test_a_model_named_only_in_words_no_table_row_fits_is_unsized_not_unnamed():
    # the MI100 thread (Said-Akbar/triton-gcn5#3): `llama 8b` and `Qwen 7B` in prose, neither one table row
    words = [["llama 8b", 18, "words"], ["Qwen 7B", 33, "words"]]
    said = show.device_sentence(None, {}, {}, untied=words)
    assert "names no model this page can size (`llama 8b` (line 18) and `Qwen 7B` (line 33)" in said
    assert "names no model," not in said
    # the other way: nothing named at all keeps "names no model"
    assert "The output names no model, so its size is unknown" in show.device_sentence(None, {}, {})


def test_a_conflict_of_runs_that_name_no_gpu_names_none():
    df = pd.DataFrame(
        {
            "tool": ["hf-batch-sweep"] * 2,
            "source": ["a.md", "b.md"],
            "line": [3, 4],
            "model": ["m", "m"],
            "framework": ["hf", "hf"],
            "gpu": [None, None],
            "dtype": ["bf16", "bf16"],
            "batch_size": [2, 2],
            "metric": ["throughput", "throughput"],
            "statistic": ["value"] * 2,
            "value": [10.0, 12.0],
        }
    )
    conf = batch.conflicts(df).iloc[0]
    assert (conf["gpu"], conf["values"], conf["lines"]) == ("", [10.0, 12.0], [3, 4])


def test_a_setting_printed_as_none_is_no_setting():
    # vLLM's Namespace prints an unset --quantization as None: no variant of the run
    runs = batch.offline_runs(table(LFM).assign(quantization="None", kv_cache_dtype="None"))
    assert runs["variant"].tolist() == [""] and runs["precision"].tolist() == ["bf16"]
