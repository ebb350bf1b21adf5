"""A llama-bench layer split (`-sm layer`, the default) gives each GPU a run of consecutive layers and a
token passes through them in turn, so their bandwidths do not add: a dense read above one GPU's peak
then says the model is not dense (or its bytes per token are not its file), never "several GPUs whose
bandwidths add"; a row split reads every GPU at once, and there the suspect stays. Real case: MiniMax
`?B` on eight V100s, 29.53 tok/s x 142.96 GB = 4,222 GB/s against 900 GB/s."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook.analysis import bandwidth
from benchbook.claims import bandwidth as claims


def _row(sm: str | None, listed: int | None) -> pd.Series:
    extra = f"sm={sm}" if sm else ""
    return pd.Series({"extra_settings": extra, "gpus_listed": listed})


@pytest.mark.parametrize(
    ("sm", "listed", "turns"),
    [(None, 8, 8), ("layer", 4, 4), ("row", 8, None), ("none", 8, None), (None, 1, None), (None, None, None)],
)
def test_a_layer_split_over_several_gpus_reads_them_in_turn(sm, listed, turns):
    assert bandwidth.in_turn(_row(sm, listed)) == turns


def _point(sm: str | None, turns: int | None) -> pd.Series:
    return pd.Series(
        {
            "extra_settings": f"sm={sm}" if sm else "",
            "in_turn": turns,
            "peak_source": "detected",
            "device": "V100-SXM2-32GB",
            "architecture": "dense",
            "offload": "full",
        }
    )


def test_bandwidths_that_add_are_a_suspect_of_a_row_split_never_of_a_layer_split():
    layer = claims.suspects(_point(None, 8))
    assert not any("bandwidths add" in s for s in layer)
    assert any("MoE model counted as dense" in s for s in layer)
    row = claims.suspects(_point("row", None))
    assert any("row split reads every GPU at once and their bandwidths add" in s for s in row)
