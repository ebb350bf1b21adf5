"""A caption (the line over a fenced block) names the block under it, not a run above it: where every line
the tool read lies above the caption (a heading over a cut second block), the run-facts list leaves the
caption's facts out; a caption over the block the tool read, or no rows' lines given, keeps them."""

from __future__ import annotations

from benchbook.ingest import context
from benchbook.presentation import run_facts

TEXT = [
    "TP2 before PR:",
    "```text",
    "Successful requests: 128",
    "Output token throughput (tok/s): 862.09",
    "```",
    "",
    "TP4 after PR:",
    "",
    "```text",
    "Successful requests: 128",
]


def _tp(read: frozenset[int]) -> list:
    facts = {s.name: s for s in run_facts.stated(context.read(TEXT), (), read)}
    return [v for v, _ in facts["tp"].values] if "tp" in facts else []


def test_a_caption_over_a_block_below_every_run_read_is_left_out():
    assert _tp(frozenset({3, 4})) == ["2"]


def test_a_caption_over_the_block_read_is_kept():
    assert sorted(_tp(frozenset({10}))) == ["2", "4"]


def test_without_the_rows_lines_every_caption_is_kept():
    assert sorted(_tp(frozenset())) == ["2", "4"]


def test_a_caption_over_the_block_read_and_a_sentence_below_it_both_stay():
    text = ["Run at TP4 on one node", "", "```text", "Successful requests: 128", "```", "", "Done at TP4 too."]
    facts = {s.name: s for s in run_facts.stated(context.read(text), (), frozenset({4}))}
    assert facts["tp"].values == (("4", (1, 7)),)


DEVICES = [
    "An old Xeon server beats the board.",
    "",
    "HP:",
    "```",
    "llama_print_timings:        eval time =   37202.16 ms /   127 runs",
    "```",
    "",
    "Jetson Orin Nano 8GB:",
    "```",
    " Once upon a time",
]


def _devices(text: list[str], read: frozenset[int]) -> list:
    facts = {s.name: s for s in run_facts.stated(context.read(text), (), read)}
    return [v for v, _ in facts["device"].values] if "device" in facts else []


def test_a_device_named_in_words_over_a_block_below_every_run_read_is_left_out():
    # the devices a label names in words are read after the captions' models: the label still scopes them
    assert _devices(DEVICES, frozenset({5})) == []
    assert _devices(DEVICES, frozenset({10})) == ["Jetson Orin Nano"]


def test_a_device_a_sentence_names_below_the_runs_read_is_kept():
    text = [*DEVICES[:7], "All of it ran on a Jetson Orin Nano 8GB."]
    assert _devices(text, frozenset({5})) == ["Jetson Orin Nano"]
