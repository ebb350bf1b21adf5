"""Runs their reader marks as repeats (`c=32, repeat 2`: the vLLM reader's blocks a script's repeated command
printed one under another) share every setting the input states: repeats of one load, whose spread is that
load's noise, never configurations ranked at it. Runs it only counts (`c=32 #2`: a change the log may not
print) stay configurations, and a build named above the results parts the runs into series."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import serving
from benchbook.presentation import serving as show


def _runs(labels: list[str], metadata: list[str] | None = None) -> pd.DataFrame:
    n = len(labels)
    return pd.DataFrame(
        {
            "run": labels,
            "model": ["Qwen/Qwen3.5-9B"] * n,
            "max_concurrency": [32.0] * n,
            "request_rate": [float("inf")] * n,
            "metadata": metadata or [None] * n,
            "output_throughput": [4069.25, 4040.98, 4146.21, 4039.40, 3929.40, 3985.12][:n],
        }
    )


def test_runs_marked_as_repeats_at_one_load_are_its_repeats():
    counted = _runs(["c=32, rate=inf", "c=32, rate=inf, repeat 2", "c=32, rate=inf, repeat 3"])
    lv = serving.per_load(counted)
    assert lv["n"].tolist() == [3] and not serving.one_load(lv)
    said = show.spread_sentence(counted)
    assert "3 runs, 4,041 to 4,146 tok/s of output (mean 4,085, standard deviation 54)" in said


def test_runs_only_counted_stay_configurations_with_no_spread():
    own = _runs(["c=32, rate=inf", "c=32, rate=inf #2", "c=32, rate=inf #3"])
    lv = serving.per_load(own)
    assert lv["n"].tolist() == [1, 1, 1] and serving.one_load(lv)
    assert show.spread_sentence(own) == ""


def test_two_builds_are_two_series_each_with_its_spread():
    names = ["c=32, rate=inf", "c=32, rate=inf, repeat 2", "c=32, rate=inf, repeat 3"]
    names += ["c=32, rate=inf #4", "c=32, rate=inf #4, repeat 2", "c=32, rate=inf #4, repeat 3"]
    builds = ["build=last_precompiled (4e5ca89)"] * 3 + ["build=postprocess_skip (b199bb3)"] * 3
    runs = _runs(names, builds)
    assert serving.series_key(runs).nunique() == 2 and serving.per_load(runs)["n"].tolist() == [3, 3]
    said = show.spread_sentence(runs)
    assert "postprocess_skip (b199bb3)), run `c=32, rate=inf #4` and its repeats: 3 runs, 3,929 to 4,039 tok/s" in said
