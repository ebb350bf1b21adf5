"""A device the input names once, with no count of it and no parallelism of its runs stated, is taken as one
device; but where the model's weights (total parameters x the bytes the input states) exceed that device's
memory, the run spans several, a count the input does not give: no one peak is the run's (`unfit_said`). Where
the weights fit, a count is stated, or the precision is only assumed, nothing changes."""

from __future__ import annotations

import pandas as pd

from benchbook import hardware
from benchbook.analysis import roofline, serving
from benchbook.analysis.precision import Weights

B200 = roofline.of_device(hardware.device("B200"), "detected")
FP8 = Weights("fp8", 1.0, "name")
RUN = pd.DataFrame({"run": ["c=10"], "metadata": ["backend=sglang"]})


def test_weights_one_b200_cannot_hold_give_no_one_peak_and_say_the_fewest_devices():
    said = serving.unfit_said(B200, RUN, 235.1, FP8, counted=False)
    assert said == {"device_unfit": "B200-180GB", "unfit_weights": "235", "unfit_memory": "180", "unfit_fewest": 2}


def test_weights_that_fit_one_device_keep_it():
    assert serving.unfit_said(B200, RUN, 30.5, FP8, counted=False) == {}


def test_a_stated_count_or_parallelism_is_the_runs_whatever_the_weights():
    assert serving.unfit_said(B200, RUN, 235.1, FP8, counted=True) == {}
    tp = pd.DataFrame({"run": ["c=10"], "metadata": ["backend=sglang; tp=1"]})
    assert serving.unfit_said(B200, tp, 235.1, FP8, counted=False) == {}


def test_an_assumed_precision_is_not_the_files_and_decides_nothing():
    assert serving.unfit_said(B200, RUN, 235.1, Weights("bf16", 2.0, "assumed"), counted=False) == {}
    assert serving.unfit_said(B200, RUN, float("nan"), FP8, counted=False) == {}
