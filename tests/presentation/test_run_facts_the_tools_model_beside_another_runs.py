"""Where only sentences around a tool's output name a model and the output itself names another (a page that
speaks of several benchmarks: `Llama 3.1 70B` in its prose, `GPT-J SUT` in the summary), the run-facts
list shows the output's model first with the lines that write it, so the other is never shown alone as
the run's; where they agree, the text names no model, or a command names one (the run's own), the list is
as the text gives it."""

from __future__ import annotations

from benchbook.ingest import context
from benchbook.presentation import run_facts

TEXT = ["We replaced the Llama2 benchmark with one using Llama 3.1 70B.", "", "SUT name : GPT-J SUT"]


def _models(models):
    facts = {s.name: s for s in run_facts.stated(context.read(TEXT), models)}
    return [v for v, _ in facts["model"].values]


def test_the_outputs_model_comes_first_beside_the_prose_one():
    assert _models((("GPT-J", (3,)),)) == ["GPT-J", "Llama 3.1 70B"]


def test_the_same_model_is_not_shown_twice():
    assert _models((("Llama 3.1 70B", (1,)),)) == ["Llama 3.1 70B"]


def test_no_output_model_leaves_the_list_as_the_text_gives_it():
    assert _models(()) == ["Llama 3.1 70B"]


def test_a_model_in_a_command_is_the_runs_and_the_list_stays_as_written():
    text = ["vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000", "", "| model | t/s |", "| --- | --: |"]
    facts = {s.name: s for s in run_facts.stated(context.read(text), (("llama 8B Q4_K", (3,)),))}
    assert [v for v, _ in facts["model"].values] == ["meta-llama/Llama-3.1-8B-Instruct"]
