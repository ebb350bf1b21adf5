"""What a file says of a power limit beside the limits its tables' headings give (the absence rule): a
limit an nvidia-smi / rocm-smi command or a labelled line sets is stated with its line, a command that
sets one from a variable is named unread, and "states no power limit" is said only of a file with
neither."""

from __future__ import annotations

import pytest

from benchbook.analysis import energy
from benchbook.presentation import power as show


def _limit(tmp_path, text: str) -> dict:
    f = tmp_path / "run.md"
    f.write_text(text)
    return energy.limit_said([f])


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("$ sudo nvidia-smi -pl 300\n| pp512 | 100 |\n", 300, "W"),
        ("rocm-smi --setpoweroverdrive 250\n", 250, "W"),
        ("Power limit: 275 W\n", 275, "W"),
    ],
)
def test_a_limit_a_command_or_line_sets_is_stated_with_its_line(tmp_path, text, value, unit):
    said = _limit(tmp_path, text)
    assert (said["limit_status"], said["limit_value"], said["limit_unit"], said["limit_line"]) == (
        "stated",
        value,
        unit,
        1,
    )
    words = show.no_power_message(0, said=(), limit=said)
    assert words.startswith(f"Line 1 states a power limit of {value} {unit} (`")
    assert "states no power limit" not in words


def test_a_limit_set_from_a_variable_is_named_unread(tmp_path):
    said = _limit(tmp_path, "for pl in 200 300; do sudo nvidia-smi -pl $pl; ./llama-bench; done\n")
    assert said["limit_status"] == "unread" and said["limit_line"] == 1
    words = show.no_power_message(0, said=(), limit=said)
    assert words.startswith("Line 1 speaks of a power limit (`for pl in 200 300;")
    assert "states no power limit" not in words


def test_only_a_file_with_no_sign_of_a_limit_states_none(tmp_path):
    said = _limit(tmp_path, "| model | test | t/s |\n| llama 7B | tg128 | 90 |\n")
    assert said == {"limit_status": "absent"}
    assert show.no_power_message(0, said=(), limit=said).startswith("This input states no power limit")
