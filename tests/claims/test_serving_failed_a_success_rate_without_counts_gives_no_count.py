"""A success rate printed without any count of requests (llm-d's Inference-Perf Benchmark Report: successes /
(successes + failures), to 0.01 %) is said for what it gives: 100.00 % in every run means fewer than 0.005 % of
each run's requests failed, not that none did; a rate under 100 % means some failed, how many unknown. It never
sends the reader to a line that speaks of requests (the workload's set size), and a run whose output counts its
failures is said by its count."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.claims import serving as cs
from benchbook.presentation import wording

UNREAD = {
    "sent_status": "unread",
    "sent_line": 35,
    "sent_text": "S = 83 * 3 = 249 requests",
    "sent_words": "249 requests",
}


def _runs(rates, failed=np.nan):
    return pd.DataFrame(
        {
            "run": [f"x, QPS {i}" for i in range(len(rates))],
            "tool": "inference-perf",
            "completed": np.nan,
            "failed": failed,
            "success_rate": rates,
        }
    )


def test_every_run_at_100_percent_gives_fewer_than_a_share_not_none():
    text = wording.word("serving_saturation", cs.failed(_runs([100.0, 100.0, 100.0]), UNREAD)).text
    assert "all 3 runs print 100.00 %" in text and "fewer than 0.005 %" in text
    assert "whether none, is not known" in text
    assert "line 35" not in text and "249 requests" not in text


def test_a_run_under_100_percent_is_named_as_some_failed():
    text = wording.word("serving_saturation", cs.failed(_runs([100.0, 97.71, 99.5]), UNREAD)).text
    assert "2 of the 3 runs print less than 100.00 %" in text and "97.71 %" in text and "`x, QPS 1`" in text
    assert "some of their requests failed" in text


def test_without_a_success_rate_the_unread_line_is_still_named():
    r = _runs([np.nan, np.nan])
    text = wording.word("serving_saturation", cs.failed(r, UNREAD)).text
    assert "line 35" in text


def test_a_printed_failure_count_is_said_by_its_count():
    r = _runs([100.0, 100.0], failed=0.0).assign(completed=[10.0, 10.0])
    text = wording.word("serving_saturation", cs.failed(r, UNREAD)).text
    assert "none failed" in text and "success rate" not in text
