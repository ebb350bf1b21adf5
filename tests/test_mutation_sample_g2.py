"""Known-answer tests for the bandwidth roofline (analysis and claims), the batch chapter's bandwidth claim and
`analysis.peaks`, written against the surviving mutants of the issue-19 mutation sample (group g2). Plain
no-argument functions: the mutation re-run calls them in-process."""

from __future__ import annotations

import math

import pandas as pd

from benchbook.analysis import bandwidth, peaks
from benchbook.claims import batch as claims_batch

A100_GB_S = 2039.0  # data/hardware.csv, A100-SXM4-80GB
EPYC_9654_GB_S = 460.8  # data/hardware.csv, EPYC-9654 (12 channels DDR5-4800)
LLAMA_31_8B_SOURCE = "https://huggingface.co/meta-llama/Llama-3.1-8B (8.03B)"  # data/models.csv


def _tg(value, statistic="mean", line=10, **settings):
    """One llama-bench generation value in the warehouse's long format (synthetic)."""
    row = {"metric": "tg_rate", "statistic": statistic, "value": value, "line": line, "test": "tg128"}
    row.update({"model": "llama 7B Q4_0", "model_file": "llama-2-7b.Q4_0.gguf", "n_depth": 0})
    row.update({"backend": "CUDA", "gpu": "NVIDIA A100-SXM4-80GB"})
    row.update(settings)
    return row


def test_reader_cpu_is_used_for_a_cpu_only_run_and_a_gpu_is_not():
    cpu = bandwidth.choose_peak("EPYC-9654", {"mode": "cpu"})
    assert (cpu.device, cpu.bandwidth_gb_s, cpu.source) == ("EPYC-9654", EPYC_9654_GB_S, "parameter")
    # the same CPU named for a GPU run does not fit it: the printed GPU is used instead
    gpu = bandwidth.choose_peak("EPYC-9654", {"mode": "gpu", "gpu": "NVIDIA A100-SXM4-80GB"})
    assert (gpu.device, gpu.bandwidth_gb_s, gpu.source) == ("A100-SXM4-80GB", A100_GB_S, "detected")


def test_generation_rows_keep_caption_apart_and_the_printed_std():
    df = pd.DataFrame(
        [
            _tg(100.0, caption="run A", line=10),
            _tg(1.5, "std", caption="run A", line=10),
            _tg(120.0, caption="run B", line=20),
            _tg(2.5, "std", caption="run B", line=20),
        ]
    )
    rows = bandwidth.generation_rows(df)
    # two tables with different captions are two measurements, each with its own std
    assert rows["caption"].tolist() == ["run A", "run B"]
    assert rows["rate"].tolist() == [100.0, 120.0] and rows["rate_std"].tolist() == [1.5, 2.5]
    assert rows["line"].tolist() == [10, 20]


def test_generation_rows_of_no_generation_have_the_full_schema():
    df = pd.DataFrame([{**_tg(500.0), "metric": "pp_rate"}])
    rows = bandwidth.generation_rows(df)
    assert rows.empty
    for c in ("rate", "rate_std", "line", "mode", "model_key"):
        assert c in rows.columns


def test_label_falls_back_to_the_model_string():
    assert bandwidth.label({"model_file": None, "model": "llama 7B Q4_0", "line": 3}) == "llama 7B Q4_0"
    vllm = {"model": "meta-llama/Llama-3.1-8B-Instruct", "tool": "vllm-bench-offline", "line": 3}
    assert bandwidth.label(vllm) == "meta-llama/Llama-3.1-8B-Instruct (vLLM latency)"
    assert bandwidth.label({"model_file": "llama-2-7b.Q4_0.gguf", "model": "x"}) == "llama-2-7b.Q4_0"
    assert bandwidth.label({"model": " ", "line": 7.0}) == "the model on line 7"


def test_latency_points_device_and_size_source():
    runs = pd.DataFrame(
        [
            {
                "run": "r1",
                "model": "meta-llama/Llama-3.1-8B-Instruct",
                "batch_size": 1.0,
                "input_len": 32.0,
                "output_len": 128.0,
                "tensor_parallel": float("nan"),
                "dtype": "bfloat16",
                "latency_s": 2.0,
                "line": 5,
                "why_left_out": "",
            }
        ]
    )
    pts = bandwidth.latency_points(runs, "A100-SXM4-80GB")
    p = pts.iloc[0]
    assert (p["device"], p["peak_gb_s"], p["peak_source"]) == ("A100-SXM4-80GB", A100_GB_S, "parameter")
    assert p["ridge"] == 312.0e12 / (A100_GB_S * 1e9)
    assert p["size_source"] == LLAMA_31_8B_SOURCE
    # 8.03B x 2 bytes = 16.06 GB per token at 128 / 2 s = 64 tok/s
    assert math.isclose(p["bandwidth_gb_s"], 16.06 * 64)


def test_layers_skip_a_missing_name():
    assert bandwidth.layers(None, "llama-2-7b.Q4_0.gguf")[0] == 32
    assert bandwidth.layers(float("nan"), None, "Mistral-Nemo-Base-2407")[0] == 40
    assert bandwidth.layers(None, "mystery") == (None, None)


def test_override_table_keeps_the_total():
    t = bandwidth.override_table({"deepseek": (3.0, 30.0), "mixtral": 13})
    assert t["model_pattern"].tolist() == ["deepseek", "mixtral"]
    assert t["params_b"].iloc[0] == 30.0 and pd.isna(t["params_b"].iloc[1])
    assert t["active_params_b"].tolist() == [3.0, 13.0]
    size = bandwidth.model_size(t, 16.0, "DeepSeek-V2-Lite.gguf")
    assert (size["params_b"], size["active_params_b"], size["architecture"]) == (30.0, 3.0, "moe")


def test_ngl_below_the_layers_or_unknown_layers_marks_partial_offload():
    base = {"model": None, "section": None, "n_cpu_moe": None, "params_b": 1.0, "model_size_gib": 1.0}
    base.update({"gpu": "NVIDIA A100-SXM4-80GB", "mode": "gpu", "rate": 100.0})
    cases = [
        ("llama-2-7b.Q4_0.gguf", 33, "full", ""),  # 32 layers + output, all on the GPU
        ("llama-2-7b.Q4_0.gguf", 40, "full", ""),
        ("llama-2-7b.Q4_0.gguf", 32, "partial", "ngl 32 < 32 layers + output"),
        ("mystery-a.gguf", 50, "partial", "ngl 50 (layer count unknown)"),
        ("mystery-b.gguf", 99, "full", ""),  # llama-bench's 'everything' value
    ]
    kept = pd.DataFrame([{**base, "model_file": f, "model_key": f"{f} {n}", "ngl": n} for f, n, _, _ in cases])
    pts = bandwidth.points(kept).set_index("model_key")
    for f, n, offload, why in cases:
        assert (pts.at[f"{f} {n}", "offload"], pts.at[f"{f} {n}", "offload_why"]) == (offload, why), (f, n)


def test_reduce_of_no_rows_keeps_its_columns():
    rows = bandwidth.generation_rows(pd.DataFrame([{**_tg(500.0), "metric": "pp_rate"}]))
    kept, every = bandwidth.reduce(rows)
    assert kept.empty and every.empty and every["kept"].dtype == bool
    assert list(every[every["kept"]].columns) == list(every.columns)  # selecting kept rows keeps the table
    assert int((~every["kept"]).sum()) == 0


def test_batch_bandwidth_claim_names_its_dtype():
    row = pd.Series(
        {
            "bandwidth_fraction": 0.5,
            "achieved_gb_s": 1000.0,
            "batch_size": 1,
            "dtype": "fp16",
            "framework": "hf",
            "weight_bytes": 14e9,
            "step_s": 0.014,
        }
    )
    c = claims_batch.bandwidth(row, peaks.Peaks("A100-SXM4-80GB", A100_GB_S, source="parameter"), 7.0, "given")
    assert c.evidence["dtype"] == "fp16" and c.evidence["series"] == "hf fp16"
    assert c.evidence["bytes_per_token"] == 14e9 and c.status == "shown"
