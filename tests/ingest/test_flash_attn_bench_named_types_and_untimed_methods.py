"""A method's data type is the one its name says (`cudnn_bf16`, `cudnn_fp8`: cuDNN frontend's copy of
benchmark_flash_attention.py, whose lines print TFLOP/s only), and where other methods name theirs an
unnamed one's type is not stated; flash-attention's own script keeps fp16. A method the FP8 script did not
time (`(skipped)`, `status: FAILED`, `failures: 24`) is no timing, and the run is said to have stopped short
of timing it (flash-attention issue 2639); a run whose every method printed says nothing of the kind."""

from __future__ import annotations

import pandas as pd

from benchbook.ingest import flash_attn_bench

BANNER = "### causal=False, headdim=128, batch_size=32, seqlen=512 ###\n"
CUDNN = (
    BANNER + "Pytorch fwd: 302.38 TFLOPs/s, bwd: 169.09 TFLOPs/s, fwd + bwd: 193.45 TFLOPs/s\n"
    "cudnn_bf16 fwd: 501.13 TFLOPs/s, bwd: 351.28 TFLOPs/s, fwd + bwd: 384.09 TFLOPs/s\n"
    "cudnn_fp8 fwd: 678.07 TFLOPs/s, bwd: 418.37 TFLOPs/s, fwd + bwd: 469.78 TFLOPs/s\n"
)
FA2 = BANNER + "Flash2 fwd: 308.40 TFLOPs/s, bwd: 243.05 TFLOPs/s, fwd + bwd: 258.71 TFLOPs/s\n"
FP8 = (
    "### causal=True, headdim=128, batch=1, seqlen=16384 ###\n"
    "Pytorch fwd: 47.24 TFLOPs/s, 23.274 ms\n"
    "FA4-CuTe-BF16 fwd: 1424.63 TFLOPs/s, 0.772 ms\n"
)
UNTIMED = "FA4-CuTe-FP8 fwd: (skipped)\nFA4-CuTe-FP8 status: FAILED\n\nFP8 failures: 24 (showing first 5)\n"


def _types(text):
    t = flash_attn_bench.parse(text, "x.txt").table
    return dict(zip(t["backend"], t["dtype"], strict=False))


def test_a_type_in_the_methods_name_is_its_type_and_an_unnamed_ones_is_not_stated():
    types = _types(CUDNN)
    assert types["cudnn_bf16"] == "bf16" and types["cudnn_fp8"] == "fp8"
    assert pd.isna(types["Pytorch"])


def test_flash_attentions_own_script_keeps_fp16():
    assert _types(FA2) == {"Flash2": "fp16"}


def test_a_skipped_or_failed_method_is_no_timing_and_the_run_stopped_short_of_it():
    parsed = flash_attn_bench.parse(FP8 + UNTIMED, "x.txt")
    assert set(parsed.table["backend"]) == {"Pytorch", "FA4-CuTe-BF16"}
    (msg,) = parsed.messages
    assert msg.startswith("warning: the run stopped short") and "line 4" in msg and "line 7" in msg


def test_a_run_that_timed_every_method_says_nothing_of_stopping():
    assert flash_attn_bench.parse(FP8, "x.txt").messages == []
