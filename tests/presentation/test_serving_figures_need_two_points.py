"""A serving figure is drawn only where it can compare something: one run is one point, so a single
load level with nothing kept apart gets no throughput curve, one run no latency trade-off and no
Pareto front (the sentence stands in their place); a latency no run prints gets no empty panel."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.presentation import serving as show
from benchbook.presentation import wording

FIGURE = wording.words("serving_saturation")["figure"]


def _runs(n: int, itl=np.nan) -> pd.DataFrame:
    xs = [1.0, 2.0, 4.0][:n]
    return pd.DataFrame(
        {
            "x": xs,
            "max_concurrency": xs,
            "model": ["m"] * n,
            "order": range(n),
            "output_throughput": [40.0, 70.0, 90.0][:n],
            "total_token_throughput": [80.0, 140.0, 180.0][:n],
            "ttft_mean": [1200.0, 1300.0, 1500.0][:n],
            "tpot_mean": [17.0, 18.0, 21.0][:n],
            "itl_mean": [itl] * n,
        }
    )


def test_one_run_draws_no_curve_no_trade_off_and_no_front():
    one = _runs(1)
    assert show.plot_saturation(one, one.iloc[0:0], "max_concurrency").benchbook_message == FIGURE["one_load"]
    assert show.plot_latency_tradeoff(one, "max_concurrency").benchbook_message == FIGURE["one_run_latency"]
    assert show.plot_pareto(one, "max_concurrency").benchbook_message == FIGURE["one_run_pareto"]


def test_two_runs_draw_each_figure_and_a_latency_no_run_prints_gets_no_panel():
    two = _runs(2)
    assert not hasattr(show.plot_saturation(two, two.iloc[0:0], "max_concurrency"), "benchbook_message")
    assert not hasattr(show.plot_pareto(two, "max_concurrency"), "benchbook_message")
    fig = show.plot_latency_tradeoff(two, "max_concurrency")
    assert [ax.get_title() for ax in fig.axes] == ["TTFT", "TPOT"]  # no ITL printed: no empty third panel
    with_itl = show.plot_latency_tradeoff(_runs(2, itl=16.0), "max_concurrency")
    assert [ax.get_title() for ax in with_itl.axes] == ["TTFT", "TPOT", "ITL"]
    blind = _runs(2).assign(ttft_mean=np.nan, tpot_mean=np.nan)
    assert show.plot_latency_tradeoff(blind, "max_concurrency").benchbook_message == FIGURE["no_latency"]


def test_latencies_given_with_no_statistic_named_are_said_to_be_printed_not_absent():
    """An authors' table's `TTFT (ms)` column (vllm-ascend's release tables, stop 50): no mean, median or p99
    to draw, but the page never says no run prints a TTFT; with no latency column at all it does."""
    named = _runs(2).assign(ttft_mean=np.nan, tpot_mean=np.nan, ttft=[374.4, 301.9])
    assert show.plot_latency_tradeoff(named, "max_concurrency").benchbook_message == FIGURE["unnamed_latency"]
    assert "no run prints" not in FIGURE["unnamed_latency"]
