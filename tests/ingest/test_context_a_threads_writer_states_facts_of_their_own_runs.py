"""In a copied issue thread (bylines `name · comment · date`), a fact one writer states is that writer's runs':
an issue form's `### GPU` field names the reporter's machine, not that of a maintainer who answers with a run of
their own, and a suggestion (`try 2x tp4`) is no run's; a writer's later post about their own runs still counts,
the thread's title names the thread, and a file with no byline keeps every fact."""

from __future__ import annotations

import pandas as pd

from benchbook.ingest import context

FORM = ["# Slow generation on a mid-range GPU", "", "### GPU", "", "AMD", "", "### OS", "", "Windows", ""]
RUN = ["```console", "$ ollama run llama3.1 --verbose", "prompt eval rate:     231.88 tokens/s", "```"]


def _filled(lines: list[str], row: int) -> dict:
    table = pd.DataFrame({"device": [""], "line": [row]})
    context.fill(table, context.read(lines))
    return table.iloc[0].to_dict()


def test_a_form_field_of_the_reporter_names_no_run_of_another_writer():
    lines = [*FORM, "maintainer · comment · 2024-12-02", *RUN]
    assert _filled(lines, 14)["device"] == ""
    c = context.read(lines)
    assert [f.value for f in context.of_posts(c, c.get("device"), [14])] == []


def test_the_same_writers_later_post_about_their_runs_still_counts():
    lines = ["reporter · description · 2024-12-01", *FORM[2:], "reporter · comment · 2024-12-02", *RUN]
    assert _filled(lines, 14)["device"] == "AMD"


def test_another_writers_suggestion_names_no_setting_of_the_run():
    lines = ["helper · comment · 2024-08-18", "Maybe try 2x tp4 instances?", "", "user · comment · 2024-08-22", *RUN]
    c = context.read(lines)
    assert c.values("tp") and context.of_posts(c, c.get("tp"), [7]) == []
    assert context.of_posts(c, c.get("tp"), [2]) == list(c.get("tp"))  # the run is the suggester's own


def test_the_title_and_a_file_with_no_byline_keep_their_facts():
    titled = ["# Llama-3.1-8B on H100", "", "someone · comment · 2024-01-01", *RUN]
    c = context.read(titled)
    assert [f.value for f in context.of_posts(c, c.get("device"), [6])] == ["H100"]
    assert _filled([*FORM, *RUN], 13)["device"] == "AMD"
