"""Tables for reading: no NaN, no index, no truncation."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.presentation.tables import show


def test_missing_values_index_and_every_row():
    df = pd.DataFrame({"tp": np.arange(300), "ms": [np.nan] + [1.23456] * 299, "gpu": [None] + ["A100"] * 299})
    html = show(df).to_html()
    assert "nan" not in html.lower() and "None" not in html
    assert "–" in html
    assert html.count("<tr>") == 301  # header + every row, nothing cut
    assert "rows ×" not in html
    assert 'class="row_heading' not in html and "blank level0" not in html


def test_number_formats():
    df = pd.DataFrame({"tok_s": [7803.37, 0.0123456, 45.31], "n": [1536, 2, 3]})
    html = show(df).to_html()
    assert "7,803" in html and "0.0123" in html and "45.3" in html and "1,536" in html
    assert "7803.37" not in html
