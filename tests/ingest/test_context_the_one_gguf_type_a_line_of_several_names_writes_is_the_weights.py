"""A line that names several models (a run series' label beside the model, `qwen38-27b-q8_0-opt D: Qwen3.5-35B-A3B
Q8_0`) leaves open which is the run's, but a llama.cpp weight type written right after one of them, where it is the
only type the line writes (inside a name too), is the weights' type whichever name is the run's. Two types, or a
type written after none of the names, give none."""

from __future__ import annotations

from benchbook.ingest import context


def precision(line: str) -> list:
    return [f.value for f in context.read([line]).get("precision")]


def test_the_one_type_after_one_of_several_names_is_the_weights():
    assert precision("# qwen38-27b-q8_0-opt D: Qwen3.5-35B-A3B Q8_0 (qwen35moe)") == ["Q8_0"]


def test_two_types_on_the_line_give_none():
    assert precision("# qwen38-27b-q4_k_m-opt D: Qwen3.5-35B-A3B Q8_0 (qwen35moe)") == []


def test_a_type_written_after_no_name_gives_none():
    assert precision("# qwen38-27b-q8_0-opt D: Qwen3.5-35B-A3B (qwen35moe)") == []
