"""Issue #27's evidence classes on the serving page: facts the file states reach the claims, and a
sentence about what the output lacks rests on what the parser looked for. Each on synthetic runs
where the verdict comes out both ways."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.analysis import serving
from benchbook.claims import serving as cs
from benchbook.presentation import serving as show


def run(completed, failed=np.nan, **cols):
    """One run's row as `serving.runs` gives it: every percentile well inside the default SLOs."""
    d = dict(run="r", completed=completed, failed=failed, request_throughput=completed / 100.0)
    d.update(ttft_median=100.0, ttft_p99=200.0, tpot_median=10.0, tpot_p99=20.0)
    d.update(cols)
    return pd.DataFrame([d])


# --- failed requests (class 2) --------------------------------------------------------------------


def test_a_run_where_every_request_failed_proves_no_share_within_the_slos():
    ok = serving.goodput_bounds(run(100, 0), 450.0, 40.0).iloc[0]
    assert ok["share_lo"] == 0.98  # p99 of both within the SLOs: at least 98 %
    dead = serving.goodput_bounds(run(0, 20, request_throughput=0.0), 450.0, 40.0).iloc[0]
    assert dead["share_lo"] == 0 and dead["share_hi"] == 0 and dead["goodput_lo"] == 0


def test_half_the_requests_failing_halves_the_share_not_the_goodput():
    half = serving.goodput_bounds(run(10, 10), 450.0, 40.0).iloc[0]
    assert half["share_lo"] == 0.49 and half["share_hi"] == 0.5
    assert half["goodput_lo"] == 0.98 * 0.1  # completed per second x the share among the completed


def test_failed_requests_are_said_and_none_failed_only_where_the_output_counts_them():
    c = show.say(cs.failed(run(10, 10)))
    assert c.status == "shown" and "10 requests failed beside the 10 that completed" in c.text
    c = show.say(cs.failed(run(250, 0)))
    assert c.status == "withheld" and "250 requests completed and none failed" in c.text
    c = show.say(cs.failed(run(900)))  # a 2024 block: no `Failed requests` line
    assert c.status == "withheld" and "none failed" not in c.text and "prints no count of failed" in c.text
