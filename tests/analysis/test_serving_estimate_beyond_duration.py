"""An estimated mean E2EL (mean TTFT + mean TPOT x (mean output - 1)) longer than the run's own duration is
not the run's mean latency: every request the tool times begins and ends inside the run, so no in-flight
count is taken from it (real: sglang issue 1639, 41.2 s estimated for a 34.55 s run of 2,000 requests)."""

from __future__ import annotations

import math

import pandas as pd

from benchbook.analysis import serving
from benchbook.presentation import serving as show


def _run(duration: float) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "run": ["SGLang"],
            "request_throughput": [57.89],
            "completed": [2000.0],
            "duration": [duration],
            "total_generated_tokens": [376493.0],
            "ttft_mean": [4878.89],
            "tpot_mean": [194.03],
            "max_concurrency": [math.nan],
            "num_prompts": [2000.0],
        }
    )


def test_an_estimate_longer_than_the_run_is_not_used():
    out = serving.littles_law(_run(34.55))
    assert out["estimate_beyond_duration"].tolist() == [True] and out["estimated"].tolist() == [True]
    assert out["in_flight"].isna().all() and out["mean_e2el_s"].isna().all()
    assert math.isclose(out["e2el_estimate_s"].iat[0], 41.2, rel_tol=1e-2)
    text = show.beyond_sentence(out)
    assert "longer than the run itself (34.55 s)" in text and "no in-flight count" in text


def test_an_estimate_inside_the_run_is_used():
    out = serving.littles_law(_run(60.0))
    assert out["estimate_beyond_duration"].tolist() == [False] and out["estimated"].tolist() == [True]
    assert math.isclose(out["in_flight"].iat[0], 57.89 * out["mean_e2el_s"].iat[0])
    assert show.beyond_sentence(out) == ""


def test_an_estimate_inside_the_printed_durations_rounding_is_used():
    """A duration printed as 5.68 s may be up to 5.685 s: an estimate of 5.683 s is not beyond it (real:
    the 857 in / 64 out run of dennislee22's gpt-oss-120b sweep)."""
    r = _run(5.68).assign(
        completed=[100.0],
        total_generated_tokens=[6400.0],
        ttft_mean=[1000.0],
        tpot_mean=[74.339],
        request_throughput=[17.6],
    )
    out = serving.littles_law(r)
    assert out["estimate_beyond_duration"].tolist() == [False] and out["in_flight"].notna().all()
