"""ik_llama.cpp's `-ser Kmin,t` (its `ser` column): a token takes its top Kmin experts and the others the model
routes only where their router probability exceeds t x the top one's (ikawrakow/ik_llama.cpp#239), so with
t > 0 an MoE row may read fewer bytes than its active parameters: the page's bandwidth is an upper bound.
t = 0 is the model's own routing, and a row without the column ran without it."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import bandwidth
from benchbook.claims import bandwidth as bandwidth_claims


def test_a_ser_with_a_threshold_reduces_the_experts():
    assert bandwidth.experts_reduced({"extra_settings": "amb=512, ser=4,1, rtr=1, fmoe=1"}) == (4, 1.0)
    assert bandwidth.experts_reduced({"extra_settings": "ser=5,0.4"}) == (5, 0.4)


def test_a_zero_threshold_or_no_ser_column_keeps_the_models_routing():
    assert bandwidth.experts_reduced({"extra_settings": "amb=512, ser=4,0, rtr=1"}) is None
    assert bandwidth.experts_reduced({"extra_settings": "amb=512, rtr=1"}) is None
    assert bandwidth.experts_reduced({"extra_settings": None}) is None


def _row(arch: str) -> pd.Series:
    return pd.Series(
        dict(fraction_of_peak=None, architecture=arch, extra_settings="ser=4,1", line=43, bytes_per_token=8.24e9)
    )


def test_only_an_moe_rows_claim_carries_the_reduction():
    assert bandwidth_claims.fraction(_row("moe"), "bw_1").evidence["experts_reduced"] == [4, 1.0]
    assert bandwidth_claims.fraction(_row("dense"), "bw_1").evidence["experts_reduced"] == []
