"""A llama-bench copy that prints one configuration several times with different rates and no command
naming it again: the ingest screen sets every such row aside (no chapter picks one), and the bandwidth
page names them with their lines beside the counts it gives, instead of counting the file's results as
if they were not there. Rows the screen keeps, or sets aside for another reason, are not named."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import prefill
from benchbook.ingest import REJECTED_COLUMNS
from benchbook.ingest.core import CONFLICT, DUPLICATE
from benchbook.presentation import bandwidth as show


def _rejected(rows):
    return pd.DataFrame([dict(zip(REJECTED_COLUMNS, r, strict=True)) for r in rows], columns=REJECTED_COLUMNS)


CONFLICTS = _rejected(
    [
        ("llama-bench", "f.md", line, f"{m} {s} {v}", f"{CONFLICT}: same configuration as line {a}, different values")
        for line, m, a in ((7, "pp_rate", 7), (8, "tg_rate", 8), (9, "pp_rate", 7), (10, "tg_rate", 8))
        for s, v in (("mean", 40.0 + line), ("std", 1.0))
    ]
)


def test_each_configuration_printed_twice_with_different_rates_is_one_group_with_its_lines():
    groups = prefill.conflicted(CONFLICTS)
    assert groups == [
        {"kind": "prompt-processing", "lines": [7, 9]},
        {"kind": "generation", "lines": [8, 10]},
    ]
    note = show.conflict_note(groups)
    assert "printed 2 times with different rates (lines 8 and 10)" in note and "none of them is used" in note
    # two runs, each printed under its own command, conflict as a copy's do: the note claims no missing command
    assert "several runs of one configuration, or copies of one run" in note and "no command" not in note


def test_repeats_of_one_value_and_an_empty_report_name_nothing():
    dup = _rejected([("llama-bench", "f.md", 9, "tg_rate mean 45.0", f"{DUPLICATE}: repeats line 8")])
    assert prefill.conflicted(dup) == [] and prefill.conflicted(_rejected([])) == []
    assert show.conflict_note([]) == ""


def test_the_counts_say_they_are_of_the_results_used_only_where_rows_were_set_aside():
    groups = prefill.conflicted(CONFLICTS)
    assert "that can be used (2 more set aside" in show.prefill_intro(pd.DataFrame({"x": [1]}), 1, [], groups)
    assert "that can be used" not in show.prefill_intro(pd.DataFrame({"x": [1]}), 1, [], [])
    assert "The results used are of one model" in show.coverage_note(1, set_aside=True)
    assert "The results read are of one model" in show.coverage_note(1, set_aside=False)


def test_the_input_line_counts_generation_results_used_and_those_set_aside():
    pts = pd.DataFrame(
        {"params_b": [0.137], "device": ["x"], "peak_gb_s": [None], "peak_source": ["unknown"], "rate_kind": ["rate"]}
    )
    said = show.input_line("f.md", pts, conflicted=prefill.conflicted(CONFLICTS))
    assert "1 generation result that can be used (2 more set aside, named below)" in said
    assert "that can be used" not in show.input_line("f.md", pts, conflicted=[])
