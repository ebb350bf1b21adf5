"""The lesson's closed-loop sentence calls a mean latency measured only where the output printed it:
an E2EL estimated from TTFT and TPOT (vLLM's older blocks print none) is said to be an estimate."""

import pandas as pd

from benchbook.analysis import serving
from benchbook.presentation import serving as show


def _lit(estimated):
    # W0 = 0.5 s at c=1, mu = 8 req/s at c=16: the knee at N* = 4, and c=8 (6 in flight) past it
    xs, rates, e2el = [1, 8, 16], [2.0, 6.0, 8.0], [0.5, 1.0, 1.5]
    return pd.DataFrame(
        {
            "model": ["org/m"] * 3,
            "run": [f"c={x}" for x in xs],
            "x": [float(x) for x in xs],
            "in_flight": [r * w for r, w in zip(rates, e2el, strict=True)],
            "request_rate_used": rates,
            "mean_e2el_s": e2el,
            "estimated": [estimated] * 3,
        }
    )


def test_an_estimated_mean_latency_is_said_to_be_estimated_not_measured():
    said = " ".join(show.queue_sentence(serving.queue_limits(_lit(True)), saturated=True).split())
    assert "W0 = 0.50 s per request (estimated from its TTFT and TPOT" in said
    assert "its mean latency, estimated from TTFT and TPOT, is 1.00 s" in said
    assert "measured 1.00 s" not in said


def test_a_printed_mean_latency_is_said_to_be_measured():
    said = " ".join(show.queue_sentence(serving.queue_limits(_lit(False)), saturated=True).split())
    assert "it measured 1.00 s" in said and "estimated" not in said
