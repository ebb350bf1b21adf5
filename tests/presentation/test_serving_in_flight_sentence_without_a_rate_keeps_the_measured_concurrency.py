"""A run whose request rate the parser set aside (GuideLLM's one-decimal `0.0` req/s) still has the
tool's measured concurrency: the in-flight sentence says that run's requests in flight without a rate,
and keeps every other run's rate (synthetic runs, values made up)."""

import numpy as np
import pandas as pd

from benchbook.presentation import serving as show


def _lit(rates):
    n = len(rates)
    return pd.DataFrame(
        {
            "run": [f"r{i}" for i in range(n)],
            "in_flight": [1.0] * n,
            "in_flight_measured": [True] * n,
            "request_throughput": rates,
            "request_rate_used": rates,
        }
    )


def test_a_run_without_a_rate_is_said_with_its_measured_concurrency_only():
    said = " ".join(show.in_flight_sentence(_lit([0.1, np.nan])).split())
    assert "Run `r0`: 0.1 req/s, 1 request in flight on average (the tool's measurement)" in said
    assert "run `r1`: 1 request in flight on average (the tool's measurement)" in said
    assert "nan" not in said.lower() and "0 req/s" not in said


def test_runs_with_rates_are_said_with_them():
    said = " ".join(show.in_flight_sentence(_lit([0.1, 0.7])).split())
    assert "Run `r0`: 0.1 req/s" in said and "run `r1`: 0.7 req/s" in said
