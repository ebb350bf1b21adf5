"""In a copied issue thread, the run-facts list shows a fact only where its writer wrote a post holding a line
the tool read: a reporter's issue form names the reporter's machine, not a maintainer's run below it."""

from __future__ import annotations

from benchbook.ingest import context
from benchbook.presentation import run_facts

FORM = ["# Slow generation", "", "### GPU", "", "AMD", "", "### OS", "", "Windows", ""]
RUN = ["```console", "$ ollama run llama3.1 --verbose", "prompt eval rate:     231.88 tokens/s", "```"]


def _names(lines: list[str], read: frozenset[int]) -> set:
    return {s.name for s in run_facts.stated(context.read(lines), (), read)}


def test_a_form_field_above_another_writers_run_is_left_out():
    assert "device" not in _names([*FORM, "maintainer · comment · 2024-12-02", *RUN], frozenset({14}))


def test_a_form_field_of_the_runs_own_writer_is_kept():
    lines = ["reporter · description · 2024-12-01", *FORM[1:], "reporter · comment · 2024-12-02", *RUN]
    assert "device" in _names(lines, frozenset({14}))
