"""The run facts state the weights' precision a model's own name gives (`MiniMax-M2.5-W8A8`, `-bf16`), with the
line naming the model, where the file states no precision otherwise (stop 59, cg, class 2): a page whose roofline
is withheld (a model the model table lacks) still says it. A precision the file states is shown as stated, not
the name's; two models of which one carries no tag give none."""

from __future__ import annotations

from benchbook.ingest import context
from benchbook.presentation import run_facts


def _facts(text: str) -> dict[str, tuple]:
    return {s.name: s.values for s in run_facts.stated(context.read(text.splitlines()))}


def test_a_quantization_tag_in_the_models_name_is_stated_at_its_line():
    facts = _facts(
        "# MiniMax run\n"
        "vllm bench serve --model /data/models/MiniMax-M2.5-W8A8 --served-model-name minimax-m2.5 --max-concurrency 10\n"
    )
    assert facts["precision"] == (("W8A8 (in the model's name)", (2,)),)


def test_an_unquantized_dtype_in_the_name_is_stated_too():
    facts = _facts("vllm bench serve --model /data/models/MiniMax-M2.5-bf16 --num-prompts 320\n")
    assert facts["precision"] == (("bf16 (in the model's name)", (1,)),)


def test_a_precision_the_file_states_is_shown_and_not_the_names():
    facts = _facts("vllm serve /data/models/MiniMax-M2.5-W8A8 --dtype bfloat16 --quantization w8a8\n")
    assert all("in the model's name" not in v for v, _ in facts["precision"])


def test_a_name_without_a_tag_states_no_precision():
    assert "precision" not in _facts("vllm bench serve --model MiniMax/MiniMax-M2.5 --num-prompts 320\n")


def test_another_untagged_model_beside_a_tagged_one_leaves_no_one_precision():
    facts = _facts(
        "vllm bench serve --model google/gemma-4-12B-it --num-prompts 10\n"
        "vllm bench serve --model mattbucci/gemma-4-12B-AWQ --num-prompts 10\n"
    )
    assert "precision" not in facts


def test_the_untagged_base_model_in_a_command_of_its_own_is_another_checkpoint():
    facts = _facts(
        "vllm bench throughput --model Qwen/Qwen3-8B --input-len 1024\n"
        "vllm bench throughput --model Qwen/Qwen3-8B-FP8 --input-len 1024\n"
    )
    assert "precision" not in facts
