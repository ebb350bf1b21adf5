"""The serving page says the weights' precision "is not stated (the output names no quantization or dtype)"
only where the file shows no sign of one (`analysis.serving.fact_said` over `context.states`, issue #35
item 2): a precision word the reader cannot take (`--dtype auto`, `quantized to 4 bits`) is named by its line."""

from __future__ import annotations

import pytest

from benchbook import config
from benchbook.analysis import precision, roofline, serving
from benchbook.presentation import serving as show

UNKNOWN = precision.Weights(None, float("nan"), "not stated")


def _sentence(said: dict) -> str:
    pk = roofline.choose("", [config.seed("004").read_text(encoding="utf-8")])
    return show.device_sentence(pk, "org/m-14b", 14.0, 14.0, "input", UNKNOWN, precision_said=said)


def _said(tmp_path, text: str) -> dict:
    f = tmp_path / "run.md"
    f.write_text(text, encoding="utf-8")
    return serving.fact_said([f], "precision", "precision")


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("notes\nvllm serve org/m-14b --dtype auto --port 8000\n", 2),
        ("# Results\n\nThe weights were quantized to 4 bits before the run.\n", 3),
    ],
)
def test_a_line_that_speaks_of_the_precision_is_named(tmp_path, text, line):
    said = _said(tmp_path, text)
    assert (said["precision_status"], said["precision_line"]) == ("unread", line)
    out = _sentence(said)
    assert f"line {line} speaks of one without a precision this page can read" in out
    assert "names no quantization or dtype" not in out


def test_no_sign_of_a_precision_leaves_the_absence(tmp_path):
    said = _said(tmp_path, "# Results\n\nSuccessful requests: 10\n")
    assert said == {"precision_status": "absent"}
    assert "the weights' precision is not stated (the output names no quantization or dtype)" in _sentence(said)
