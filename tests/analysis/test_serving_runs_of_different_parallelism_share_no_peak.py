"""Runs that state different parallelism (an authors' table's `TP x EP` column: 2x2, 4x4, 8x8) span different
device counts, so no one count and no one peak is theirs; a run that states none is left out of the counts
(its count is unknown, not 1), so one run at TP 4 beside a run that states nothing keeps its 4."""

from __future__ import annotations

import pandas as pd

from benchbook import hardware
from benchbook.analysis import roofline, serving
from benchbook.claims import rules


def _runs(*metadata) -> pd.DataFrame:
    return pd.DataFrame({"run": [f"r{i}" for i in range(len(metadata))], "metadata": list(metadata)})


def test_runs_stating_different_tp_share_no_peak():
    r = _runs("tp=2; ep=2", "tp=4; ep=4", "tp=8; ep=8")
    assert serving.device_counts(r) == [2, 4, 8]
    assert serving.spanning(roofline.of_device(hardware.device("MI300X"), "detected", 1), r) is None


def test_a_run_that_states_no_parallelism_is_left_out():
    r = _runs("backend=sglang; tp=4", "backend=sglang")
    assert serving.device_counts(r) == [4]
    assert serving.spanning(roofline.of_device(hardware.device("H20"), "detected", 1), r).count == 4


def test_the_reason_names_the_device_and_the_counts_never_no_device():
    pk = roofline.of_device(hardware.device("MI300X"), "detected", 1)
    said = serving.spans_said(pk, _runs("tp=2; ep=2", "tp=4; ep=4", "tp=8; ep=8"))
    why = rules.no_device_reason(said)
    assert why.startswith("the input names MI300X, but its runs span 2, 4 or 8 of them")
    assert "neither the input" not in why


def test_runs_of_one_count_or_no_device_give_no_spans_reason():
    assert serving.spans_said(roofline.of_device(hardware.device("H20"), "detected", 1), _runs("tp=4", "tp=4")) == {}
    assert serving.spans_said(None, _runs("tp=2", "tp=4")) == {}
