"""A model named in a title or a sentence (`context._read_model_named`): by its id, or by the words of
one name of the model table; a phrase that fits no one model, or a line naming several, is a sign
that names the line, never a model; such a model is the run's only where nothing else names one."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook.ingest import context

BLOCK = ["", "Successful requests: 940"]  # no fence: the line above is no caption


def _read(*lines: str) -> context.Context:
    return context.read(list(lines))


@pytest.mark.parametrize(
    ("line", "model", "source"),
    [
        ("# Add llama 3.3 70b GH200 model and GH200 profile", "llama 3.3 70b", "heading"),
        ("# [BUG] Llama 3.1 8b Server and SingleStream Scenario fail", "Llama 3.1 8b", "heading"),
        (
            "The goal is the sgl_jax Qwen/Qwen2.5-7B-Instruct model running on v6e-1.",
            "Qwen/Qwen2.5-7B-Instruct",
            "prose",
        ),
    ],
)
def test_a_model_named_in_a_title_or_a_sentence_is_stated_on_its_line(line, model, source):
    c = _read(line, *BLOCK)
    fact = c.get("model")[0]
    assert (fact.value, fact.line, fact.source) == (model, 1, source)
    assert context.states(c, "model").status == "stated"
    assert not c.get("path_model")  # an id in a sentence is no folder


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("# Llama 70B 1 Node Example", "Llama 70B"),  # Llama 2, 3, 3.1 or 3.3: no one table name fits
        ("# Llama-3.1-8B vs Qwen3-32B on one H100", "Llama-3.1-8B, Qwen3-32B"),  # a comparison names two
    ],
)
def test_words_that_fit_no_one_model_are_a_sign_naming_the_line_never_a_model(line, words):
    c = _read(line, *BLOCK)
    assert not c.get("model")
    said = context.states(c, "model")
    assert (said.status, said.line, said.sign.words) == ("unread", 1, words)


@pytest.mark.parametrize(
    "line",
    [
        "We ran deepseek r1 on the box.",  # a family without its size is no one model (the 671B, or a distill)
        "2024-01-02,run,Llama-3.1-8B,12.5,3.1",  # a CSV row is a tool's data, not a sentence
        "| Llama-3.1-8B | 12.5 |",  # a table row is the parser's
        "See /models/Qwen2.5-7B/config.json for the weights.",  # a folder under models: named in a path
    ],
)
def test_lines_that_are_no_sentence_or_name_no_size_state_no_model(line):
    assert not _read(line, *BLOCK).get("model")


def test_a_folder_under_models_stays_a_model_named_only_in_a_path():
    c = _read("See /models/Qwen2.5-7B/ for the weights.", *BLOCK)
    assert [f.value for f in c.get("path_model")] == ["Qwen2.5-7B"]


def test_a_title_model_fills_the_table_only_where_nothing_else_names_one():
    alone = pd.DataFrame({"model": [""], "line": [3]})
    context.fill(alone, _read("# Add llama 3.3 70b GH200 model", *BLOCK))
    assert alone["model"].tolist() == ["llama 3.3 70b"]
    commanded = pd.DataFrame({"model": [""], "line": [4]})
    context.fill(commanded, _read("# Add llama 3.3 70b GH200 model", "vllm serve Qwen/Qwen3-32B --tp 2", *BLOCK))
    assert commanded["model"].tolist() == ["Qwen/Qwen3-32B"]


def test_one_model_written_twice_in_titles_and_prose_is_one_value():
    t = pd.DataFrame({"model": [""], "line": [5]})
    context.fill(t, _read("# Llama 3.3 70B on MI355", "We serve amd/Llama-3.3-70B-Instruct-FP8-KV here.", *BLOCK))
    assert t["model"].tolist() == ["amd/Llama-3.3-70B-Instruct-FP8-KV"]


def test_a_caption_over_a_fence_left_open_labels_the_block_to_the_files_end():
    lines = ["Qwen/Qwen3-32B sharegpt dataset test:", "```shell", "qps1", "Successful requests: 200"]
    caption = [f for f in _read(*lines).get("model") if f.source == "caption"]
    assert [(f.value, f.until) for f in caption] == [("Qwen/Qwen3-32B", 4)]
    closed = _read(*lines, "```", "", "Qwen/Qwen3-8B is the next.", "```", "more")
    assert [f.until for f in closed.get("model") if f.source == "caption"] == [5, 9]


@pytest.mark.parametrize(
    ("line", "precision"),
    [
        ("# Unable to Reproduce the Throughput of Llama 3.1 8B FP8 on H100", "FP8"),
        ("# Llama 3.1 8B fp4 changes upstreaming", "fp4"),  # written in lower case, as a title may
        ("# Llama 3.1 8B, served in FP8 on H100", None),  # a scheme not written after the name is the sentence's
    ],
)
def test_a_scheme_written_after_a_model_named_in_words_states_its_precision(line, precision):
    c = _read(line, *BLOCK)
    assert [f.value for f in c.get("model")] == ["Llama 3.1 8B"]
    assert [f.value for f in c.get("precision")] == ([precision] if precision else [])


@pytest.mark.parametrize(
    ("line", "model"),
    [
        ("# Llamas 3.1 405B fp4 changes upstreaming from 355_wip", "Llamas 3.1 405B"),  # the family in the plural
        ("# Llamas and Qwens on MI355", None),  # a plural family with no version or size names no model
    ],
)
def test_a_family_in_the_plural_before_its_version_names_the_model(line, model):
    assert [f.value for f in _read(line, *BLOCK).get("model")] == ([model] if model else [])


@pytest.mark.parametrize(
    ("line", "model"),
    [
        ("# [OOT][Recipe] Update qwen3next recipe for performance", "qwen3next"),  # one table row: Qwen3-Next-80B-A3B
        ("We also tried qwen3next on it.", None),  # a sentence names a model by its size, as before
        # begins other table names (the R1 distills), but goes on with none of their next words: the R1
        ("# deepseek r1 results", "deepseek r1"),
        ("# deepseek r1 distill results", None),  # goes on into the distills' names: no one of them
    ],
)
def test_a_heading_names_a_model_without_its_size_only_where_no_longer_name_goes_on(line, model):
    assert [f.value for f in _read(line, *BLOCK).get("model")] == ([model] if model else [])


def test_a_list_of_sized_names_is_several_models_even_where_one_is_an_id():
    """An issue form's `### Models` field lists the models tried: no one of them is the run's."""
    c = _read("### Models", "", "Qwen 3.5 9B, GPT-OSS-20B, Gemma 4 A4B (so likely any model)", *BLOCK)
    assert not c.get("model")
    assert any(s.name == "model" and "GPT-OSS-20B" in s.words for s in c.signs)


def test_one_id_beside_words_without_a_size_is_still_the_model():
    c = _read("Ran GPT-OSS-20B, flash attention on, two threads.", *BLOCK)
    assert [f.value for f in c.get("model")] == ["GPT-OSS-20B"]


@pytest.mark.parametrize(
    ("line", "model"),
    [
        ("there is a huge perf hit while running bloom-7b1 model with the suggested changes", "bloom-7b1"),
        ("the data-4b2 set", None),  # a size-like part no name of the model table has: no model
        ("Stop scheduling the GLM-5.1 MI35x job", None),  # a table name with no size in it: no model by its id
    ],
)
def test_an_id_with_blooms_size_spelling_is_a_model_where_the_model_table_holds_its_name(line, model):
    # BLOOM writes its size's tenth after the unit (`7b1`, 7.1 B): no `-7B` part, but a name the table holds
    assert [f.value for f in _read(line, *BLOCK).get("model")] == ([model] if model else [])


def test_a_full_stop_after_a_captions_model_ends_the_sentence_not_the_name():
    said = "I did a quick test with Gemma3-27B-It. It is a dual-socket system:"
    caption = [f.value for f in _read(said, "```", "output 1", "```").get("model") if f.source == "caption"]
    assert caption == ["Gemma3-27B-It"]
    # the other way: a dot inside the name (a version) is the name's
    caption = [f.value for f in _read("Results of Qwen2.5-7B on one GPU", "```", "output 1", "```").get("model")]
    assert caption == ["Qwen2.5-7B"]
