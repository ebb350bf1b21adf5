"""No run keeps more requests in flight than it had: where a printed rate x mean latency (Little's law)
exceeds the run's completed + failed requests by more than REQUESTS_TOLERANCE, the figures cannot
both describe it (`over_requests`), and the count is used for no load; a run whose count is within
it, or whose count the output does not give, is not flagged."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.analysis import serving


def _runs(completed, failed=np.nan):
    return pd.DataFrame(
        {
            "run": ["a"],
            "request_throughput": [0.76],
            "e2el_mean": [13123.11],
            "completed": [completed],
            "failed": [failed],
            "duration": [np.nan],
            "max_concurrency": [np.nan],
            "num_prompts": [np.nan],
            "total_generated_tokens": [np.nan],
            "ttft_mean": [np.nan],
            "tpot_mean": [np.nan],
        }
    )


def test_one_request_cannot_keep_ten_in_flight():
    out = serving.littles_law(_runs(1.0))
    assert bool(out["over_requests"].iloc[0]) and out["requests_had"].iloc[0] == 1


def test_a_count_that_holds_the_in_flight_figure_is_not_flagged():
    assert not serving.littles_law(_runs(10.0))["over_requests"].iloc[0]
    assert not serving.littles_law(_runs(9.0, 1.0))["over_requests"].iloc[0]  # failed requests were in flight too


def test_no_count_printed_flags_nothing():
    assert not serving.littles_law(_runs(np.nan))["over_requests"].iloc[0]
