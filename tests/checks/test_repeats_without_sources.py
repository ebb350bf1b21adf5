"""A reproduction table without sources repeats no other file: every row is marked ""."""

import pandas as pd

from benchbook import checks


def test_rows_without_a_source_repeat_nothing():
    out = checks.repeats(pd.DataFrame({"tool": ["tgi", "tgi"], "published": [1.0, 1.0]}))
    assert out.tolist() == ["", ""]
