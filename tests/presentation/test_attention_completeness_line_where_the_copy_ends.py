"""The attention chapter's completeness line says the run finished only where the file shows each table's
end: where the copy ends inside a table, it names that line and says what followed is not in the file."""

from __future__ import annotations

from benchbook.presentation import attention as show


def test_a_copy_ending_inside_a_table_is_not_called_complete():
    note = show.stop_note([], [14])
    assert "line 14" in note and "is not in the file" in note
    assert "completed every section" not in note


def test_a_file_with_every_table_closed_completed_every_section():
    assert show.stop_note([], []) == "the run completed every section it started"


def test_a_stopped_run_says_where_it_stopped_before_any_cut():
    assert show.stop_note(["warning: the run stopped at line 9"], [14]) == "the run stopped at line 9"
