"""Offline throughput (vLLM bench throughput/latency, MLPerf Offline) in batch_saturation: one point per
run, a batch only where the run set one, the compute against a named device's peak, no knee from one point."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import batch, precision, roofline
from benchbook.claims import batch as batch_claims
from benchbook.presentation import batch as show

VLLM = config.FIXTURES_DIR / "vllm-bench-offline" / "young_tw_llama31_70b_rocm.md"
OFFLINE = config.FIXTURES_DIR / "mlperf-loadgen" / "amd_mi300x_llama2_70b_offline_summary.txt"
SERVER = config.FIXTURES_DIR / "mlperf-loadgen" / "amd_mi300x_llama2_70b_server_summary.txt"
MODEL = "meta-llama/Llama-3.1-70B-Instruct"


def table(path):
    return ingest.read_all([path])[0]


def test_vllm_runs_throughput_and_latency():
    r = batch.offline_runs(table(VLLM)).set_index("benchmark")
    thr, lat = r.loc["throughput"], r.loc["latency"]
    assert (thr["output_tok_s"], thr["total_tok_s"]) == (1369.41, 2735.5)
    assert math.isnan(thr["batch_size"])  # the engine batches as it goes: no batch setting
    assert (lat["batch_size"], lat["output_len"], lat["latency_s"]) == (8, 128, 5.2564156893700105)
    assert lat["output_tok_s"] == 8 * 128 / 5.2564156893700105


def test_mlperf_offline_only():
    r = batch.offline_runs(table(OFFLINE))
    assert list(r["output_tok_s"]) == [23514.8] and r["model"].tolist() == [""]
    assert r["tokens_per_step"].tolist() == [1.0]  # no speculative decoding: one token a step
    assert batch.offline_runs(table(SERVER)).empty  # a Server run is a serving run, not offline throughput


def test_a_server_summary_is_said_to_be_paced_not_to_set_a_batch():
    """A Server summary alone has no offline run: the page says it is paced and read elsewhere, never that
    every run of it sets a batch size; an input with only batch sweeps keeps that sentence."""
    none = batch.offline_points(batch.offline_runs(table(OFFLINE)).iloc[0:0], {}, None)
    assert batch.paced_scenarios(table(SERVER)) == ["Server"] and batch.paced_scenarios(table(OFFLINE)) == []
    server = show.offline_sentence(none, None, batch.paced_scenarios(table(SERVER)))
    assert "Server run sends queries over time, at a target rate" in server and "sets a batch size" not in server
    assert "sets a batch size; none stands alone" in show.offline_sentence(none, None, [])
    both = table(OFFLINE), table(SERVER)
    mixed = pd.concat(both, ignore_index=True)
    text = show.offline_sentence(
        batch.offline_points(batch.offline_runs(mixed), {}, None), None, batch.paced_scenarios(mixed)
    )
    assert "23,515 output tok/s" in text and "Server run sends queries over time, at a target rate" in text


def test_a_stream_scenario_is_said_to_send_each_query_when_the_last_completes_not_at_a_rate():
    """LoadGen's SingleStream and MultiStream issue the next query only when the last has completed
    (loadgen/test_settings.h): no target rate is said of them, as it is of a Server run."""
    none = batch.offline_points(batch.offline_runs(table(OFFLINE)).iloc[0:0], {}, None)
    multi = table(
        config.FIXTURES_DIR / "mlperf-loadgen" / "amitashnanda_v51_m1pro_onnxruntime_resnet50_multistream_summary.txt"
    )
    assert batch.paced_scenarios(multi) == ["MultiStream"]
    text = show.offline_sentence(none, None, ["MultiStream"])
    assert "MultiStream run sends queries over time, each when the last has completed" in text
    assert "target rate" not in text
    both = show.offline_sentence(none, None, ["Server", "SingleStream"])
    assert "at a target rate or each when the last has completed" in both


def test_latency_run_is_one_batch_point_with_its_new_tokens():
    sw = batch.sweep(table(VLLM))
    assert len(sw) == 1 and sw["batch_size"].iat[0] == 8 and sw["new_tokens"].iat[0] == 128
    assert sw["per_sequence_ms_per_token"].iat[0] == pytest.approx(5.2564156893700105 / 128 * 1000)
    pk = roofline.choose("MI300X", [], 0.0, 0.0)
    rl = batch.step_roofline(sw, {MODEL: 70.55}, pk)
    assert rl["step_s"].iat[0] == pytest.approx(5.2564156893700105 / 128)  # not / 100, the bigcode tool's
    knee = batch.knee(sw).iloc[0]
    assert knee["n_points"] == 1 and not batch_claims.knee(knee).shown  # one batch setting: no knee


def test_hf_sweep_keeps_its_100_new_tokens():
    hf = config.FIXTURES_DIR / "hf-batch-sweep" / "readme_0253839c_bloom.md"
    sw = batch.sweep(table(hf))
    assert set(sw["new_tokens"]) == {100.0} and "vllm" not in set(sw["framework"])


def test_compute_fraction_only_against_a_named_device():
    r = batch.offline_runs(table(VLLM))
    named = roofline.choose("MI300X", [], 0.0, 0.0)
    pts = batch.offline_points(r, {MODEL: 70.55}, named)
    assert len(pts) == 1 and pts["tokens_counted"].iat[0] == "prompt + output tokens"
    assert pts["achieved_tflops"].iat[0] == pytest.approx(2 * 70.55e9 * 2735.5 / 1e12)
    assert pts["compute_fraction"].iat[0] == pytest.approx(pts["achieved_tflops"].iat[0] / named.peak_tflops("bf16"))
    unnamed = batch.offline_points(r, {MODEL: 70.55}, None)
    assert math.isnan(unnamed["compute_fraction"].iat[0])
    assert "no device the hardware table knows is named" in show.offline_sentence(unnamed, None)


def test_beyond_one_device_is_not_a_result():
    """MLPerf's 8-GPU system against one GPU's peak: said as not a result, not as a fraction."""
    r = batch.offline_runs(table(OFFLINE))
    pk = roofline.choose("MI300X", [], 0.0, 0.0)
    pts = batch.offline_points(r, {"": 68.98}, pk)
    # the summary states no precision: no fraction of one peak, but beyond even the highest (fp8) one
    assert math.isnan(pts["compute_fraction"].iat[0]) and pts["beyond_any_peak"].iat[0]
    assert pts["highest_peak_tflops"].iat[0] == max(pk.peak_tflops(x) for x in pk.tflops)
    assert pts["tokens_counted"].iat[0].startswith("output tokens only")
    assert "not a result" in show.offline_sentence(pts, pk)
    slower = batch.offline_points(r.assign(output_tok_s=100.0), {"": 68.98}, pk)
    assert not slower["beyond_any_peak"].iat[0] and "not a result" not in show.offline_sentence(slower, pk)
    unknown = batch.offline_points(r, {}, pk)  # no model size: no compute at all
    assert "pass params_b" in show.offline_sentence(unknown, pk)


def test_metadata_is_split_at_semicolons_only():
    got = batch._metadata("quantization=FP8; max_batch_size=4096; scheduling_policy=Guaranteed No Evict")
    assert got == {"quantization": "FP8", "max_batch_size": "4096", "scheduling_policy": "Guaranteed No Evict"}
    assert batch._metadata(float("nan")) == {}


VLLM_MODEL = "meta-llama/Llama-3.1-70B-Instruct"


TRTLLM = config.FIXTURES_DIR / "trtllm-bench" / "trtllm_bench_0.17_throughput_engine.txt"


VLLM_LATENCY_S = 5.2564156893700105  # `Avg latency` of the fixture's `bench latency` run (batch 8, 128 new tokens)


MLPERF = config.FIXTURES_DIR / "mlperf-loadgen" / "amd_mi300x_llama2_70b_offline_summary.txt"


def test_offline_runs_of_each_tool_from_the_fixtures():
    runs = batch.offline_runs(ingest.read_all([VLLM, MLPERF, TRTLLM])[0])
    assert sorted(runs["tool"]) == ["mlperf-loadgen", "trtllm-bench", "vllm-bench-offline", "vllm-bench-offline"]
    lat = runs[runs["benchmark"] == "latency"].iloc[0]
    assert lat["model"] == VLLM_MODEL and lat["batch_size"] == 8 and lat["output_len"] == 128
    assert lat["output_tok_s"] == pytest.approx(8 * 128 / VLLM_LATENCY_S)
    thr = runs[(runs["tool"] == "vllm-bench-offline") & (runs["benchmark"] == "throughput")].iloc[0]
    assert thr["model"] == VLLM_MODEL and thr["output_tok_s"] == 1369.41
    ml = runs[runs["tool"] == "mlperf-loadgen"].iloc[0]
    assert ml["benchmark"] == "Offline" and ml["output_tok_s"] == 23514.8  # "Tokens per second: 23514.8"
    trt = runs[runs["tool"] == "trtllm-bench"].iloc[0]
    assert trt["max_batch_size"] == 4096 and trt["precision"] == "fp8"  # Max Runtime Batch Size, Quantization


def test_offline_sweep_point_of_the_latency_run():
    w = batch.offline_sweep(batch.offline_runs(ingest.read(VLLM)))
    assert len(w) == 1
    p = w.iloc[0]
    assert p["batch_size"] == 8 and p["framework"] == "vllm"
    assert p["tool_ms_per_token"] == pytest.approx(1000.0 * VLLM_LATENCY_S / (8 * 128))  # 1000 / aggregate tok/s
    assert p["per_sequence_ms_per_token"] == pytest.approx(VLLM_LATENCY_S / 128 * 1000.0)


def test_rows_of_keeps_one_series_measured_rows_only():
    sw = pd.DataFrame(
        {
            "model": ["m", "m", "m", "m"],
            "framework": ["a", "a", "a", "b"],
            "gpu": ["g"] * 4,
            "dtype": ["fp16"] * 4,
            "batch_size": [4, 1, 8, 2],
            "has_result": [True, True, False, True],
        }
    )
    assert batch.rows_of(sw, ("m", "a", "g", "fp16"))["batch_size"].tolist() == [1, 4]
    assert batch.rows_of(sw, ("m", "b", "g", "fp16"))["batch_size"].tolist() == [2]
    assert batch.rows_of(sw, None).empty


def test_mlperf_precision_is_the_one_its_names_state_else_not_stated():
    df = table(OFFLINE)
    assert batch.offline_runs(df)["precision"].isna().all()  # PySUT, a file name without one: nothing assumed
    text = show.offline_sentence(batch.offline_points(batch.offline_runs(df), {}, None), None)
    assert "precision not stated" in text and "bf16" not in text
    named = batch.offline_runs(df.assign(sut="llama2-70b-fp8-sut"))
    assert named["precision"].tolist() == ["fp8"]
    assert precision.tagged("x", "results_Llama_NVFP4_offline.txt")[0] == "fp4"
    assert precision.tagged("PySUT", "mlperf_log_summary.txt") is None
    assert precision.tagged("fp80_sut") is None  # a marker inside a longer token is not one


def test_a_run_states_its_requests_and_request_rate_where_printed():
    runs = batch.offline_runs(ingest.read_all([VLLM, OFFLINE])[0])
    thr = runs[runs["benchmark"] == "throughput"].iloc[0]
    assert (thr["requests"], thr["request_rate"]) == (1000, 5.35)  # --num-prompts 1000; "5.35 requests/s"
    lat = runs[runs["benchmark"] == "latency"].iloc[0]
    assert math.isnan(lat["requests"]) and math.isnan(lat["request_rate"])
    ml = runs[runs["tool"] == "mlperf-loadgen"].iloc[0]
    # "Samples per second: 80.15" over the 919.87 s query: 73,728 samples, 3 whole copies of the 24,576 loaded
    # (`performance_sample_count`), not the 52,800 set; LoadGen concatenates whole permutations (stop 60, cm)
    assert ml["requests"] == 73728 and ml["request_rate"] == 80.15
    text = show.offline_sentence(batch.offline_points(runs, {}, None), None)
    assert "1,000 requests at 5.35 req/s" in text and "80.15 req/s" in text


# --- what each offline run carries (mutation sample, seed 2026) ------------------------------------------------

STREAMING = config.FIXTURES_DIR / "trtllm-bench" / "trtllm_bench_0.21_streaming_blog.txt"


def test_a_trtllm_run_keeps_its_mean_output_length_and_request_latency():
    # the fixture prints "Average Output Length (tokens): 128.0000" and "Average request latency (ms): 1093.2284"
    r = batch.offline_runs(table(STREAMING)).iloc[0]
    assert r["output_len"] == 128.0 and r["mean_latency_s"] == pytest.approx(1.0932284)


def test_the_requests_a_run_prints_come_before_those_its_command_asked_for():
    assert batch._requests({("completed", "count"): 17.0, ("completed", "value"): 20.0}, 100) == 17.0
    assert batch._requests({("completed", "value"): 20.0}, 100) == 20.0
    assert batch._requests({}, "100") == 100.0
    assert math.isnan(batch._requests({}, None)) and math.isnan(batch._requests({}, "all"))


def test_a_vllm_runs_variant_names_only_the_settings_it_set():
    assert batch.variant(None, None) == ""
    assert batch.variant("awq", None) == "--quantization awq"
    assert batch.variant(None, "fp8") == "KV cache fp8"
    assert batch.variant("awq", "fp8") == "--quantization awq, KV cache fp8"


def test_the_weights_size_is_the_parameters_at_the_runs_precision():
    """MLPerf Offline named fp8: 70e9 parameters x 1 byte = 70 GB; at bf16 140 GB. Bytes per weight
    the precision lookup gave win; without them the precision's own size is taken."""
    runs = batch.offline_runs(table(OFFLINE).assign(sut="llama2-70b-fp8-sut"))
    pts = batch.offline_points(runs.assign(model="m"), {"m": 70.0}, None)
    assert pts["weight_gb"].tolist() == [pytest.approx(70.0)]
    bf16 = runs.assign(model="m", precision="bf16", bytes_per_weight=float("nan"))
    assert batch.offline_points(bf16, {"m": 70.0}, None)["weight_gb"].tolist() == [pytest.approx(140.0)]
    assert batch.offline_points(bf16.assign(bytes_per_weight=0.5), {"m": 70.0}, None)["weight_gb"].tolist() == [
        pytest.approx(35.0)
    ]


def test_the_device_of_a_table_without_a_gpu_column_is_the_one_the_file_names_counted_per_gpu():
    sw = pd.DataFrame({"gpu": pd.Series(dtype=object)})
    pk, found = batch.device("", sw, ["GPU: AMD MI325X *8\n\nvllm bench throughput --model m -tp 1\n"])
    assert (pk.device, pk.count, found.device) == ("MI325X", 1, "MI325X")  # a run's devices are its TP
    # a device the table lacks is named with its line, and no peak is taken from it
    pk, found = batch.device("", sw, ["| item | value |\n|---|---|\n| GPU | NVIDIA GeForce RTX 3080 Ti |\n"])
    assert pk is None and roofline.said(found) == {
        "device_unlisted": "NVIDIA GeForce RTX 3080 Ti",
        "device_unlisted_line": 3,
    }
    empty = pd.DataFrame({c: pd.Series(dtype=object) for c in ["model", "framework", "gpu", "dtype", "batch_size"]})
    empty["has_result"] = pd.Series(dtype=bool)
    assert "on NVIDIA GeForce RTX 3080 Ti (line 3)" in show.inputs_sentence("f", empty, named=found)


def test_a_sweeps_own_gpu_column_ranks_above_a_device_the_rest_of_the_file_names():
    sw = pd.DataFrame({"gpu": ["L40S"]})
    pk, _ = batch.device("", sw, ["GPU: AMD MI325X *8\n"])
    assert pk.device == "L40S-48GB"
    # and a sentence that mentions a card is not the run's device
    pk, found = batch.device(
        "", pd.DataFrame({"gpu": pd.Series(dtype=object)}), ["Unlike the RTX 4090 we tried last year.\n"]
    )
    assert pk is None and found.device is None and found.unlisted is None


def test_a_write_up_whose_headings_name_two_machines_places_the_sweep_on_neither():
    """Each part of the file under its own machine's heading: which of them ran the sweep, the file does
    not say, so no peak is taken, not even the first heading's; one such heading alone places it."""
    sw = pd.DataFrame({"gpu": [""]})
    text = "# Results\n\n### FP8 Benchmark on 8xMI300X\n\nrun 1\n\n### FP8 Benchmark on 8xMI325X\n\nrun 2\n"
    pk, found = batch.device("", sw, [text])
    assert pk is None and (found.device, found.several, found.headed) == (None, ("MI300X", "MI325X"), (3, 7))
    pk, found = batch.device("", sw, ["### FP8 Benchmark on 8xMI300X\n\nrun 1\n"])
    assert (pk.device, pk.count, found.device) == ("MI300X", 1, "MI300X")


def test_an_offline_run_that_printed_no_throughput_says_so_in_its_compute_cells_not_model_size():
    """A run of known size that printed no throughput has no compute: its empty cells say why; a run
    that printed one but whose model is unsized keeps "model size unknown"."""
    runs = batch.offline_runs(table(VLLM))
    thr = runs[runs["benchmark"] == "throughput"]
    cut = thr.assign(output_tok_s=math.nan, total_tok_s=math.nan)
    pts = batch.offline_points(pd.concat([cut, thr], ignore_index=True), {MODEL: 70.6}, None)
    why = show.offline_missing(pts)
    none = "no output or total throughput printed"
    assert why.loc[0, "TFLOP/s"] == none and why.loc[0, "of peak"] == none
    unsized = show.offline_missing(batch.offline_points(thr, {}, None))
    assert unsized.loc[0, "TFLOP/s"] == "model size unknown"


def test_a_card_named_in_prose_that_speaks_of_a_device_is_named_as_the_table_lacks_it():
    """单卡 (one card) makes the line speak of a device: its product name (the RTX 4090 D, a part the
    table lacks) is said with its line; the same name in a line that speaks of no device is not read."""
    sw = pd.DataFrame({"gpu": pd.Series(dtype=object)})
    text = "# 对比\n\n在本次测试 （单卡 `RTX4090D 24G` ）中 vLLM 更快\n"
    pk, found = batch.device("", sw, [text])
    assert pk is None and roofline.said(found) == {"device_unlisted": "RTX4090D", "device_unlisted_line": 3}
    pk, found = batch.device("", sw, ["# 对比\n\n在本次测试 （`RTX4090D 24G` ）中 vLLM 更快\n"])
    assert pk is None and roofline.said(found) == {}


def test_a_vllm_throughput_run_spans_the_gpus_of_its_tensor_parallel_size(tmp_path):
    f = tmp_path / "thr.md"
    f.write_text(
        "```sh\nvllm bench throughput --model meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 2 "
        "--input-len 100 --output-len 100 --num-prompts 10\n```\n\n"
        "Throughput: 2.00 requests/s, 400.00 total tokens/s, 200.00 output tokens/s\n"
    )
    runs = batch.offline_runs(ingest.read_all([f], tool="vllm-bench-offline")[0])
    assert runs["devices"].tolist() == [2.0] and runs["output_tok_s"].tolist() == [200.0]


#: An embedding variant of SGLang's block (sgl-project/sglang#9674), rows as the tool prints them
#: (`"{:<40} {:<10}"`): no output or total rate, an input token rate
EMBED_ROWS = [
    ("Backend:", "engine"),
    ("Successful requests:", "1000"),
    ("Benchmark duration (s):", "15.48"),
    ("Total input tokens:", "296523"),
    ("Last generation throughput (tok/s):", "0.00"),
    ("Request throughput (req/s):", "64.60"),
    ("Input token throughput (tok/s):", "19156.40"),
]


def embed_block(rows) -> str:
    body = "".join(f"{k:<40} {v:<10}\n" for k, v in rows)
    return "\n{s:{c}^{n}}\n".format(s=" Offline Throughput Benchmark Result ", n=50, c="=") + body + "=" * 50 + "\n"


def test_an_offline_run_that_prints_only_its_input_token_rate_states_it_not_that_none_is_printed(tmp_path):
    """SGLang's block prints `input_throughput` = input tokens / duration; an embedding variant prints
    no output or total rate: the page gives the prompt rate and says which rates are missing; a block
    with no token rate at all says that."""
    f = tmp_path / "embed.md"
    f.write_text(embed_block(EMBED_ROWS))
    pts = batch.offline_points(batch.offline_runs(table(f)), {}, None)
    text = show.offline_sentence(pts, None)
    assert "19,156 prompt tok/s" in text and "no throughput printed" not in text
    assert show.offline_missing(pts).loc[0, "TFLOP/s"] == "no output or total throughput printed"
    f.write_text(embed_block(EMBED_ROWS[:-1]))
    text = show.offline_sentence(batch.offline_points(batch.offline_runs(table(f)), {}, None), None)
    assert "no token throughput printed" in text and "prompt tok/s" not in text


def test_the_sweep_of_latency_runs_takes_the_dtype_the_rest_of_the_file_states():
    # a 2023 benchmark_latency.py log prints the engine's config line (`dtype=torch.float16`): the sweep's
    # points are fp16, not the bf16 assumed where nothing says
    path = config.FIXTURES_DIR / "vllm-bench-offline" / "llama2_70b_tp2_benchmark_latency_batch_sweep_2023_notes.md"
    df = ingest.read(path)
    stated = precision.stated_names([path])
    w = batch.sweep(df, stated)
    assert set(w["dtype"]) == {"fp16"} and not w["dtype_assumed"].any()
    w = batch.sweep(df)  # nothing stated: bf16, said to be assumed
    assert set(w["dtype"]) == {"bf16"} and w["dtype_assumed"].all()


def test_the_ms_sentence_of_a_vllm_latency_point_says_the_tool_prints_no_msec_per_token():
    p = batch.offline_sweep(batch.offline_runs(ingest.read(VLLM))).iloc[0]
    text = show.ms_sentence(p)
    assert text.startswith('vLLM\'s bench latency prints no "msec/token"') and "tool prints 1000" not in text
    assert "waited 5.26 s for 128 tokens: 41.1 ms per token" in text
    bigcode = show.ms_sentence(p.drop("timed"))  # a bigcode row (no `timed`): the tool's own column
    assert bigcode.startswith('The tool prints 1000 / throughput as "msec/token"')


def test_latency_runs_of_different_output_lengths_are_two_series_not_one_curve():
    # a 2023 batch sweep at 128 new tokens, and one batch-2 run asked for 4000: not a third load of the curve
    path = config.FIXTURES_DIR / "vllm-bench-offline" / "llama2_70b_tp2_benchmark_latency_batch_sweep_2023_notes.md"
    w = batch.offline_sweep(batch.offline_runs(ingest.read(path)))
    by = w.groupby("variant")["batch_size"].apply(list).to_dict()
    assert by == {"--output-len 128": [1, 2], "--output-len 4000": [2]}
    one = batch.offline_sweep(batch.offline_runs(ingest.read(VLLM)))  # one length: no variant added
    assert set(one["variant"]) == {""}


def test_runs_that_carry_no_precision_have_none_not_an_empty_one():
    r = batch.offline_runs(table(VLLM)).drop(columns=["precision"])
    pts = batch.offline_points(r, {MODEL: 70.55}, roofline.choose("MI300X", [], 0.0, 0.0))
    assert pts["precision"].isna().all() and pts["compute_fraction"].isna().all()


def test_a_step_over_two_gpus_in_tensor_parallel_counts_half_its_compute_on_each():
    sw = batch.sweep(table(VLLM)).assign(devices=2.0, split="tensor")
    rl = batch.step_roofline(sw, {MODEL: 70.55}, roofline.choose("MI300X", [], 0.0, 0.0))
    assert rl["achieved_tflops_per_device"].iat[0] == pytest.approx(rl["achieved_tflops"].iat[0] / 2)
