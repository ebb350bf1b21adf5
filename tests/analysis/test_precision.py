"""One answer for a run's weight precision: the output, then the model's name, then the model table."""

import math

import pandas as pd
import pytest

from benchbook import hardware
from benchbook.analysis import bandwidth, batch, precision, serving


def test_the_output_decides_where_it_states_a_quantization():
    w = precision.weights("meta-llama/Llama-3.1-8B", quantization="fp8", dtype="bfloat16")
    assert (w.precision, w.bytes_per_weight, w.source) == ("fp8", 1.0, "output")


def test_the_name_tag_decides_where_the_output_states_none():
    for name, prec, nbytes in [
        ("RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic", "fp8", 1.0),
        ("Qwen/Qwen2.5-7B-Instruct-AWQ", "int4", 0.5),
        ("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4", "int4", 0.5),
        ("neuralmagic/Meta-Llama-3.1-8B-Instruct-quantized.w4a16", "int4 weight-only", 0.5),
        ("neuralmagic/Meta-Llama-3.1-8B-Instruct-quantized.w8a8", "int8", 1.0),
        ("nvidia/DeepSeek-R1-NVFP4", "fp4", 0.5),
        ("unsloth/llama-3-8b-bnb-4bit", "int4", 0.5),
        ("llama-2-7b.Q4_K_M.gguf", "int4", 0.5),
        ("Llama-3-8B-Instruct-W4A8KV4", "int4", 0.5),  # QServe: 4-bit weights, 8-bit activations, 4-bit KV
    ]:
        w = precision.weights(name)
        assert (w.precision, w.bytes_per_weight, w.source) == (prec, nbytes, "name"), name


def test_a_tag_inside_a_longer_word_is_not_one():
    assert precision.tagged("fp80_sut") is None and precision.tagged("openai/gpt-oss-20b") is None
    assert precision.tagged("w4a8kvx") is None


def test_the_name_tag_beats_the_dtype_a_quantized_checkpoint_keeps_its_weights():
    w = precision.weights("deepseek-ai/DeepSeek-R1-NVFP4", dtype="bfloat16")
    assert (w.precision, w.source) == ("fp4", "name")


def test_the_model_table_decides_where_the_output_and_the_name_say_nothing():
    w = precision.weights("deepseek-ai/DeepSeek-V3")
    assert (w.precision, w.bytes_per_weight, w.source) == ("fp8", 1.0, "checkpoint")
    assert "config.json" in w.detail and not w.assumed
    assert precision.weights("moonshotai/Kimi-K2-Instruct").precision == "fp8"


def test_a_quantized_checkpoint_keeps_its_weights_under_the_output_dtype():
    # vLLM's --dtype is the activations' dtype for a checkpoint with a quantization_config
    w = precision.weights("deepseek-ai/DeepSeek-R1", dtype="bfloat16")
    assert (w.precision, w.source) == ("fp8", "checkpoint")


def test_the_output_dtype_overrides_the_table_of_an_unquantized_checkpoint():
    assert precision.weights("meta-llama/Llama-3.1-8B").source == "checkpoint"  # the table's bf16
    w = precision.weights("meta-llama/Llama-3.1-8B", dtype="float32")
    assert (w.precision, w.bytes_per_weight, w.source) == ("fp32", 4.0, "output")


def test_gpt_oss_reads_its_mxfp4_experts_and_bf16_rest_per_active_weight():
    w = precision.weights("openai/gpt-oss-20b")
    assert w.source == "checkpoint" and w.precision.startswith("mxfp4 experts")
    # gpt-oss model card, Table 1: 19.12B MLP, 4 of 32 experts per token, 3.61B active
    experts = 19.12 * 4 / 32
    assert w.bytes_per_weight == pytest.approx((experts * 4.25 / 8 + (3.61 - experts) * 2) / 3.61, abs=5e-4)
    big = precision.weights("openai/gpt-oss-120b")
    experts = 114.71 * 4 / 128
    assert big.bytes_per_weight == pytest.approx((experts * 4.25 / 8 + (5.13 - experts) * 2) / 5.13, abs=5e-4)


def test_a_mix_whose_bytes_the_table_does_not_give_has_none():
    w = precision.weights("moonshotai/Kimi-K2-Thinking")
    assert w.source == "checkpoint" and w.precision.startswith("int4") and not w.known and not w.assumed


def test_nothing_said_is_assumed_bf16_or_not_stated_for_the_tools_that_quantize():
    assert precision.weights("Qwen/Qwen2.5-7B-Instruct").assumed
    w = precision.weights("deepseek-ai/DeepSeek-R1", assume=False)  # an MLPerf SUT may run it in fp4
    assert (w.precision, w.source) == (None, "not stated") and not w.known


def test_a_quantization_of_no_width_is_not_stated_and_the_kv_cache_dtype_is_never_read():
    w = precision.weights("org/some-model", quantization="compressed-tensors", dtype="bfloat16")
    assert (w.precision, w.source) == (None, "not stated")
    r = pd.DataFrame(dict(tool=["vllm-bench-serve"], metadata=["kv_cache_dtype=fp8"]))
    assert serving.weights("Qwen/Qwen2.5-7B-Instruct", r).assumed


def test_the_serving_batch_and_bandwidth_chapters_read_one_answer():
    model, meta = "deepseek-ai/DeepSeek-V3", "dtype=bfloat16"
    r = pd.DataFrame(dict(tool=["vllm-bench-serve"], metadata=[meta]))
    assert serving.weight_bytes(model, r) == (1.0, False)
    assert batch.run_precision(model, None, "bfloat16")["precision"] == "fp8"
    runs = pd.DataFrame(
        dict(
            tool="vllm-bench-offline",
            benchmark="latency",
            model=[model],
            batch_size=1.0,
            input_len=32.0,
            output_len=128.0,
            tensor_parallel=1.0,
            dtype="auto",
            quantization=None,
            metric="latency",
            statistic="mean",
            value=2.0,
            line=1,
        )
    )
    lat = bandwidth.latency_runs(runs)
    assert lat["why_left_out"].tolist() == [""]
    pts = bandwidth.latency_points(lat, "H100-SXM5-80GB")
    assert pts["bytes_per_token"].iat[0] == pytest.approx(37e9)  # 37B active x 1 byte, not bf16's 2
    assert "assumed" not in pts["bytes_source"].iat[0]


def test_the_model_table_refuses_a_checkpoint_precision_without_its_source(tmp_path):
    table = hardware.model_table()
    table.loc[0, "checkpoint_precision"] = "fp8"
    table.loc[0, "precision_source"] = math.nan
    path = tmp_path / "models.csv"
    table.to_csv(path, index=False)
    with pytest.raises(ValueError, match="checkpoint_precision"):
        hardware.model_table(path)


def test_a_mix_has_no_single_compute_peak_and_its_batch_sentence_says_why():
    from benchbook.analysis import roofline
    from benchbook.presentation import batch as show

    assert precision.peak_precision("fp8") == "fp8" and precision.peak_precision("int8 weight-only") is None
    assert precision.peak_precision("mxfp4 experts, bf16 rest") is None
    model = "openai/gpt-oss-120b"
    run = dict(source="s", run="r", tool="vllm-bench-offline", benchmark="throughput", model=model, batch_size=math.nan)
    run |= dict(output_len=128.0, output_tok_s=5000.0, total_tok_s=10000.0, latency_s=math.nan, max_batch_size=math.nan)
    run |= dict(variant="", speculative=None, tokens_per_step=1.0, requests=1000.0, request_rate=5.0)
    pk = roofline.choose("H100-SXM5-80GB", [])
    pts = batch.offline_points(pd.DataFrame([run | batch.run_precision(model)]), {model: 5.13}, pk)
    assert pts["weight_bytes_per_param"].iat[0] == pytest.approx(0.974) and math.isnan(pts["compute_fraction"].iat[0])
    text = show.offline_sentence(pts, pk)
    assert "mxfp4 experts, bf16 rest" in text and "precision of its matmuls unstated" in text and "assumed" not in text


def test_the_serving_roofline_sets_a_quantized_checkpoints_compute_against_its_precisions_peak():
    from benchbook.analysis.roofline import Peaks

    pk = Peaks("X", 1000.0, {"bf16": 500.0, "fp8": 1000.0, "fp4": 2000.0}, "parameter")
    lit = pd.DataFrame(dict(run=["a"], in_flight=[8.0], output_throughput=[800.0], total_token_throughput=[1600.0]))
    assert serving.decode_roofline(lit, 1.0, 1.0, pk, "fp8")["peak_tflops"].iat[0] == 1000.0
    # AWQ/GPTQ int4 weights are read at half a byte but multiplied in the activations' dtype, not fp4
    assert serving.decode_roofline(lit, 1.0, 0.5, pk, "int4")["peak_tflops"].iat[0] == 500.0
    assert serving.decode_roofline(lit, 1.0, 0.5, pk)["peak_tflops"].iat[0] == 2000.0  # no label: read from bytes


def test_the_serving_roofline_reads_one_byte_a_weight_as_fp8_where_no_precision_is_named():
    from benchbook.analysis.roofline import Peaks

    pk = Peaks("X", 1000.0, {"bf16": 500.0, "fp8": 1000.0, "fp4": 2000.0}, "parameter")
    lit = pd.DataFrame(dict(run=["a"], in_flight=[8.0], output_throughput=[800.0], total_token_throughput=[1600.0]))
    row = serving.decode_roofline(lit, 1.0, 1.0, pk).iloc[0]
    assert (row["precision"], row["peak_tflops"]) == ("fp8", 1000.0)


def test_a_tag_the_rest_of_the_file_gives_the_weights_is_read_after_the_models_own_name(tmp_path):
    f = tmp_path / "run.md"
    f.write_text(
        "Using configuration from E=256,N=384,device_name=NVIDIA_H100,dtype=int4_w4a16.json for MoE layer.\n"
        "trtllm-bench --model_path /models/DeepSeek-R1-FP4 throughput\n"
        "dtype: bfloat16\n",
        encoding="utf-8",
    )
    (stated,) = precision.stated_names([f]).values()
    # bf16 may be the activations' dtype: it comes after every quantized name, read only in place of an assumption
    assert set(stated[:2]) == {"int4_w4a16", "/models/DeepSeek-R1-FP4"} and stated[2:] == ("bfloat16",)
    w = precision.weights("deepseek-ai/DeepSeek-R1", stated=("/models/DeepSeek-R1-FP4",), assume=False)
    assert (w.precision, w.source) == ("fp4", "file")
    # the other way: the model's own name and a printed quantization rank above what the file says elsewhere
    assert precision.weights("org/Model-AWQ", stated=("fp8",)).source == "name"
    assert precision.weights("m", quantization="fp8", stated=("int4_w4a16",)).precision == "fp8"


def test_a_dtype_of_no_known_width_is_stated_with_no_bytes():
    w = precision.weights("org/some-model", dtype="float7")
    assert (w.precision, w.source, w.detail) == (None, "not stated", "dtype float7") and math.isnan(w.bytes_per_weight)
    assert not w.known


def test_a_dtype_the_file_states_replaces_the_bf16_assumption_but_never_a_quantized_name():
    # a serve command's `--dtype bfloat16` for a model the table does not know (stop 40, Qwen3-Omni on NPUs)
    w = precision.weights("Qwen/Qwen3-Omni-30B-A3B-Thinking", stated=("bfloat16",))
    assert (w.precision, w.source, w.detail) == ("bf16", "file", "bfloat16")
    w = precision.weights("some/unknown-model", stated=("float16",))
    assert (w.precision, w.bytes_per_weight, w.source) == ("fp16", 2.0, "file")
    # the other way: a quantized name anywhere in the file outranks it, whatever its order
    w = precision.weights("some/unknown-model", stated=("bfloat16", "org/model-FP8"))
    assert (w.precision, w.source) == ("fp8", "file")
    assert precision.weights("some/unknown-model").source == "assumed"  # nothing stated: still assumed


def test_the_weights_a_server_launch_loads_are_the_runs_not_the_name_its_client_requests(tmp_path):
    # stop 46 (llama.cpp PR #19493): vllm bench serve asks for `Qwen/Qwen3.5-2B` from a llama-server that
    # loads a 4-bit GGUF, run by its path; the served file's tag is the weights' precision
    f = tmp_path / "run.md"
    f.write_text(
        "`vllm bench serve --model Qwen/Qwen3.5-2B --port 9876 --num-prompts 96 --max-concurrency 1`\n"
        "`./bin/llama-server -m ../models/Qwen3.5-2B-UD-Q4_K_XL.gguf --port 9876 -ngl 999`\n",
        encoding="utf-8",
    )
    (stated,) = precision.stated_names([f]).values()
    assert stated == ("Qwen3.5-2B-UD-Q4_K_XL.gguf",)
    assert precision.weights("Qwen/Qwen3.5-2B", stated=stated).precision == "int4"
    # the other way: two models with no server launch among them (downloads side by side) give no one tag
    f.write_text(
        "hf download Qwen/Qwen3-8B\nhf download Qwen/Qwen3-8B-AWQ\n"
        "vllm bench serve --model Qwen/Qwen3-8B --num-prompts 10\n",
        encoding="utf-8",
    )
    (stated,) = precision.stated_names([f]).values()
    assert stated == ()


def test_a_quantization_or_dtype_printed_as_null_is_not_stated():
    """A JSON output's `null` (vLLM's `"quantization": null`) states nothing: the weights are assumed."""
    w = precision.weights("my-org/house-model", quantization="null", dtype="null")
    assert (w.precision, w.source) == ("bf16", "assumed")
    # the other way: a dtype it prints decides
    assert precision.weights("my-org/house-model", quantization="null", dtype="float16").source == "output"


def test_a_wxay_scheme_stores_weights_of_x_bits_whatever_the_activations():
    # stop 47 (vllm-ascend PR #12580): Ascend msit's W4A4 checkpoint served as `qwen3-32b-w4a4`
    for name, prec in [("qwen3-32b-w4a4", "int4"), ("vllm-ascend/Qwen3-32B-W4A4", "int4"), ("m-W8A8", "int8")]:
        w = precision.weights(name)
        assert (w.precision, w.source) == (prec, "name"), name
    # the other way: inside a longer word it is no tag, and a W4A16 stays weight-only
    assert precision.tagged("w4a4x") is None
    assert precision.weights("m-w4a16").precision == "int4 weight-only"


def test_a_dtype_a_command_sets_for_its_own_model_is_not_another_models(tmp_path):
    # stop 47 (vllm-ascend's benchmark guide): `--dtype bfloat16` on the Qwen2.5-VL server's command is not
    # the Qwen3-8B throughput run's
    f = tmp_path / "run.md"
    f.write_text(
        "vllm bench throughput --model Qwen/Qwen3-8B --dataset-name random --input-len 128 --output-len 128\n"
        "vllm serve Qwen/Qwen2.5-VL-7B-Instruct --dtype bfloat16 --limit-mm-per-prompt '{\"image\": 1}'\n",
        encoding="utf-8",
    )
    (stated,) = precision.stated_names([f]).values()
    w = precision.weights("Qwen/Qwen3-8B", stated=stated)
    assert (w.precision, w.source) == ("bf16", "assumed")
    # the other way: a run of the command's own model, or of a model not known, reads it
    w = precision.weights("Qwen/Qwen2.5-VL-7B-Instruct", stated=stated)
    assert (w.precision, w.source) == ("bf16", "file")
    assert precision.weights(None, stated=stated).source == "file"


def test_a_clients_tokenizer_names_the_checkpoint_its_alias_stands_for(tmp_path):
    # stop 47 (KubeAI's L4 benchmark): `--model` is the server's alias, `--tokenizer` the FP8 checkpoint
    f = tmp_path / "run.md"
    f.write_text(
        "python3 benchmark_serving.py --backend openai --model meta-llama-3.2-11b-vision-instruct \\\n"
        "    --seed 12345 --tokenizer neuralmagic/Llama-3.2-11B-Vision-Instruct-FP8-dynamic\n",
        encoding="utf-8",
    )
    (stated,) = precision.stated_names([f]).values()
    w = precision.weights("meta-llama-3.2-11b-vision-instruct", stated=stated)
    assert (w.precision, w.source) == ("fp8", "file")
    # the other way: where a server launch names the weights, the client's tokenizer is not read
    f.write_text(
        "vllm serve my-org/Model-7B --served-model-name m\n"
        "vllm bench serve --model m --tokenizer neuralmagic/Model-7B-FP8-dynamic\n",
        encoding="utf-8",
    )
    (stated,) = precision.stated_names([f]).values()
    assert not any("FP8" in s for s in stated)


def test_sglangs_w4afp8_is_int4_experts_and_fp8_rest_with_no_bytes_per_weight():
    # SGLang's W4AFp8 ("MIXED_PRECISION"): int4 MoE experts, fp8 linear layers; the share per token is not given
    w = precision.weights("DeepSeek-R1", names=["DeepSeek-R1-W4AFP8"])
    assert w.precision == "int4 experts, fp8 rest" and not w.known
    # the other way: a WxAy scheme of one width is that width
    assert precision.weights("m", names=["Llama-3-8B-W4A8"]).bytes_per_weight == 0.5


def test_a_dtype_the_file_states_is_read_where_the_tool_assumes_none_unless_the_checkpoint_is_quantized():
    # a trtllm-bench write-up's `Precision: float16` (the tool's report would print it; nothing is assumed)
    w = precision.weights("some/unknown-model", stated=("float16",), assume=False)
    assert (w.precision, w.source) == ("fp16", "file")
    # the other way: the model table's fp8 checkpoint runs fp8 weights under a bf16 activations' dtype
    w = precision.weights("deepseek-ai/DeepSeek-R1", stated=("bfloat16",), assume=False)
    assert (w.precision, w.source) == (None, "not stated")
