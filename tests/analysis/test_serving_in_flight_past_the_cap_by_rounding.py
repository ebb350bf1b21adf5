"""A cap bounds the requests in flight: where a printed rate x mean latency (Little's law) passes the cap
only within the rate's printed rounding (MLPerf LoadGen prints SingleStream's rate to two decimals), the rate
is that rounding of one at most cap / latency, and the count is the cap; a rate past it by more than its
rounding, or a run with no cap, keeps the printed rate."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from benchbook.analysis import serving


def _run(rate, cap):
    # the wan-2.2 SingleStream summary: QPS w/ loadgen overhead 0.05, mean latency 20,353.78 ms, one query at a time
    return serving.littles_law(
        pd.DataFrame(
            {
                "run": ["SingleStream"],
                "request_throughput": [rate],
                "e2el_mean": [20_353.776572],
                "completed": [np.nan],
                "failed": [np.nan],
                "duration": [np.nan],
                "max_concurrency": [cap],
                "num_prompts": [np.nan],
                "total_generated_tokens": [np.nan],
                "ttft_mean": [np.nan],
                "tpot_mean": [np.nan],
            }
        )
    ).iloc[0]


def test_a_rate_past_the_cap_only_by_its_rounding_keeps_the_count_at_the_cap():
    row = _run(0.05, 1.0)  # 0.05 x 20.35 s = 1.02 in flight, over a cap of 1 by the rounding of 0.0491
    assert row["request_rate_used"] == pytest.approx(1 / 20.353776572)
    assert row["in_flight"] == pytest.approx(1.0) and row["utilisation"] == pytest.approx(1.0)


def test_a_rate_past_the_cap_by_more_than_its_rounding_is_kept():
    row = _run(0.06, 1.0)  # 0.055 at least, over the 0.0491 a cap of 1 allows
    assert row["request_rate_used"] == pytest.approx(0.06)
    assert row["in_flight"] == pytest.approx(0.06 * 20.353776572)


def test_a_rate_with_no_cap_is_kept():
    assert _run(0.05, np.nan)["in_flight"] == pytest.approx(0.05 * 20.353776572)
