"""Rows that list no devices (a sweep-bench or markdown llama-bench table) are on one device where the file
around them names one device and counts none (`my setup (RTX-4080 in a Ryzen-5975WX box)`); a name that lists
several, or no name at all, leaves a default layer split spreading over every GPU the build sees."""

from __future__ import annotations

import pandas as pd
import pytest
from test_llama_bench_analysis import _rows

from benchbook.analysis import bandwidth


@pytest.mark.parametrize(
    ("gpu", "listed", "one"),
    [
        ("RTX-4080", pd.NA, True),
        ("RTX 3090, RTX 3090", pd.NA, False),
        ("RTX 3090 and RTX 4090", pd.NA, False),
        (None, pd.NA, False),
        ("RTX 3090", 2, False),  # the file counts two: a layer split spreads over both
    ],
)
def test_one_device_named_with_no_count_is_one_device(gpu, listed, one):
    every = bandwidth.generation_rows(pd.DataFrame(_rows(gpu=gpu, gpus_listed=listed, backend=None)))
    assert bandwidth.one_device(every) is one
