"""vLLM `bench latency` at batch 1 in the bandwidth roofline: rate = output_len / mean latency (a lower bound:
prefill included), bytes per token = active params x bytes per weight of --dtype, the same fraction_of_peak
and bound claims as llama-bench rows; runs at a larger batch, tensor parallel or without a batch size left out."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import bandwidth
from benchbook.claims import bandwidth as claims
from benchbook.presentation import bandwidth as show
from benchbook.presentation import wording

A100_GB_S = 2039.0  # data/hardware.csv, A100-SXM4-80GB


def run(model, latency, *, batch="1", dtype=None, tp=None, out=128):
    opts = f"--model {model} --input-len 32 --output-len {out}" + (f" --batch-size {batch}" if batch else "")
    opts += (f" --dtype {dtype}" if dtype else "") + (f" --tensor-parallel-size {tp}" if tp else "")
    return f"## {model} {batch} {dtype} {tp}\n\n```sh\nvllm bench latency {opts}\n```\n\nAvg latency: {latency} seconds\n\n"


@pytest.fixture
def runs(tmp_path):
    f = tmp_path / "latency.md"
    f.write_text(
        run("meta-llama/Llama-3.1-70B-Instruct", 4.0, dtype="bfloat16")  # 141.1 GB x 32 tok/s = 4,515 GB/s
        + run("meta-llama/Llama-3.1-8B-Instruct", 2.0, dtype="auto")  # 16.06 GB x 64 tok/s = 1,028 GB/s
        + run("meta-llama/Llama-3.1-8B-Instruct", 4.0)  # no --dtype: vLLM's default auto; 514 GB/s
        + run("meta-llama/Llama-3.1-8B-Instruct", 8.0, dtype="float32")  # 32.12 GB x 16 tok/s
        + run("meta-llama/Llama-3.1-8B-Instruct", 2.0, batch="8")
        + run("meta-llama/Llama-3.1-8B-Instruct", 2.0, tp="2")
        + run("meta-llama/Llama-3.1-8B-Instruct", 2.0, batch=None),
        encoding="utf-8",
    )
    return bandwidth.latency_runs(ingest.read_all([f], tool="vllm-bench-offline")[0])


def test_only_single_stream_runs_on_one_gpu_are_placed(runs):
    assert list(runs["why_left_out"] == "") == [True] * 4 + [False] * 3
    why = runs["why_left_out"].tolist()[4:]
    assert why[0].startswith("batch 8") and why[1].startswith("tensor parallel 2") and "not printed" in why[2]
    note = show.latency_note(runs)
    assert note.startswith("4 vLLM bench latency runs at batch 1 are placed") and note.count("is left out") == 3


def test_bytes_rate_and_fraction_known_answers(runs):
    pts = bandwidth.latency_points(runs, "A100-SXM4-80GB")
    assert pts["bytes_per_token"].tolist() == pytest.approx([141.1e9, 16.06e9, 16.06e9, 32.12e9])
    assert pts["rate"].tolist() == [32.0, 64.0, 32.0, 16.0]
    assert pts["file_gib"].isna().all()  # no model file: the bytes come from the parameters
    assert pts["bandwidth_gb_s"].tolist() == pytest.approx([4515.2, 1027.84, 513.92, 513.92])
    assert pts["fraction_of_peak"].tolist() == pytest.approx([x / A100_GB_S for x in (4515.2, 1027.84, 513.92, 513.92)])
    # --dtype auto (printed or vLLM's default) loads the checkpoint's bf16, as the model table says
    assert "bf16: checkpoint" in pts["bytes_source"].iat[1] and "bf16: checkpoint" in pts["bytes_source"].iat[2]
    assert "fp32: output" in pts["bytes_source"].iat[3] and not pts["bytes_source"].str.contains("assumed").any()
    assert bandwidth.label(pts.iloc[0]) == "meta-llama/Llama-3.1-70B-Instruct (vLLM latency)"


def test_claims_both_ways(runs):
    pts = bandwidth.latency_points(runs, "A100-SXM4-80GB")
    frac = [claims.fraction(p, f"bw_{i}") for i, (_, p) in enumerate(pts.iterrows())]
    assert [c.status for c in frac] == ["implausible", "shown", "shown", "shown"]  # 70B: 221 % of an A100
    assert all(c.evidence["rate_lower_bound"] for c in frac)
    assert "lower bound of the decode rate" in wording.word("bandwidth_roofline", frac[1]).text
    assert "tensor-parallel vLLM run" in wording.word("bandwidth_roofline", frac[0]).text
    bound = [claims.bound(p, f"b_{i}", 0.5) for i, (_, p) in enumerate(pts.iterrows())]
    assert [c.status for c in bound[:3]] == ["implausible", "shown", "withheld"]
    assert bound[1].evidence["verdict"] == "memory-bandwidth"  # a lower bound at 50 %: the real share is higher
    assert (
        "lower bound" in wording.word("bandwidth_roofline", claims.bound(pts.iloc[2], "bound_1", 0.5)).reason
    )  # 25 % of a lower bound says nothing of overhead
    measured = pts.iloc[2].drop("rate_kind")  # the same numbers as a measured decode rate: overhead is shown
    c = claims.bound(measured, "b", 0.5)
    assert (c.status, c.evidence["verdict"]) == ("shown", "overhead")


def test_no_device_named_no_fraction(runs):
    pts = bandwidth.latency_points(runs)
    assert pts["peak_source"].eq("unknown").all() and pts["fraction_of_peak"].isna().all()
    assert claims.fraction(pts.iloc[1], "bw").status == "withheld"


def test_lower_bounds_stay_out_of_the_size_trend(runs):
    pts = bandwidth.latency_points(runs, "A100-SXM4-80GB")
    assert claims.size_trend(pts).evidence["xs"] == []


def test_real_fixture_batch_8_is_left_out():
    df = ingest.read_all([config.FIXTURES_DIR / "vllm-bench-offline" / "young_tw_llama31_70b_rocm.md"])[0]
    assert set(df.loc[df["benchmark"] == "throughput", "dtype"]) == {"auto"}  # --dtype auto on its command line
    r = bandwidth.latency_runs(df)
    assert len(r) == 1 and r["why_left_out"].iat[0].startswith("batch 8")
    # an input with no latency run gives the same columns, its line among them
    assert list(bandwidth.latency_runs(df.iloc[0:0]).columns) == list(r.columns) and "line" in r.columns
    assert bandwidth.latency_points(r).empty


def test_a_quantized_run_is_counted_at_its_weights_not_its_dtype():
    """vLLM's own torchao example: an int8 weight-only checkpoint (its name's `int8wo`) at batch 1 is
    8 GB per token, not the 16 GB that `--dtype auto` (bf16) would give."""
    df = ingest.read_all([config.FIXTURES_DIR / "vllm-bench-offline" / "vllm_docs_torchao_int8wo_latency.md"])[0]
    r = bandwidth.latency_runs(df)
    assert r["why_left_out"].tolist() == [""]
    pts = bandwidth.latency_points(r, "A100-SXM4-80GB")
    assert pts["bytes_per_token"].tolist() == [8e9] and "int8 weight-only" in pts["bytes_source"].iat[0]


def test_a_quantization_of_no_known_width_is_left_out(tmp_path):
    f = tmp_path / "q.md"
    f.write_text(run("org/some-model-8B", 2.0).replace("--batch-size 1", "--batch-size 1 --quantization experts_int8x"))
    r = bandwidth.latency_runs(ingest.read_all([f], tool="vllm-bench-offline")[0])
    assert r["why_left_out"].iat[0].startswith("--quantization experts_int8x: no known bytes per weight")


def test_a_run_without_quantization_is_still_placed(tmp_path):
    f = tmp_path / "q.md"
    f.write_text(
        run("meta-llama/Llama-3.1-8B-Instruct", 2.0).replace("--batch-size 1", "--batch-size 1 --quantization None")
    )
    r = bandwidth.latency_runs(ingest.read_all([f], tool="vllm-bench-offline")[0])
    assert r["why_left_out"].tolist() == [""]


def test_about_this_input_names_a_run_read_and_left_out_with_why(runs):
    """A left-out run was read: the input line says so, with its latency and why, instead of saying
    the input holds no generation result."""
    df = ingest.read_all([config.FIXTURES_DIR / "vllm-bench-offline" / "young_tw_llama31_70b_rocm.md"])[0]
    lat = bandwidth.latency_runs(df)
    line = show.input_line("f.md", bandwidth.latency_points(lat, ""), lat)
    assert "(line 35, batch 8, 5.26 s mean latency) was read and is left out" in line
    assert "not one stream" in line and "holds no generation (tg) result" not in line
    placed = bandwidth.latency_points(runs, "A100-SXM4-80GB")
    assert "left out" not in show.input_line("f.md", placed, runs[runs["why_left_out"] == ""])
    assert show.input_line("f.md", placed, runs).count("was read and is left out") == 3


def test_the_input_line_counts_every_generation_result_the_sweep_table_lists_and_the_placed_apart():
    """Two tg results, one set aside by the reduce rule: the line says two, one of them placed, as the
    table below it lists both; with none set aside it says the placed count alone."""
    pts = pd.DataFrame(
        dict(params_b=[671.0], device=["EPYC"], peak_source=["unknown"], peak_gb_s=[float("nan")], rate_kind=["mean"])
    )
    every = pd.DataFrame(dict(kept=[True, False]))
    line = show.input_line("f.md", pts, None, every)
    assert "2 generation results, 1 of them placed under the roofline" in line
    assert "1 of those placed on a device with no known peak" in line
    alone = show.input_line("f.md", pts, None, every.iloc[:1])
    assert "1 generation result;" in alone and "placed under" not in alone and "1 of them on a device" in alone


def test_a_kept_result_with_no_bytes_per_token_is_not_called_placed_under_the_roofline():
    """llama.cpp PR 25860's DeepSeek V4 (an MoE model of unknown active size) on 8 x RTX 3090: the rule keeps
    its tg128 and sets the one at depth aside, but with no bytes per token it has no place under the roofline,
    as the page's bound sentence says; a kept result with its bytes is placed."""
    pts = pd.DataFrame(
        dict(
            params_b=[284.3],
            device=["RTX-3090"],
            peak_source=["detected"],
            peak_gb_s=[936.0],
            rate_kind=["mean"],
            bytes_per_token=[float("nan")],
        )
    )
    every = pd.DataFrame(dict(kept=[True, False], why_dropped=["", "depth > 0"]))
    line = show.input_line("f.md", pts, None, every)
    assert "2 generation results, 1 of them kept and 1 set aside (depth > 0" in line
    assert "the bytes per token of 1 of those kept are unknown" in line and "placed under the roofline" not in line
    # the other way: the same result with its bytes is placed
    sized = show.input_line("f.md", pts.assign(bytes_per_token=[8.2e9]), None, every)
    assert "1 of them placed under the roofline" in sized and "bytes per token of" not in sized


def test_the_input_line_says_why_each_result_not_placed_was_set_aside():
    """A depth sweep: one tg from an empty cache placed, two at depth set aside, said with the reason;
    with two reasons each is counted."""
    pts = pd.DataFrame(
        dict(params_b=[30.5], device=["GPU"], peak_source=["unknown"], peak_gb_s=[float("nan")], rate_kind=["mean"])
    )
    every = pd.DataFrame(dict(kept=[True, False, False], why_dropped=["", "depth > 0", "depth > 0"]))
    line = show.input_line("f.md", pts, None, every)
    assert "3 generation results, 1 of them placed under the roofline and 2 set aside (depth > 0; the rule" in line
    every = pd.DataFrame(
        dict(kept=[True, False, False], why_dropped=["", "depth > 0", "another engine, build or configuration: b2"])
    )
    line = show.input_line("f.md", pts, None, every)
    assert "2 set aside (1 another engine, build or configuration and 1 depth > 0; the rule" in line


def test_a_device_the_file_names_is_the_one_its_runs_are_set_against(runs):
    from benchbook.analysis import roofline

    named = {s: roofline.named(["GPU: 2x A100 80GB\n"]) for s in runs["source"].unique()}
    pts = bandwidth.latency_points(runs, named=named)
    assert pts["device"].eq("A100-SXM4-80GB").all() and pts["peak_gb_s"].eq(A100_GB_S).all()
