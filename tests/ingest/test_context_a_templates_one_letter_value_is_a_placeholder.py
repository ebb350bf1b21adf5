"""A command template's one capital letter (`--model M`, `-tp X`, `--num-prompts X`: a forum post's "Command
templates:") is a value left for the reader, like `$MODEL` or `<model>`: it names no model, and a model the
prose names (the Hub id above the results) is then the run's, never demoted to a sign by the placeholder."""

from __future__ import annotations

from benchbook.ingest import context, vllm_serve

TEMPLATE = [
    "Command templates:",
    "",
    "vllm bench serve --backend vllm --model M --num-prompts X --port 8000",
    "",
    "Qwen/Qwen3-VL-32B-Instruct-FP8",
]


def test_one_capital_letter_is_a_placeholder():
    assert context.placeholder("M") and context.placeholder("X")
    assert vllm_serve.PLACEHOLDER_RE.match("M")
    assert not context.placeholder("m1") and not context.placeholder("Qwen/Qwen3-8B") and not context.placeholder("MM")


def test_a_model_the_prose_names_stands_beside_a_templates_placeholder():
    models = [(f.value, f.line) for f in context.read(TEMPLATE).get("model") if not context.placeholder(f.value)]
    assert models == [("Qwen/Qwen3-VL-32B-Instruct-FP8", 5)]


def test_a_real_command_model_still_outranks_the_prose():
    lines = [TEMPLATE[0], "", TEMPLATE[2].replace("--model M", "--model org/served-8B"), "", TEMPLATE[4]]
    models = [f.value for f in context.read(lines).get("model")]
    assert models == ["org/served-8B"]
