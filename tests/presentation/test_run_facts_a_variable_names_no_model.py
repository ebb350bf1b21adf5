"""A value a command leaves to a shell variable (`vllm serve $MODEL_NAME`) names nothing, so the run-facts
list shows the model the file assigns, not the variable as a second model (stop 49, issue #35 class 1:
"model: $MODEL_NAME (line 8); Qwen/Qwen3.5-9B (line 6)")."""

from benchbook.ingest import context
from benchbook.presentation import run_facts


def _models(text: str) -> tuple:
    facts = {s.name: s for s in run_facts.stated(context.read(text.splitlines()))}
    return tuple(v for v, _ in facts["model"].values) if "model" in facts else ()


def test_a_variable_in_the_serve_command_is_not_listed_as_a_model():
    assert _models('MODEL_NAME="Qwen/Qwen3.5-9B"\nvllm serve $MODEL_NAME --port 8007') == ("Qwen/Qwen3.5-9B",)
    assert _models('vllm bench serve --model "${MODEL}" --num-prompts 5') == ()


def test_a_model_the_command_names_is_listed():
    assert _models("vllm serve Qwen/Qwen3.5-9B --port 8007") == ("Qwen/Qwen3.5-9B",)
