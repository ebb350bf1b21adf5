"""The closed-loop limits (`serving.queue_limits`) of a series that spans two loads, and none for one."""

import pandas as pd
import pytest

from benchbook.analysis import serving


def _lit(xs, rates, e2el):
    n = len(xs)
    return pd.DataFrame(
        {
            "model": ["org/m"] * n,
            "run": [f"c={x}" for x in xs],
            "x": [float(x) for x in xs],
            "in_flight": [r * w for r, w in zip(rates, e2el, strict=True)],
            "request_rate_used": rates,
            "mean_e2el_s": e2el,
        }
    )


def test_two_loads_are_enough_for_the_closed_loop_limits():
    q = serving.queue_limits(_lit([1, 4], [2.0, 5.0], [0.5, 0.8]))
    # W0 = the lowest load's 0.5 s, mu = the most completed 5 req/s, N* = 5 x 0.5 = 2.5 in flight
    assert q["w0_s"] == 0.5 and q["w0_run"] == "c=1"
    assert q["mu"] == 5.0 and q["mu_run"] == "c=4" and q["mu_in_flight"] == pytest.approx(4.0)
    assert q["knee_in_flight"] == 2.5
    assert q["x"] == [1.0, 4.0] and q["latency_s"] == [0.5, 0.8]
    assert q["runs"] == ["c=1", "c=4"] and q["rate"] == [2.0, 5.0]


def test_one_load_has_no_closed_loop_limits():
    assert serving.queue_limits(_lit([2, 2], [2.0, 2.1], [0.5, 0.5])) == {}


def test_the_closed_loop_grows_with_the_load_until_its_capacity_then_only_waits():
    # W0 0.5 s, mu 8 req/s: the knee at N* = 4; below it N / W0 req/s at W0, above it mu at N / mu
    tput, lat = serving.closed_loop([1, 4, 16], 0.5, 8.0)
    assert tput.tolist() == [2.0, 8.0, 8.0] and lat.tolist() == [0.5, 0.5, 2.0]
