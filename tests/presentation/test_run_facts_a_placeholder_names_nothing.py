"""A value a file leaves for its reader to fill (`export LAB_MODEL="<path to model weight>"`, read `<path`)
names nothing: the run-facts list leaves it out; a model the file does name is kept."""

from __future__ import annotations

from benchbook.ingest import context
from benchbook.presentation import run_facts


def _models(text: list[str]) -> list[str]:
    facts = {s.name: s for s in run_facts.stated(context.read(text))}
    return [v for v, _ in facts["model"].values] if "model" in facts else []


def test_a_placeholder_model_is_not_listed():
    assert _models(['export LAB_MODEL="<path to model weight>"']) == []


def test_a_named_model_is_listed():
    assert _models(["export LAB_MODEL=meta-llama/Llama-2-70b-chat-hf"]) == ["meta-llama/Llama-2-70b-chat-hf"]
