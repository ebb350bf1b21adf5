"""SGLang's bench_serving posts to SGLang's own `/generate` only for its backends `sglang` and
`sglang-native` (`ASYNC_REQUEST_FUNCS`: `async_request_sglang_generate`): its `Backend:` row, or its
JSONL's `backend`, then names the server the run measured. Its OpenAI-API backends (`sglang-oai`,
`vllm`) and the offline tool's `Backend: engine` name none."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


def engines(lines: list[str]) -> list[tuple[str, int]]:
    return [(f.value, f.line) for f in context.read(lines).get("engine")]


@pytest.mark.parametrize("backend", ["sglang", "sglang-native"])
def test_the_native_backend_row_names_sglang(backend):
    block = [
        "============ Serving Benchmark Result ============",
        f"Backend:                                 {backend}",
    ]
    assert engines(block) == [("SGLang", 2)]


@pytest.mark.parametrize("backend", ["sglang-oai", "sglang-oai-chat", "vllm", "engine"])
def test_an_openai_api_backend_or_the_offline_engine_names_no_server(backend):
    assert engines(["============ Serving Benchmark Result ============", f"Backend: {backend}"]) == []


def test_the_jsonl_backend_key_names_sglang_only_for_the_native_api():
    assert engines(['{"backend": "sglang", "dataset_name": "random", "completed": 10}']) == [("SGLang", 1)]
    assert engines(['{"backend": "vllm", "dataset_name": "random", "completed": 10}']) == []


def test_a_commands_native_backend_is_the_same_one_engine_as_the_row():
    lines = ["python3 -m sglang.bench_serving --backend sglang --num-prompts 10", "Backend: sglang"]
    assert {v for v, _ in engines(lines)} == {"SGLang"}
    assert {v for v, _ in engines(["python3 -m sglang.bench_serving --backend sglang-oai --num-prompts 10"])} == {
        "sglang-oai"
    }
