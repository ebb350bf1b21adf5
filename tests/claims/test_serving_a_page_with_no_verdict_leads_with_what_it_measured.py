"""A serving page whose curve decides no trend (too few loads per series, several series) still measured a
throughput: the growth claim, withheld, states the highest a run measured (`best_y`, with its run and series; an
authors' `Throughput (tok/s)` said as named neither output nor total), so the box leads with it
(`rules.states_figure`), never "supports none of the chapter's verdicts". And "the output format records no
request throughput" is said of a run only where the run has none, not from the format's declared columns alone."""

from __future__ import annotations

import dataclasses
import math

import pandas as pd

from benchbook.claims import rules
from benchbook.claims import serving as cs
from benchbook.presentation import wording


def _curve(xs, models, **cols) -> pd.DataFrame:
    n = len(xs)
    return pd.DataFrame(
        {
            "source": ["f"] * n,
            "run": [f"c={x}" for x in xs],
            "model": models,
            "max_concurrency": [float(x) for x in xs],
            "request_rate": [math.inf] * n,
            "x": [float(x) for x in xs],
            **cols,
        }
    )


def test_several_series_with_a_named_throughput_lead_with_the_highest():
    curve = _curve(
        [1, 16, 1024, 4096],
        ["M-2x2", "M-2x2", "M-8x8", "M-8x8"],
        output_throughput=[None] * 4,
        throughput=[65.0, 486.0, 4301.0, 8344.0],
    )
    c = wording.word("serving_saturation", cs.growth(curve, "max_concurrency"))
    assert c.status == "withheld" and "measured_y" not in c.evidence
    assert c.text.startswith(
        "The highest throughput a run measured is 8,344 tok/s (the table names it neither output nor total), "
        "run `c=4096` of M-8x8"
    )
    assert rules.states_figure(dataclasses.asdict(c))


def test_two_loads_of_one_series_lead_with_their_highest_output_throughput():
    c = wording.word("serving_saturation", cs.growth(_curve([1, 2], ["m", "m"], output_throughput=[10.0, 20.0]), "x"))
    assert c.evidence["best_y"] == 20.0 and c.evidence["best_series"] is None
    assert c.text.startswith("The highest throughput a run measured is 20 tok/s of output, run `c=2`;")
    assert rules.states_figure(dataclasses.asdict(c))


def test_runs_that_measured_no_throughput_state_no_figure():
    c = cs.growth(_curve([1, 2], ["m", "m"], output_throughput=[None, None]), "x")
    assert "best_y" not in c.evidence and not rules.states_figure(dataclasses.asdict(c))


def _lit(rate) -> pd.DataFrame:
    """One capped run of an authors' table (a format that declares no request throughput), with no latency."""
    return pd.DataFrame(
        {
            "run": ["c=16"],
            "tool": ["sglang-bench-serving"],
            "format": ["authors' table"],
            "max_concurrency": [16.0],
            "in_flight": [math.nan],
            "utilisation": [math.nan],
            "request_throughput": [rate],
        }
    )


def test_no_request_throughput_is_said_only_of_a_run_that_has_none():
    none = wording.word("serving_saturation", cs.underfilled(_lit(math.nan)))
    assert none.evidence["no_throughput"] == 1
    assert none.text.startswith("The output format records no request throughput")
    has = wording.word("serving_saturation", cs.underfilled(_lit(3.2)))  # its table's own `Req/s` column
    assert has.evidence["no_throughput"] == 0 and "records no request throughput" not in has.text


def test_a_run_kept_apart_from_an_empty_curve_gives_the_figure():
    """A run with no load to place on the curve (a table whose log is another workload's) still measured one."""
    run = _curve([1], ["m"], output_throughput=[520.87]).assign(max_concurrency=[math.nan], run=["genai-perf"])
    c = wording.word("serving_saturation", cs.growth(run.iloc[0:0], "max_concurrency", run))
    assert c.text.startswith("The highest throughput a run measured is 521 tok/s of output, run `genai-perf`;")
    assert rules.states_figure(dataclasses.asdict(c))
