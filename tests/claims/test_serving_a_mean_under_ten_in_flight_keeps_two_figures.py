"""The fewest requests a capped run held in flight is said to two significant figures under ten, never rounded
to a whole request: a mean of 0.806 read as `1 requests in flight ... for a cap of 4 (20%)` contradicted both the
file (qps 0.18015 x mean E2EL 4.47329 s) and the share beside it (stop 60, half cl: an InferenceX agentic
point at concurrency 4; the same rounding made a GuideLLM run's 2.41 of 8 read `2 ... (30%)`)."""

import pandas as pd
import pytest

from benchbook.claims import serving as cs
from benchbook.presentation import wording


def _text(in_flight: float, cap: float) -> str:
    lit = pd.DataFrame(
        {
            "run": ["a"],
            "max_concurrency": [cap],
            "in_flight": [in_flight],
            "utilisation": [in_flight / cap],
            "estimated": [False],
        }
    )
    return wording.word("serving_saturation", cs.underfilled(lit)).text


@pytest.mark.parametrize(
    ("in_flight", "cap", "said"),
    [
        (0.806, 4.0, "0.81 requests in flight on average for a cap of 4 (20%)"),
        (2.41, 8.0, "2.4 requests in flight on average for a cap of 8 (30%)"),
    ],
)
def test_a_mean_under_ten_requests_keeps_two_significant_figures(in_flight, cap, said):
    assert said in _text(in_flight, cap)


def test_a_mean_of_ten_or_more_requests_is_a_whole_number():
    assert "53 requests in flight on average for a cap of 128 (41%)" in _text(52.7, 128.0)
