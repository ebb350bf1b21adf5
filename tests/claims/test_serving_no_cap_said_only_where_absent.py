"""The serving page says "No run in this input has a concurrency cap" only where the file shows no
sign of one (`context.states`, issue #35 item 2): a cap it states but ties to no run is given with its
value and line, a line that speaks of one without a value it can take is named, and the tool's own
print of an unset cap (vLLM's `Maximum request concurrency: None`) leaves the absence standing."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from benchbook.analysis import serving
from benchbook.claims import serving as cs
from benchbook.presentation import wording

UNCAPPED = pd.DataFrame({"run": ["a"], "max_concurrency": [np.nan], "in_flight": [3.0], "utilisation": [np.nan]})


def _said(tmp_path, text: str) -> dict:
    f = tmp_path / "run.md"
    f.write_text(text, encoding="utf-8")
    return serving.cap_said([f])


def _text(said: dict) -> str:
    return wording.word("serving_saturation", cs.underfilled(UNCAPPED, said)).text


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("# Results\n\n## concurrency 64\n\nSuccessful requests: 10\n", 3),
        ("vllm bench serve --model m --max-concurrency $C --num-prompts 80\n\nSuccessful requests: 10\n", 1),
        ("We swept the concurrency from 1 to 64.\n\nSuccessful requests: 10\n", 1),
    ],
)
def test_a_line_that_speaks_of_a_cap_is_named_never_called_absent(tmp_path, text, line):
    said = _said(tmp_path, text)
    assert (said["cap_status"], said["cap_line"]) == ("unread", line)
    out = _text(said)
    assert f"line {line} speaks of concurrency" in out
    assert "No run in this input has a concurrency cap" not in out


def test_a_cap_the_file_states_but_ties_to_no_run_is_given_with_its_value(tmp_path):
    said = _said(tmp_path, "Successful requests: 10\n\nMaximum request concurrency: 32\n")
    assert (said["cap_status"], said["cap_value"], said["cap_line"]) == ("stated", 32, 3)
    out = _text(said)
    assert "Line 3 states a concurrency cap of 32 (`Maximum request concurrency: 32`)" in out
    assert "No run in this input has a concurrency cap" not in out


@pytest.mark.parametrize(
    "text",
    [
        "Successful requests: 10\n",
        "Maximum request concurrency:             None\nSuccessful requests: 10\n",
        "Max request concurrency:                 not set\nConcurrency:                             48.06\n",
    ],
)
def test_no_sign_of_a_cap_or_the_tools_own_unset_print_leaves_the_absence(tmp_path, text):
    said = _said(tmp_path, text)
    assert said == {"cap_status": "absent"}
    assert _text(said).startswith("No run in this input has a concurrency cap")


def test_an_output_format_that_records_no_cap_still_names_the_line_that_speaks_of_one():
    lit = UNCAPPED.assign(max_concurrency_recorded=False)
    said = {"cap_status": "unread", "cap_line": 2, "cap_text": "--max-concurrency $C"}
    out = wording.word("serving_saturation", cs.underfilled(lit, said)).text
    assert "does not record a concurrency cap, and line 2 speaks of concurrency (`--max-concurrency $C`)" in out
    bare = wording.word("serving_saturation", cs.underfilled(lit, {"cap_status": "absent"})).text
    assert bare.startswith("The output format does not record a concurrency cap, so there is")
