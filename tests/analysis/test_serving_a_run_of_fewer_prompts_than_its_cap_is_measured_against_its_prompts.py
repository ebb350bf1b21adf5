"""A run of n prompts never holds more than n requests in flight, whatever its concurrency cap: the most it
could hold is the fewer of the cap and the prompts (the printed prompts, else those it counted, each
completed or failed), and its in-flight share is taken of that (`littles_law`'s `nominal`,
`prompts_below_cap`). A run with more prompts than its cap is still measured against its cap, and a run
above its cap is judged against the cap itself (`cap_share`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.analysis import serving
from benchbook.claims import serving as claims
from benchbook.presentation import wording


def _runs(cap, prompts=np.nan, completed=100.0, rate=2.5714, e2el_ms=36967.5):
    return pd.DataFrame(
        {
            "run": ["a"],
            "request_throughput": [rate],
            "e2el_mean": [e2el_ms],
            "completed": [completed],
            "failed": [0.0],
            "duration": [np.nan],
            "max_concurrency": [cap],
            "num_prompts": [prompts],
            "total_generated_tokens": [np.nan],
            "ttft_mean": [np.nan],
            "tpot_mean": [np.nan],
            "estimated": [False],
        }
    )


def test_a_cap_of_128_over_100_completed_prompts_is_measured_against_100():
    # real: TonyLi15's PD-separated SGLang run, 100 prompts at --max-concurrency 128, 95.1 in flight
    lit = serving.littles_law(_runs(128.0))
    assert bool(lit["prompts_below_cap"].iat[0]) and lit["nominal"].iat[0] == 100
    assert abs(lit["utilisation"].iat[0] - 0.9506) < 1e-3
    c = claims.underfilled(lit)
    assert c.evidence["count"] == 0 and c.evidence["bound"] == 1
    text = " ".join(wording.word("serving_saturation", c).text.split())
    assert "its prompts, fewer than its cap, are the most it could hold" in text


def test_printed_prompts_come_before_the_count():
    lit = serving.littles_law(_runs(1024.0, prompts=1.0, completed=1.0, rate=0.0445, e2el_ms=22470.0))
    assert lit["nominal"].iat[0] == 1 and lit["utilisation"].iat[0] > 0.99


def test_more_prompts_than_the_cap_keep_the_cap():
    lit = serving.littles_law(_runs(128.0, prompts=1000.0, completed=1000.0))
    assert not bool(lit["prompts_below_cap"].iat[0]) and lit["nominal"].iat[0] == 128
    c = claims.underfilled(lit)
    assert c.evidence["count"] == 1 and c.evidence["cap"] == 128 and c.evidence["prompts"] is None
    assert c.evidence["bound"] == 0


def test_an_underfilled_run_of_few_prompts_says_them():
    lit = serving.littles_law(_runs(128.0, prompts=100.0, rate=1.0))  # 37 in flight of 100
    c = claims.underfilled(lit)
    assert c.evidence["count"] == 1 and c.evidence["prompts"] == 100
    text = " ".join(wording.word("serving_saturation", c).text.split())
    assert "for a cap of 128 and 100 prompts, which can hold no more than 100 (37% of 100)" in text


def test_over_the_cap_is_judged_against_the_cap_not_the_prompts():
    lit = serving.littles_law(_runs(8.0, prompts=10.0, completed=10.0, rate=1.0, e2el_ms=9500.0))
    assert lit["cap_share"].iat[0] > 1.1
    assert claims.underfilled(lit).evidence["over"] == 1
