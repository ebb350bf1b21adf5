"""Where an output lets the page know the failures of some of its runs only, the count it gives is of those
runs, and the sentence says how many of how many they are: `(in the 1 of 2 runs whose failures are known)`,
never the ungrammatical and unanchored `(of the 1 runs ...)`."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.claims import serving as cs
from benchbook.presentation import wording


def test_one_of_two_runs_known():
    r = pd.DataFrame(
        [
            dict(run="this PR", completed=500.0, failed=0.0, failed_implied=True),
            dict(run="main", completed=500.0, failed=np.nan, failed_implied=False),
        ]
    )
    text = wording.word("serving_saturation", cs.failed(r)).text
    assert "500 requests completed and none failed (in the 1 of 2 runs whose failures are known)" in text
    assert "of the 1 runs" not in text
