"""What a file says of power and energy beyond the measured rows: readings with scope and unit,
a line that speaks of power unread, and nothing only where no sign is anywhere."""

from __future__ import annotations

from benchbook import config
from benchbook.analysis import energy

FIX = config.FIXTURES_DIR


def _said(tmp_path, text: str) -> list[dict]:
    f = tmp_path / "run.md"
    f.write_text(text)
    return energy.stated_power([f])


def test_an_appended_power_line_is_a_stated_reading_with_its_scope():
    said = energy.stated_power([FIX / "llama-bench-power/geerlingguy_ai_benchmarks_issue46_rtx2080ti_265k_excerpt.md"])
    assert [(s["line"], s["value"], s["unit"], s["scope"]) for s in said] == [
        (5, 47.7, "W", "idle"),
        (16, 241.4, "W", "scope not stated"),
    ]
    assert {s["file"] for s in said} == {
        "tests/fixtures/llama-bench-power/geerlingguy_ai_benchmarks_issue46_rtx2080ti_265k_excerpt.md"
    }  # each reading names its file, as the repository's root sees it


def test_a_power_line_without_a_unit_is_named_unread(tmp_path):
    (s,) = _said(tmp_path, "| pp512 | 100 |\n\navg power 241\n")
    assert (s["status"], s["line"], s["name"]) == ("unread", 3, "power")


def test_a_file_that_never_speaks_of_power_or_energy_says_nothing(tmp_path):
    assert _said(tmp_path, "| pp512 | 100 |\n") == []


def test_a_quoted_line_loses_its_backticks(tmp_path):
    (s,) = _said(tmp_path, "Power: `350 W` per GPU\n")
    assert "`" not in s["text"] and s["scope"] == "per GPU"
