"""A row that names no dtype (the BLOOM scripts' README of 2022 writes `accelerate`, `ds-zero` without one)
is no dtype with results: the input sentence lists the dtypes the rows name, and no blank among them."""

from __future__ import annotations

import pandas as pd

from benchbook.presentation import batch as show


def _sweep(dtypes: list[str]) -> pd.DataFrame:
    n = len(dtypes)
    return pd.DataFrame(
        {
            "model": ["bigscience/bloom"] * n,
            "framework": ["accelerate"] * n,
            "gpu": ["8xA100 80GB"] * n,
            "dtype": dtypes,
            "has_result": [True] * n,
            "batch_size": list(range(1, n + 1)),
        }
    )


def test_a_blank_dtype_is_not_listed():
    said = show.inputs_sentence("F", _sweep(["", "fp16", "int8"]))
    assert "dtypes with results: fp16, int8" in said and ": , " not in said


def test_named_dtypes_are_all_listed():
    assert "dtypes with results: bf16, fp16, int8" in show.inputs_sentence("F", _sweep(["bf16", "fp16", "int8"]))


def _alone(precision: str, assumed: bool) -> pd.DataFrame:
    """A vLLM bench latency run with no batch setting: a mean latency, no tok/s."""
    return pd.DataFrame(
        {
            "model": ["org/m"],
            "benchmark": ["latency"],
            "batch_size": [float("nan")],
            "output_len": [float("nan")],
            "output_tok_s": [float("nan")],
            "total_tok_s": [float("nan")],
            "latency_s": [1.07],
            "precision": [precision],
            "precision_assumed": [assumed],
        }
    )


def test_a_latency_runs_stated_dtype_is_a_dtype_with_a_result_and_an_assumed_one_is_not():
    empty = _sweep([]).assign(has_result=pd.Series(dtype=bool))
    assert "dtypes with results: fp16" in show.inputs_sentence("F", empty, _alone("fp16", False))
    assert "no dtype with a result" in show.inputs_sentence("F", empty, _alone("bf16", True))
