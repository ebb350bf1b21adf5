"""The processes one command started (a loop's outputs, or processes started together, labelled
`L, process N` by their reader) are repeats of one load, never configurations compared at it; runs under
labels of their own at the same load still are configurations."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import serving
from benchbook.claims import serving as cs
from benchbook.presentation import wording


def _runs(labels: list[str]) -> pd.DataFrame:
    n = len(labels)
    return pd.DataFrame(
        {
            "run": labels,
            "model": [None] * n,
            "max_concurrency": [float("nan")] * n,
            "request_rate": [150.0] * n,
            "output_throughput": [15672.87, 6951.11, 6664.35][:n],
            "goodput_lo": [3.0, 2.0, 1.0][:n],
            "share_lo": [0.5] * n,
            "request_throughput": [30.5, 13.53, 12.97][:n],
        }
    )


def test_the_processes_of_one_command_are_one_load_with_repeats():
    procs = _runs([f"gptManagerBenchmark, process {i}" for i in (1, 2, 3)])
    lv = serving.per_load(procs)
    assert len(lv) == 1 and lv["n"].tolist() == [3] and not serving.one_load(lv)
    c = wording.word("serving_saturation", cs.goodput(procs))
    assert "configurations" not in c.evidence and "configurations compared" not in c.text


def test_runs_under_labels_of_their_own_at_one_load_stay_configurations():
    own = _runs(["run 1", "run 2", "run 3"])
    lv = serving.per_load(own)
    assert len(lv) == 3 and serving.one_load(lv)
    assert cs.goodput(own).evidence["configurations"] == 3
