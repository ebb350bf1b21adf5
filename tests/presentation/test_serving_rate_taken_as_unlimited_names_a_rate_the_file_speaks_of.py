"""Runs that print no request rate are taken at the tool's default (unlimited), and the page says so;
where the file states a rate tied to no run, or speaks of one it cannot read (`--request-rate $RATE`), the
sentence names that line (`analysis.serving.rate_said`, the absence rule of `context.states`, issue #35
item 2); a measured req/s (`Request throughput (req/s):`) and the tool's own JSON record are no such sign."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from benchbook.analysis import serving
from benchbook.presentation import serving as show

RUNS = pd.DataFrame(
    {"run": ["a"], "request_rate": [np.nan], "rate_assumed": [True], "tool": ["vllm-bench-serve"], "format": ["text"]}
)


def _said(tmp_path, text: str) -> dict:
    f = tmp_path / "run.md"
    f.write_text(text, encoding="utf-8")
    return serving.rate_said([f])


BLOCK = "============ Serving Benchmark Result ============\nRequest throughput (req/s):              5.20\n"


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (f"python benchmark_serving.py --model m --request-rate $RATE\n\n{BLOCK}", 1, "speaks of a rate"),
        (f"vllm bench serve --model m --request-rate 10\n\n{BLOCK}", 1, "states a rate of 10 req/s"),
    ],
)
def test_a_rate_the_file_states_or_speaks_of_is_named_beside_the_assumption(tmp_path, text, line, words):
    said = _said(tmp_path, text)
    assert said["rate_line"] == line
    note = show.assumed_rate_note(RUNS, said)
    assert f"line {line} {words}" in note
    assert "taken as unlimited" in note


@pytest.mark.parametrize(
    "text",
    [
        BLOCK,  # a measured throughput in req/s is no rate setting
        '{"request_rate": null, "completed": 10}\n',  # the tool's record: unset
        "vllm bench serve --model m --request-rate inf\n",  # unlimited: what the page assumes
    ],
)
def test_no_rate_spoken_of_leaves_the_plain_assumption(tmp_path, text):
    note = show.assumed_rate_note(RUNS, _said(tmp_path, text))
    assert note.strip().startswith("One run prints no request rate; it is taken as unlimited")
    assert "line" not in note


def test_a_stated_rate_some_run_has_is_tied_and_not_named_again():
    runs = pd.concat([RUNS, RUNS.assign(run="b", request_rate=10.0, rate_assumed=False)], ignore_index=True)
    said = {"rate_status": "stated", "rate_value": 10.0, "rate_line": 3, "rate_text": "--request-rate 10"}
    assert "line 3" not in show.assumed_rate_note(runs, said)
