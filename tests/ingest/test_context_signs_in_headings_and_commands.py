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


@pytest.mark.parametrize(
    "line",
    [
        "Maximum request concurrency:             None",  # vLLM's banner for a run without --max-concurrency
        "Max request concurrency:                 not set",  # SGLang's
        "Concurrency:                             48.06",  # SGLang's measured mean concurrency
        "Peak concurrent requests:                100.00",  # vLLM's measured peak
        "Peak concurrent requests: 3",  # SGLang's, an integer: a statistic all the same
        '{"backend": "vllm", "request_rate": Infinity, "max_concurrency": null, "completed": 10}',  # the result JSON
        "  concurrency: .inf",  # llm-d's report: no cap
    ],
)
def test_a_cap_printed_as_unset_or_a_measured_concurrency_is_no_sign_of_a_cap(line):
    assert _said(line, "concurrency").status == "absent"


@pytest.mark.parametrize(
    ("line", "cap"),
    [
        ("Maximum request concurrency:             32", 32),
        ("Max reqeuest concurrency:                128", 128),
        ("Concurrency Level:                      8", 8),
    ],
)
def test_the_serving_benchmarks_printed_cap_is_a_stated_concurrency(line, cap):
    said = _said(line, "concurrency")
    assert said.status == "stated"
    assert said.facts[0].value == cap


def test_a_cap_written_as_a_list_of_integers_is_an_unread_sign():
    said = _said("results\nConcurrency: 8,16,32", "concurrency")
    assert (said.status, said.line) == ("unread", 2)


@pytest.mark.parametrize(
    "line",
    [
        "Copyright (c) 2025, NVIDIA CORPORATION & AFFILIATES. All rights reserved.",
        "* Neither the name of NVIDIA CORPORATION nor the names of its",
    ],
)
def test_a_licence_notice_is_no_sign_of_a_device(line):
    assert _said(line, "device").status == "absent"
    assert _said("Benchmarks on an NVIDIA GPU", "device").status == "unread"  # the run's own words are one


@pytest.mark.parametrize(
    ("line", "status"),
    [
        ("Request throughput (req/s):              5.20", "absent"),  # measured, not sent
        ("python benchmark_serving.py --request-rate $RATE", "unread"),
    ],
)
def test_a_measured_request_rate_is_no_sign_of_a_rate_setting(line, status):
    assert _said(line, "rate").status == status


@pytest.mark.parametrize(
    ("line", "status"),
    [
        ("The 99% latency is 13.02ms, which meets mperf model requirements.", "absent"),  # the rules, no model
        ("It fails the model constraints of the Server scenario", "absent"),
        ("The model requirements are met by the model we ran", "unread"),  # a model word beside the rules
        ("Which model meets the latency bound?", "unread"),
    ],
)
def test_a_benchmarks_rules_for_a_model_are_no_sign_of_the_runs_model(line, status):
    assert _said(line, "model").status == status
