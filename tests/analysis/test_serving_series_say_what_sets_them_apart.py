"""The page says what sets its series apart, from what tells them apart (`series_apart`), never a fixed
list: two builds of one server at one workload are other server settings, not other workloads."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import serving


def _runs(models, meta, in_tokens):
    n = len(models)
    return pd.DataFrame(
        dict(
            model=models,
            metadata=meta,
            completed=[100] * n,
            total_input_tokens=in_tokens,
            total_generated_tokens=[20000] * n,
        )
    )


def test_two_builds_at_one_workload_differ_by_a_setting_alone():
    r = _runs(["q/Q"] * 2, ["build=a", "build=b"], [10000] * 2)
    assert serving.series_apart(r) == dict(models=False, settings=["build"], datasets=False, workloads=False)


def test_other_models_and_workloads_are_said_where_they_differ():
    r = _runs(["q/Q", "q/R"], ["", ""], [10000, 400000])
    assert serving.series_apart(r) == dict(models=True, settings=[], datasets=False, workloads=True)
