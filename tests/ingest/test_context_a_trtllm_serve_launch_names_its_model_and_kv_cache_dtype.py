"""TensorRT-LLM's launch read as TensorRT-LLM defines it. `trtllm-serve` is a click group whose default command
is `serve` (tensorrt_llm/commands/serve.py, `DefaultGroup`), so `trtllm-serve serve MODEL` names MODEL as
`trtllm-serve MODEL` does, and a subcommand's name (`serve`, `disaggregated`) is never the model. Its extra
LLM-API options nest `dtype` under `kv_cache_config:` (`KvCacheConfig.dtype`, the KV cache's data type): that is
the KV cache's dtype, never the weights' precision, while a `dtype` of the file's top level still is."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchbook import config
from benchbook.ingest import context


@pytest.mark.parametrize(
    ("line", "model"),
    [
        (
            "trtllm-serve serve nvidia/DeepSeek-R1-0528-FP4 --backend pytorch --tp_size 4 --ep_size 4",
            ["nvidia/DeepSeek-R1-0528-FP4"],
        ),
        ("trtllm-serve nvidia/Llama-3.1-8B-Instruct-FP8 --tp_size 2", ["nvidia/Llama-3.1-8B-Instruct-FP8"]),
        ("trtllm-serve mm_embedding_serve Qwen/Qwen2.5-VL-3B-Instruct --port 8001", ["Qwen/Qwen2.5-VL-3B-Instruct"]),
        ("trtllm-serve disaggregated -c disagg_config.yaml", []),
        ("trtllm-serve disaggregated_mpi_worker -c disagg_config.yaml", []),
        ("trtllm-serve serve --help", []),
    ],
)
def test_a_trtllm_serve_subcommand_is_no_model_and_its_argument_is(line, model):
    assert [f.value for f in context.read([line]).get("model")] == model


def test_a_dtype_nested_in_kv_cache_config_is_the_kv_cache_dtype():
    lines = ["kv_cache_config:", "    dtype: fp8", "    free_gpu_memory_fraction: 0.8", "print_iter_log: true"]
    ctx = context.read(lines)
    assert [f.value for f in ctx.get("kv_dtype")] == ["fp8"]
    assert ctx.get("precision") == ()


def test_a_dtype_outside_kv_cache_config_is_still_the_weights_precision():
    lines = ["kv_cache_config:", "    dtype: fp8", "dtype: bfloat16"]
    ctx = context.read(lines)
    assert [f.value for f in ctx.get("precision")] == ["bfloat16"]
    assert [f.value for f in ctx.get("kv_dtype")] == ["fp8"]


def test_the_pr6851_comment_names_the_fp4_model_and_an_fp8_kv_cache():
    path = (
        config.FIXTURES_DIR
        / "vllm-bench-serve"
        / "trtllm_pr6851_trtllm_serve_dsr1_fp4_tp4_ep4_mean_request_ar_two_commits_cut.md"
    )
    ctx = context.read(Path(path).read_text(encoding="utf-8").splitlines())
    assert [(f.value, f.line) for f in ctx.get("model")] == [("nvidia/DeepSeek-R1-0528-FP4", 24)]
    assert [(f.value, f.line) for f in ctx.get("kv_dtype")] == [("fp8", 14)]
    assert ctx.get("precision") == ()
