"""An Ollama model reference `name:tag` whose tag starts with a parameter count names the model of that size:
Ollama's library gives each size tag its own weights (deepseek-r1's 1.5b to 70b tags are the dense Qwen and
Llama distills, only 671b the MoE). A model-table row whose total the tag does not round to is another model of
the family, and the tag's size is read instead; a tag that rounds the row's total (`llama3.1:70b`, 70.55 B;
`gpt-oss:120b`, 116.83 B), a tag with no size (`deepseek-r1:latest`) and a name with no tag keep the row."""

from __future__ import annotations

import pytest

from benchbook import hardware


@pytest.mark.parametrize(
    ("model", "total", "active", "moe"),
    [
        ("deepseek-r1:1.5b", 1.5, 1.5, False),
        ("deepseek-r1:70b", 70.0, 70.0, False),
        ("boolq_deepseek-r1:8b", 8.0, 8.0, False),  # a CodeCarbon project name around the tag
        ("ollama run deepseek-r1:32b --verbose", 32.0, 32.0, False),
    ],
)
def test_a_size_tag_the_row_does_not_round_to_is_another_model(model, total, active, moe):
    size = hardware.model_size(model)
    assert (size.total_b, size.active_b, size.moe) == (total, active, moe)
    assert size.source == "size in the name"


@pytest.mark.parametrize(
    ("model", "total", "active"),
    [
        ("deepseek-r1:671b", 671.0, 37.0),  # the tag is the row's own size
        ("deepseek-r1:latest", 671.0, 37.0),  # no size in the tag
        ("deepseek-r1", 671.0, 37.0),  # no tag
        ("llama3.1:70b", 70.55, 70.55),  # a tag rounds the row's count
        ("gpt-oss:120b", 116.83, 5.13),
        ("qwen3:30b-a3b", 30.53, 3.3),
        ("Llama-4-Scout-17B-16E-Instruct", 109.0, 17.0),  # a name's size that is the active count: no tag
    ],
)
def test_a_tag_that_rounds_the_rows_count_or_no_size_tag_keeps_the_row(model, total, active):
    size = hardware.model_size(model)
    assert (size.total_b, size.active_b) == (total, active)
    assert size.source != "size in the name"


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("deepseek-r1:1.5b", 1.5),
        ("smollm:135m", 0.135),
        ("qwen3:30b-a3b", 30.0),
        ("deepseek-r1:latest", None),
        ("mixtral:8x7b", None),  # experts times size is not a count
        ("total duration:       1m25.86219397s", None),  # Ollama's own statistics are no tag
        ("localhost:11434", None),
    ],
)
def test_the_size_an_ollama_tag_states(text, size):
    assert hardware.ollama_tag_size(text) == size
