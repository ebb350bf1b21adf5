"""A TGI table of one TP has no speed-up to draw, but its measurements are the file's: section 1 shows
each batch size's Average and Lowest to Highest per phase, says why an empty cell is empty (a NaN row:
no run recorded), and leaves out a phase no row prints. With two TPs or more the figure shows them."""

from __future__ import annotations

import math

import pandas as pd

from benchbook.presentation import tp as view


def _rows(tp: int, bs: int, metric: str, mean, lo, hi, note=None) -> dict:
    return dict(tp=tp, batch_size=bs, metric=metric, mean=mean, min=lo, max=hi, note=note)


W = pd.DataFrame(
    [
        _rows(1, 1, "prefill_latency", 68.31, 65.68, 71.48),
        _rows(1, 1, "decode_token_latency", 26.01, 25.99, 26.04),
        _rows(1, 32, "prefill_latency", math.nan, math.nan, math.nan, "NaN: no runs were recorded for this batch size"),
        _rows(1, 32, "decode_token_latency", 27.5, 27.0, 28.0),
    ]
)


def test_one_tp_table_gives_each_phase_average_and_range_per_batch():
    table, why = view.measured_table(W)
    assert list(table.columns) == [
        "TP",
        "batch size",
        "prefill (ms)",
        "prefill lowest to highest (ms)",
        "decode (ms per token)",
        "decode lowest to highest (ms)",
    ]  # no decode throughput printed: no column for it
    first = table.iloc[0]
    assert (first["prefill (ms)"], first["prefill lowest to highest (ms)"]) == (68.31, "65.68 to 71.48")
    assert first["decode (ms per token)"] == 26.01
    assert math.isnan(table.iloc[1]["prefill (ms)"]) and why.iloc[1]["prefill (ms)"].startswith("a NaN in the table")
    assert table.iloc[1]["decode (ms per token)"] == 27.5 and why.iloc[1]["decode (ms per token)"] is None


def test_the_sentence_points_at_the_table_only_where_there_is_one():
    assert "What it measured at that TP" in view.one_tp_sentence([1], measured=True)
    assert "What it measured" not in view.one_tp_sentence([1], measured=False)
    assert "What it measured" not in view.one_tp_sentence([], measured=False)
