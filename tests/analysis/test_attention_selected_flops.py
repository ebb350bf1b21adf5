"""The selected-attention FLOPs rule (attention-gym's `useful_flops`): 4 x B x H x S x kv x D forward, twice
that backward, no causal halving; a shape from the script's defaults stands only where the printed
TFLOP/s confirm it."""

from __future__ import annotations

import math

import pytest

from benchbook.analysis import attention_tritonbench as tb
from benchbook.ingest import selected_attention as sa


def test_forward_and_backward_flops_of_selected_attention():
    f = tb.flops(sa.OPERATOR, "fwd", None, 8, 32, 4096, 528, 128)
    assert f == 4 * 8 * 32 * 4096 * 528 * 128
    assert tb.flops(sa.OPERATOR, "bwd", None, 8, 32, 4096, 528, 128) == 2 * f
    assert math.isnan(tb.flops(sa.OPERATOR, "fwd", None, 8, 32, 4096, None, 128))


def _table(text):
    return tb.table(sa.parse(text, "s.md").table)


def test_the_defaults_are_used_where_the_printed_tflops_confirm_them():
    row = _table("forward: 3.538 ms  (80.12 TFLOP/s)\n").iloc[0]
    assert row["tflops_from"] == "recomputed" and bool(row["agrees"])
    assert row["tflops"] == pytest.approx(80.12, rel=1e-3)


def test_the_defaults_are_not_used_where_the_printed_tflops_say_another_shape_ran():
    row = _table("forward: 3.538 ms  (40.00 TFLOP/s)\n").iloc[0]
    assert row["tflops_from"] == "printed" and row["tflops"] == 40.0
