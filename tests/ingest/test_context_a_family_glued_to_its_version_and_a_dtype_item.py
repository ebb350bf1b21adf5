"""A line's model written with its family glued to its version (`llama3.1 8B`, as Ollama and many threads write
it) is the model table's name written apart (`Llama 3.1 8B`); and a dtype written as an item of its own on a line
naming that one model (`..., fp16. H100.`) is its weights' precision, where nothing else on the line could own it."""

from __future__ import annotations

from benchbook.ingest import context


def _facts(line: str, name: str) -> list[str]:
    return [str(f.value) for f in context.read([line]).get(name)]


def test_a_family_glued_to_its_version_names_the_table_model():
    line = "Max throughput for llama3.1 8B ISL/OSL=128/128, fp16. H100."
    assert _facts(line, "model") == ["llama3.1 8B"]
    assert _facts("We served qwen2.5 7B on one L4.", "model") == ["qwen2.5 7B"]
    assert context.table_rows("the llama3.1 405b run") == {"llama 3.1 405b": "Llama-3.1-405B"}  # one name, once


def test_a_dtype_item_on_a_line_naming_one_model_is_its_precision():
    assert _facts("Max throughput for llama3.1 8B ISL/OSL=128/128, fp16. H100.", "precision") == ["fp16"]
    assert _facts("Llama-3.1-70B (bf16), TP 4", "precision") == ["bf16"]


def test_a_dtype_item_another_thing_could_own_or_beside_no_model_is_no_precision():
    assert _facts("Llama-3.1-70B, fp8 KV cache, TP 4", "precision") == []  # the cache's
    assert _facts("Llama-3.1-8B vs Qwen2.5-7B, fp16.", "precision") == []  # a comparison: whose?
    assert _facts("Llama-3.1-8B, fp16, bf16 and fp8 runs", "precision") == []  # several dtypes: runs of each
    assert _facts("Max throughput, fp16. H100.", "precision") == []  # no model named on the line
    assert _facts("Llama-3.1-8B runs fp16everywhere", "precision") == []
