"""Goodput bounds of 0 and 100 % hold of any run: a page draws no table of them and says why once
(#34, stop 46: a trtllm-bench run with no latency percentile printed a table of 0 to 100 %)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.analysis import serving
from benchbook.presentation import serving as show


def run(**cols):
    d = dict(run="r", completed=100.0, failed=0.0, request_throughput=1.0)
    d.update(cols)
    return pd.DataFrame([d])


def test_bounds_with_a_percentile_say_something_and_bounds_without_one_do_not():
    told = serving.goodput_bounds(run(ttft_p99=200.0, tpot_p99=20.0), 450.0, 40.0)
    assert serving.goodput_bounded(told).tolist() == [True]  # at least 98 %
    over = serving.goodput_bounds(run(ttft_median=900.0), 450.0, 40.0)
    assert serving.goodput_bounded(over).tolist() == [True]  # at most 50 %
    blind = serving.goodput_bounds(run(ttft_mean=300.0), 450.0, 40.0)
    assert serving.goodput_bounded(blind).tolist() == [False]  # a mean bounds no share


def test_a_page_whose_every_bound_is_vacuous_says_so_and_one_with_a_bound_does_not():
    blind = serving.goodput_bounds(run(ttft_mean=300.0), 450.0, 40.0)
    said = show.goodput_source(None, blind)
    assert "Here they are 0 and 100 % of the requests for every run" in said and "no table is drawn" in said
    told = serving.goodput_bounds(run(ttft_p99=200.0, tpot_p99=20.0), 450.0, 40.0)
    assert "no table is drawn" not in show.goodput_source(None, told)
    half = serving.goodput_bounds(run(ttft_p99=200.0, tpot_p99=np.nan), 450.0, 40.0)  # TTFT alone: 0 to 100 %
    assert "no table is drawn" in show.goodput_source(None, half)
