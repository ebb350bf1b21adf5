"""sdpa.py times scaled_dot_product_attention with no mask, causal or not: the work tritonbench's
flash_attention rule counts (4 x B x H x M x N x D forward, half of it causal, 2.5 times it backward), so
its rows get recomputed TFLOP/s; score_mod.py's rows (masks of their own) keep none."""

from __future__ import annotations

import pytest

from benchbook.analysis import attention_tritonbench as tb


@pytest.mark.parametrize(
    ("op", "causal", "expected"),
    [
        (tb.SDPA_OPERATOR, "non-causal", 4 * 16 * 256 * 256 * 128),
        (tb.SDPA_OPERATOR, "causal", 2 * 16 * 256 * 256 * 128),
        (None, "non-causal", None),
    ],
)
def test_sdpa_rows_are_counted_by_the_attention_rule_and_score_mod_rows_are_not(op, causal, expected):
    f = tb.flops(op, "fwd", causal, 1, 16, 256, 256, 128)
    assert f == pytest.approx(expected) if expected else f != f  # NaN: no rule for score_mod.py's own rows
