"""Small analysis helpers the chapters share: figure gluing, prose numbers, the fraction-of-peak and
elasticity rules, the TP-fit reconciliation and the chapter path parameters."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from benchbook import chapter, config
from benchbook.analysis import pareto, quant, roofline, serving, tp  # noqa: E402
from benchbook.presentation.plotting import glue_figure  # noqa: E402


def test_glue_figure_closes_the_figure():
    fig, ax = plt.subplots()
    ax.plot([1, 2], [3, 4])
    glue_figure("fig_test", fig)
    assert fig.number not in plt.get_fignums()


def test_fmt():
    assert chapter.fmt(None) == "n/a"
    assert chapter.fmt(float("nan"), ".1%") == "n/a"
    assert chapter.fmt(float("inf")) == "n/a"
    assert chapter.fmt(0.956, ".1%") == "95.6%"
    assert chapter.fmt(400.0, ".0f", " W") == "400 W"


def test_fraction_of_peak():
    # peak 100 at x=8; 95 % of it is first reached at x=4 (smallest x), NaN skipped
    x = [8, 1, 4, 2, 16]
    y = [100, 10, 96, np.nan, 99]
    assert x[pareto.fraction_of_peak(x, y, 0.95)] == 4
    assert x[pareto.fraction_of_peak(x, y, 1.0)] == 8
    with pytest.raises(ValueError):
        pareto.fraction_of_peak(x, y, 1.5)
    with pytest.raises(ValueError):
        pareto.fraction_of_peak([1, 2], [np.nan, np.nan], 0.9)


def test_elasticity_knee_and_falls():
    x, y = [32, 64, 128, 256], [100, 180, 200, 150]
    el = serving.elasticities(x, y)
    assert el[0] == pytest.approx(0.8) and el[-1] < 0
    assert serving.knee(x, y, 0.25) == 64
    r = pd.DataFrame(
        {
            "max_concurrency": [32, 64, 128, 256, np.nan],  # the uncapped run is kept apart, not a step
            "request_rate": [np.inf] * 5,
            "num_prompts": [1000] * 5,
            "output_throughput": y + [50],
            "model": ["m"] * 5,
        }
    )
    kn = serving.knees(r, "max_concurrency", 0.25).iloc[0]
    assert kn["n_steps"] == 3 and kn["n_falls"] == 1 and kn["diminishing"]
    assert serving.knee(x, y) == 64  # the default threshold is 0.25: 0.8 then 0.11 times the load's rise


def test_knees_are_listed_per_series_in_the_order_the_input_gives_them():
    y = [100, 180, 200, 150]
    one = dict(max_concurrency=[32, 64, 128, 256], request_rate=[np.inf] * 4, num_prompts=[1000] * 4)
    zeta = pd.DataFrame(one | {"output_throughput": y, "model": ["zeta"] * 4})
    alpha = pd.DataFrame(one | {"output_throughput": y, "model": ["alpha"] * 4})
    # a series of one load has no step, and is no reason to stop before the series after it
    lone = pd.DataFrame(one | {"output_throughput": y, "model": ["lone"] * 4}).iloc[:1]
    kn = serving.knees(pd.concat([zeta, lone, alpha], ignore_index=True), "max_concurrency", 0.25)
    assert kn["series"].tolist() == ["zeta", "alpha"] and kn["knee"].tolist() == [64, 64]


def test_fit_optimum_against_the_measured_tps():
    fit = tp.ScalingFit(a=29.0, b=2.0, c=10.0, a_err=0, b_err=0, c_err=0, n_points=4, dof=1)
    assert fit.tp_optimum == pytest.approx(math.sqrt(14.5))
    assert fit.nearest_measured([1, 2, 4, 8]) == 4
    flat = tp.ScalingFit(a=29.0, b=0.0, c=10.0, a_err=0, b_err=0, c_err=0, n_points=4, dof=1)
    assert flat.nearest_measured([1, 2, 4, 8]) == 8


def test_ran_last_before_failure():
    w = pd.DataFrame(
        {
            "metric": ["prefill_latency"] * 4,
            "section": ["TP 2"] * 4,
            "tp": [2] * 4,
            "batch_size": [4, 8, 16, 32],
            "mean": [10.0, 20.0, 80.0, np.nan],
        }
    )
    assert tp.ran_last_before_failure(w, 2, "TP 2", 16)
    assert not tp.ran_last_before_failure(w, 2, "TP 2", 8)
    assert not tp.ran_last_before_failure(w.iloc[:3], 2, "TP 2", 16)  # nothing failed after it


def test_timestamp_outliers():
    flag = pd.DataFrame(
        {
            "regime": ["base", "base", "long"],
            "scheme": ["a", "b", "b"],
            "metric": ["output_throughput", "latency", "output_throughput"],
            "value": [1500.0, 2.0, 10.0],
            "others_median": [4000.0, 1.0, 5.0],
        }
    )
    ts = quant.timestamp_outliers(flag)
    assert ts[("base", "a")] and not ts[("base", "b")] and not ts[("long", "b")]
    assert quant.timestamp_outliers(flag.iloc[0:0]).empty


def test_achieved_bandwidth():
    assert roofline.achieved_bandwidth_gb_s(2e9, 0.01) == pytest.approx(200.0)


def test_folder_parameters_resolve_project_relative():
    out = chapter.resolve_inputs("data/raw", "raw_dir")
    assert out == [config.RAW_DIR] and config.relative(out[0]) == "data/raw"
    with pytest.raises(chapter.ParameterError, match="does not exist"):
        chapter.resolve_inputs("/nonexistent", "raw_dir")


def test_two_steps_of_the_same_elasticity_do_not_diminish():
    # elasticities 0.5, 0.5 (10 -> 15 -> 22.5 over doublings), then 1/9: not falling at every step
    r = pd.DataFrame(
        {
            "max_concurrency": [1, 2, 4, 8],
            "request_rate": [np.inf] * 4,
            "num_prompts": [1000] * 4,
            "output_throughput": [10.0, 15.0, 22.5, 25.0],
            "model": ["m"] * 4,
        }
    )
    kn = serving.knees(r, "max_concurrency", 0.25).iloc[0]
    assert kn["n_steps"] == 3 and not kn["diminishing"]
