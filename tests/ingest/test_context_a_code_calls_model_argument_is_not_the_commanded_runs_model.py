"""A model given as a keyword argument of a call in code (`llm = LLM(model="meta-llama/Llama-3.1-8B-Instruct",
max_num_batched_tokens=16384)`: a write-up showing how to set an engine argument) is no statement about the run
where the tool's command in the file names another model (`benchmark_throughput.py --model X`): the command is
what ran. A file whose only model is in a call, whose command names the same model, or whose command leaves the
model to a variable (`--model ${model}`) keeps the call's."""

from __future__ import annotations

from benchbook.ingest import context

EXAMPLE = [
    "```python",
    "from vllm import LLM",
    'llm = LLM(model="meta-llama/Llama-3.1-8B-Instruct", max_num_batched_tokens=16384)',
    "```",
]
OUTPUT = [
    "```",
    "Throughput: 4.85 requests/s, 2007.66 total tokens/s, 962.92 output tokens/s",
    "Total num prompt tokens:  215196",
    "```",
]


def _command(model: str) -> list[str]:
    return ["```bash", "python benchmark_throughput.py \\", "--backend vllm \\", f'--model "{model}" \\', "```"]


def _models(lines: list[str]) -> list[tuple[str, int]]:
    return [(str(f.value), f.line) for f in context.read(lines).get("model")]


def test_a_calls_model_is_dropped_where_the_command_names_another():
    lines = [*EXAMPLE, "", *_command("deepseek-ai/DeepSeek-R1-Distill-Llama-8B"), *OUTPUT]
    assert _models(lines) == [("deepseek-ai/DeepSeek-R1-Distill-Llama-8B", 9)]


def test_a_calls_model_is_kept_where_no_command_names_one():
    assert _models([*EXAMPLE, *OUTPUT]) == [("meta-llama/Llama-3.1-8B-Instruct", 3)]


def test_a_calls_model_is_kept_where_the_command_names_the_same():
    lines = [*EXAMPLE, "", *_command("meta-llama/Llama-3.1-8B-Instruct"), *OUTPUT]
    assert ("meta-llama/Llama-3.1-8B-Instruct", 3) in _models(lines)


def test_a_placeholder_command_model_does_not_drop_a_calls_model():
    lines = [
        "guidellm --target http://localhost:8080/v1 --model ${model}",
        "Backend(type=openai_server, target=http://localhost:8080/v1, model=meta-llama/Meta-Llama-3.1-8B-Instruct)",
    ]
    assert ("meta-llama/Meta-Llama-3.1-8B-Instruct", 2) in _models(lines)


def test_a_headings_bracketed_setting_is_no_call():
    assert context._CALL_MODEL.search("## Llama (model=llama-3-8b)") is None
    assert context._CALL_MODEL.search("llm = LLM(model='x', tensor_parallel_size=2)")
