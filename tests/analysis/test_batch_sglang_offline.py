"""SGLang bench_offline_throughput in batch_saturation: one point per run, its output rate from the run's
own totals where the print gives none, TP x DP devices, and a precision only where the run's label names it."""

from __future__ import annotations

import math

import pytest

from benchbook import config, ingest
from benchbook.analysis import batch
from benchbook.ingest import sglang_offline

FIX = config.FIXTURES_DIR / "sglang-bench-offline"
PR = FIX / "sglang_pr1968_bench_offline_throughput_engine_vs_runtime.md"
BLOCKS = FIX / "sglang_issue7352_qwen32b_bf16_vs_fp8_dp2_tp4_offline_excerpt.md"


def runs(path, names=None):
    return batch.offline_runs(ingest.read_all([path])[0], names).set_index("run")


def test_the_2024_print_gives_the_output_rate_from_its_totals():
    r = runs(PR).loc["before (engine)"]
    assert r["output_tok_s"] == pytest.approx(126886 / 28.642698895186186)
    assert r["total_tok_s"] == pytest.approx(12577.550785919339)
    assert math.isnan(r["batch_size"]) and math.isnan(r["requests"]) and math.isnan(r["devices"])


def test_the_block_gives_its_printed_rates_and_tp_times_dp_devices():
    r = runs(BLOCKS).loc["Qwen-32B(dp=2, tp=4)"]
    assert (r["output_tok_s"], r["total_tok_s"], r["requests"], r["request_rate"]) == (8790.08, 21965.67, 1000, 8.62)
    assert r["devices"] == 8


def test_a_precision_named_in_one_runs_label_is_not_the_others():
    stated = {BLOCKS.name: ("FP8",)}  # the file names FP8 (in the second label) and nothing else
    r = runs(BLOCKS, stated)
    assert r.loc["Qwen-32B-FP8(dp=2, tp=4)", "precision"] == "fp8"
    assert not isinstance(r.loc["Qwen-32B(dp=2, tp=4)", "precision"], str)  # not stated


def test_where_no_label_names_a_precision_the_files_is_every_runs():
    text = BLOCKS.read_text(encoding="utf-8").replace("Qwen-32B-FP8(dp=2, tp=4)", "second(dp=2, tp=4)")
    t = sglang_offline.parse(text, BLOCKS.name).table
    r = batch.offline_runs(t, {BLOCKS.name: ("FP8",)})
    assert set(r["precision"]) == {"fp8"}
