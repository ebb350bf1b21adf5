"""The absence rule looks everywhere (issue #35 item 2): a heading that speaks of a fact, and a
command flag that sets it to a value this reader cannot take (`--max-concurrency $C`), are signs,
so `context.states` says "unread" and names the line; a file with neither says "absent"."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


def _said(text: str, name: str) -> context.Statement:
    return context.states(context.read(text.splitlines()), name)


@pytest.mark.parametrize(
    ("text", "name", "line"),
    [
        ("results\n## concurrency 64\n| a | b |", "concurrency", 2),
        ("## Benchmarks on the GPU box\nrow", "device", 1),
        ("### pure-TP runs\nrow", "tp", 1),
        ("run it:\nvllm bench serve --model m --max-concurrency $C --num-prompts 80", "concurrency", 2),
        ("python benchmark_serving.py --model m \\\n  --max-concurrency ${CONC}", "concurrency", 2),
    ],
)
def test_a_heading_or_an_unreadable_flag_is_an_unread_sign_naming_its_line(text, name, line):
    said = _said(text, name)
    assert said.status == "unread"
    assert said.line == line


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("results\n## Llama results\n| a | b |", "concurrency"),
        ("run it:\nvllm bench serve --model m --num-prompts 80", "concurrency"),
        ("## Benchmarks\nrow", "device"),
    ],
)
def test_a_file_that_never_speaks_of_the_fact_is_absent(text, name):
    assert _said(text, name).status == "absent"


def test_a_flag_with_a_value_is_stated_and_leaves_no_sign_on_its_line():
    c = context.read(["vllm bench serve --model m --max-concurrency 64"])
    assert context.states(c, "concurrency").status == "stated"
    assert not [s for s in c.signs if s.name == "concurrency"]


def test_one_line_gives_one_sign_per_fact():
    c = context.read(["python benchmark_serving.py --max-concurrency $C  # concurrency"])
    assert len([s for s in c.signs if s.name == "concurrency"]) == 1
