"""A change found in level leaves the stretches after (and before) it: one too short for the permutation test
to split at alpha, in which a step is beyond both runs' own spread, is said as the verdict's caveat; a stretch
long enough to be tested, or one whose steps are all inside the spread, is not."""

import math

import pandas as pd
import pytest

from benchbook.analysis import tracking
from benchbook.analysis.changes import change_points
from benchbook.claims import tracking as ct
from benchbook.presentation import wording


def series(values, std):
    n = len(values)
    return pd.DataFrame(
        {
            "position": range(n),
            "label": [f"r{k}" for k in range(1, n + 1)],
            "value": values,
            "std": [std] * n,
            "unit": ["tok/s"] * n,
        }
    )


def claims(values, std, alpha=0.05):
    runs = series(values, std)
    changes = change_points(runs["value"].to_numpy(), alpha=alpha)
    out = ct.build(runs, changes, tracking.steps(runs), alpha, "pp_rate", tracking.smallest_p(len(runs)))
    return [wording.word("tracking", c) for c in out]


def test_a_short_stretch_that_still_climbs_beyond_its_spread_is_the_caveat():
    # 4 flat runs, then 5 that climb 10 % a step: the test splits 4 + 5; 5 runs cannot reach p below 0.2
    c = claims([100.0, 100.5, 99.8, 100.2, 200.0, 220.0, 242.0, 266.0, 293.0], std=1.0)[0]
    assert c.shown and c.evidence["count"] == 1
    (u,) = c.evidence["untested"]
    assert (u["runs"], u["from_run"], u["to_run"]) == (5, "r5", "r9")
    assert u["smallest_p"] == pytest.approx(2 / math.comb(5, 2))
    assert c.caveat.startswith("The 5 runs from r5 to r9 are too few for the test to show another change at alpha")
    assert "moves from 200 to 293 tok/s across them" in c.caveat and c.text.endswith(c.caveat)


def test_a_short_stretch_whose_steps_sit_inside_the_spread_adds_no_caveat():
    c = claims([100.0, 100.5, 99.8, 100.2, 200.0, 201.0, 199.5, 200.5, 200.2], std=2.0)[0]
    assert c.shown and c.evidence["untested"] == [] and c.caveat == ""


def test_a_stretch_long_enough_to_test_adds_no_caveat_even_where_it_moves():
    # 10 runs after the change can reach p below 0.05: the test looked there (and found nothing more)
    after = [200.0, 203.0, 199.0, 204.0, 198.0, 203.5, 199.5, 204.5, 198.5, 203.0]
    c = claims([100.0, 100.0, 100.0, 100.0, *after], std=0.1)[0]
    assert tracking.smallest_p(len(after)) < 0.05
    assert c.shown and c.evidence["untested"] == [] and c.caveat == ""
