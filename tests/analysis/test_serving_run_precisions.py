"""A precision a run's own name gives (`vLLM+Awq+4bit`) is that run's: where runs name different ones,
no one precision is every run's and none is assumed; where they agree, nothing changes."""

from __future__ import annotations

import math

import pandas as pd

from benchbook.analysis import serving


def _runs(*names: str) -> pd.DataFrame:
    return pd.DataFrame({"run": list(names), "model": [None] * len(names)})


def test_runs_named_by_different_precisions_are_each_their_own():
    r = _runs("vLLM gemma4 12B it", "vLLM+Awq+4bit")
    assert serving.run_precisions(r) == {"vLLM gemma4 12B it": None, "vLLM+Awq+4bit": ("int4", "Awq")}
    w = serving.weights(None, r)
    assert w.source == "per run" and w.precision is None and math.isnan(w.bytes_per_weight) and not w.assumed


def test_runs_that_name_one_precision_or_none_keep_the_files_one_answer():
    for names in (("run a", "run b"), ("fp8 c16", "fp8 c32")):
        r = _runs(*names)
        assert serving.run_precisions(r) == {}
        assert serving.weights(None, r).source != "per run"
    assert serving.run_precisions(_runs("vLLM+Awq+4bit")) == {}  # one run: its name is the file's


def test_a_precision_the_file_states_stands_where_no_runs_name_gives_another():
    r = _runs("c=512, rate=inf", "NVFP4 Results")
    stated = serving.weights(None, r, ["nvidia/DeepSeek-R1-FP4"])  # the file names its weights fp4
    assert stated.source == "file" and stated.precision == "fp4"
    # the other way: a file-wide fp8 that the AWQ run's own name contradicts is no run's
    assert serving.weights(None, _runs("fp8 run", "vLLM+Awq+4bit"), ["Qwen/Qwen3-8B-FP8"]).source == "per run"
