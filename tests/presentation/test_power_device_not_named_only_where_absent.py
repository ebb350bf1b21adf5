"""The perf_per_watt page says "the input does not name the device" only where the files show no sign
of one (`analysis.energy.stated_device`, the absence rule of `context.states`, issue #35 item 2): a device
a line names is given with its line, a line that speaks of a device and names none is quoted."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook.analysis import energy
from benchbook.presentation import energy as show_energy
from benchbook.presentation import power as show


def _said(tmp_path, text: str) -> dict:
    f = tmp_path / "sweep.md"
    f.write_text(text, encoding="utf-8")
    return energy.stated_device([f])


def test_a_device_a_heading_names_is_given_with_its_line(tmp_path):
    said = _said(tmp_path, "notes\n\n## RTX 4090 at four power limits\n\n| model | t/s |\n")
    assert (said["status"], said["line"]) == ("stated", 3)
    line = show.input_line("f.md", "m", [200.0, 300.0], None, None, said=said)
    assert "line 3 names the device" in line and "RTX 4090" in line
    assert "does not name the device" not in line


def test_a_line_that_speaks_of_a_gpu_and_names_none_is_quoted(tmp_path):
    said = _said(tmp_path, "notes\n\nThe GPU was capped with nvidia-smi before each run.\n")
    assert (said["status"], said["line"]) == ("unread", 3)
    line = show.input_line("f.md", "m", [200.0, 300.0], None, None, said=said)
    assert "line 3 speaks of a device (`The GPU was capped with nvidia-smi before each run.`)" in line
    assert "does not name the device" not in line


@pytest.mark.parametrize("text", ["| model | t/s |\n| m | 12.5 |\n", "Power limit sweep\n\nrows below\n"])
def test_files_with_no_sign_of_a_device_are_said_not_to_name_it(tmp_path, text):
    said = _said(tmp_path, text)
    assert said == {"status": "absent"}
    assert "; the input does not name the device." in show.input_line("f.md", "m", [200.0], None, None, said=said)


def test_the_measured_energy_sentence_follows_the_same_rule():
    table = pd.DataFrame(
        {"source": ["a"], "run": ["r"], "scope": ["gpu"], "model": ["m"], "device": [None], "tool": ["zeus"]}
    )
    stated = {"status": "stated", "value": "A100", "line": 4, "text": "GPU: A100"}
    text = show_energy.describe(table, table, (), stated)
    assert "line 4 names the device A100 (`GPU: A100`)" in text
    assert "the files do not name the device" in show_energy.describe(table, table, (), {"status": "absent"})
