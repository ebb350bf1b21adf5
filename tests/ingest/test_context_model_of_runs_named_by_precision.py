"""A model the file names once is not every run's where the runs' own names give their weights
different formats (`vLLM gemma4 12B it` beside `vLLM+Awq+4bit`): they are of different checkpoints."""

from __future__ import annotations

import pandas as pd

from benchbook.ingest import context

COMMAND = "python calc_latency.py --model ./model_weights_12B_it --concurrency 10\n"


def _runs(*names: str) -> pd.DataFrame:
    return pd.DataFrame({"run": list(names), "model": [None] * len(names), "line": list(range(40, 40 + len(names)))})


def test_runs_named_by_different_weight_formats_take_no_one_model():
    table = _runs("vLLM gemma4 12B it", "vLLM+Awq+4bit")
    (msg,) = context.fill(table, context.read(COMMAND.splitlines()))
    assert table["model"].isna().all()
    assert "different formats" in msg and "'vLLM+Awq+4bit': 4bit, awq" in msg and "line 1" in msg


def test_runs_whose_names_share_a_format_or_name_none_take_the_one_model():
    for names in (("baseline", "tuned"), ("Qwen fp8 run 1", "Qwen fp8 run 2")):
        table = _runs(*names)
        (msg,) = context.fill(table, context.read(COMMAND.splitlines()))
        assert set(table["model"]) == {"./model_weights_12B_it"} and "read from line 1" in msg


def test_run_formats_are_the_scheme_words_of_each_runs_name():
    assert context.run_formats(_runs("bf16 run", "w4a16 run")) == {
        "bf16 run": frozenset({"bf16"}),
        "w4a16 run": frozenset({"w4a16"}),
    }
    assert context.run_formats(_runs("bf16 run", "bf16 rerun")) == {}
    assert context.run_formats(pd.DataFrame({"model": [None]})) == {}
