"""tritonbench tables in the attention chapter: TFLOP/s by the operator's FLOPs rule, checked against
the printed ones, and the fastest backend per input (analysis.attention_tritonbench)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import attention_tritonbench as tb
from benchbook.ingest import tritonbench

FIX = config.FIXTURES_DIR / "tritonbench"


def _table(text: str):
    return tb.table(tritonbench.parse(text, "t.txt").table.assign(tool=tb.TOOL, source="t.txt"))


def test_the_rule_gives_the_printed_tflops_of_a_real_h100_run():
    t = tb.table(ingest.read(FIX / "tritonbench_pr2296_h100_flash_attention_tflops.md"))
    r = t[(t["input"] == "1024") & (t["backend"] == "sdpa")].iloc[0]
    assert (r["batch"], r["heads"], r["d_head"], r["shape_from"]) == (128, 8, 128, "command line")
    assert r["flops"] == 4 * 128 * 8 * 1024 * 1024 * 128
    assert r["tflops"] == pytest.approx(287.457, rel=1e-4) and r["tflops_from"] == "recomputed"
    assert t["agrees"].eq(True).all()


def test_causal_halves_and_backward_multiplies_by_two_and_a_half():
    f = tb.flops("flash_attention", None, "non-causal", 2, 4, 1024, np.nan, 64)
    assert tb.flops("flash_attention", None, "causal", 2, 4, 1024, np.nan, 64) == f / 2
    assert tb.flops("flash_attention", "bwd", "non-causal", 2, 4, 1024, np.nan, 64) == 2.5 * f
    assert np.isnan(tb.flops("gemm", None, "non-causal", 2, 4, 1024, np.nan, 64))  # no rule for another operator
    assert np.isnan(tb.flops("flash_attention", None, None, 2, 4, 1024, np.nan, 64))  # causal not known


HEAD = "  SeqLen    a-latency    b-latency\n--------  -----------  -----------\n"
TFLOPS = "  SeqLen    a-latency    b-latency    a-tflops\n--------  -----------  -----------  ----------\n"


def test_a_shape_from_the_command_is_used_only_where_printed_tflops_confirm_it():
    cmd = "$ python run.py --op flash_attention --batch 4 --n-heads 8 --d-head 64\n"
    t = _table(cmd + HEAD + "    1024          1.0          2.0\n")
    assert t["tflops"].isna().all() and (t["tflops_from"] == "").all()
    f = 4 * 4 * 8 * 1024 * 1024 * 64 / 1e-3 / 1e12
    wrong = _table(cmd + TFLOPS + f"    1024          1.0          2.0  {2 * f:10.3f}\n")
    a = wrong[wrong["backend"] == "a"].iloc[0]
    assert a["agrees"] is False and a["tflops"] == pytest.approx(2 * f, rel=1e-3) and a["tflops_from"] == "printed"


def test_the_fastest_backend_and_how_much_faster_per_input():
    t = _table("$ python run.py --op flash_attention\n" + HEAD + "    1024          1.0          2.0\n")
    fa = tb.fastest(t).iloc[0]
    assert (fa["fastest"], fa["slowest"], fa["ratio"], fa["margin"]) == ("a", "b", 2.0, 2.0)
    one = _table(
        "$ python run.py --op flash_attention\n  SeqLen    a-latency\n--------  -----------\n    1024          1.0\n"
    )
    assert tb.fastest(one).empty  # one backend: nothing to compare
    # still a table of the fastest's columns, for the page's table and its sentences to read
    assert list(tb.fastest(one).columns) == list(tb.fastest(t).columns)
    assert list(tb.fastest(one).columns)[3:] == [
        "pass",
        "seq_len",
        "fastest",
        "tied",
        "fastest_ms",
        "slowest",
        "slowest_ms",
        "ratio",
        "margin",
        "by",
    ]


def test_backends_that_print_the_same_lowest_time_tie_and_no_one_is_the_fastest():
    t = _table("$ python run.py --op flash_attention\n" + HEAD + "    1024          1.0          1.0\n")
    fa = tb.fastest(t).iloc[0]
    assert (fa["fastest"], bool(fa["tied"]), fa["ratio"]) == ("a and b", True, 1.0)
    # the other way: a lower time by the last printed digit is the fastest, alone
    one = tb.fastest(_table("$ python run.py --op flash_attention\n" + HEAD + "    1024          1.0          1.1\n"))
    assert (one.iloc[0]["fastest"], bool(one.iloc[0]["tied"])) == ("a", False)


# --- flash-attention's benchmark scripts, read by the same rule ---------------------------------


def _flash(text: str):
    from benchbook.ingest import flash_attn_bench

    return tb.table(flash_attn_bench.parse(text, "f.txt").table.assign(tool=tb.FLASH, source="f.txt"))


def test_a_forward_and_backward_together_is_credited_three_and_a_half_forwards():
    f = tb.flops("flash_attention", "fwd", "non-causal", 2, 4, 1024, np.nan, 64)
    assert tb.flops("flash_attention", "fwd_bwd", "non-causal", 2, 4, 1024, np.nan, 64) == 3.5 * f


def test_a_flash_attention_forward_time_gives_its_printed_tflops_by_the_rule():
    # 4 x 4 x 32 x 512^2 x 64 FLOP = 8.59e9; in 0.02863 ms that is 300.0 TFLOP/s
    t = _flash("### causal=False, headdim=64, batch_size=4, seqlen=512 ###\nFlash3 fwd: 300.00 TFLOPs/s, 0.02863 ms,\n")
    r = t.iloc[0]
    assert r["flops"] == 4 * 4 * 32 * 512 * 512 * 64 and r["tflops_from"] == "recomputed" and bool(r["agrees"])
    wrong = _flash(
        "### causal=False, headdim=64, batch_size=4, seqlen=512 ###\nFlash3 fwd: 150.00 TFLOPs/s, 0.02863 ms,\n"
    )
    w = wrong.iloc[0]  # the script's dim was edited: the printed figure stands, the pieced shape is not used
    assert not w["agrees"] and w["tflops"] == 150.0 and w["tflops_from"] == "printed"


def test_without_latencies_the_fastest_is_the_highest_printed_tflops_per_input_and_pass():
    t = _flash(
        "### causal=True, headdim=64, batch_size=2, seqlen=1024 ###\n"
        "A fwd: 100.00 TFLOPs/s, bwd: 20.00 TFLOPs/s, fwd + bwd: 30.00 TFLOPs/s\n"
        "B fwd: 50.00 TFLOPs/s, bwd: 40.00 TFLOPs/s, fwd + bwd: 45.00 TFLOPs/s\n"
    )
    fa = tb.fastest(t).set_index("pass")
    assert (fa.loc["fwd", "fastest"], fa.loc["fwd", "ratio"], fa.loc["fwd", "by"]) == ("A", 2.0, "printed TFLOP/s")
    assert (fa.loc["bwd", "fastest"], fa.loc["bwd", "ratio"]) == ("B", 2.0)
    assert fa.loc["fwd_bwd", "fastest"] == "B"


def test_a_failed_timing_is_listed_from_the_set_aside_report():
    from benchbook.ingest import flash_attn_bench

    p = flash_attn_bench.parse(
        "### causal=True, headdim=64, batch_size=2, seqlen=1024 ###\n"
        "A fwd: 1.00 TFLOPs/s, bwd: 1.00 TFLOPs/s, fwd + bwd: 1.00 TFLOPs/s\n"
        "Pytorch fwd: 0.00 TFLOPs/s, bwd: 0.00 TFLOPs/s, fwd + bwd: 0.00 TFLOPs/s\n",
        "f.txt",
    )
    f = tb.failed(p.rejected)
    assert f["backend"].tolist() == ["Pytorch"] * 3 and f["pass"].tolist() == ["fwd", "bwd", "fwd_bwd"]
    assert set(f["line"]) == {3}
    assert tb.failed(p.rejected.iloc[0:0]).empty


def test_a_table_with_no_rows_at_all_gives_the_columns_and_no_row():
    for empty in (pd.DataFrame(), pd.DataFrame({"tool": ["vllm-serve"], "metric": ["ttft"], "value": [1.0]})):
        t = tb.table(empty)
        assert t.empty and list(t.columns) == tb._COLUMNS


def test_the_margin_is_the_next_fastest_over_the_fastest_not_the_slowest():
    three = "  SeqLen    a-latency    b-latency    c-latency\n--------  -----------  -----------  -----------\n"
    t = _table("$ python run.py --op flash_attention\n" + three + "    1024          1.0          1.5          3.0\n")
    fa = tb.fastest(t).iloc[0]
    assert (fa["fastest"], fa["slowest"], fa["ratio"], fa["margin"]) == ("a", "c", 3.0, 1.5)


def test_an_input_one_backend_timed_is_left_out_and_the_inputs_after_it_are_compared():
    def tidy(text, source):
        return tritonbench.parse(text, source).table.assign(tool=tb.TOOL, source=source)

    cmd = "$ python run.py --op flash_attention\n"
    one = tidy(cmd + "  SeqLen    a-latency\n--------  -----------\n    1024          1.0\n", "one.txt")
    two = tidy(cmd + HEAD + "    1024          1.0          2.0\n", "two.txt")
    assert tb.fastest(tb.table(pd.concat([one, two], ignore_index=True)))["source"].tolist() == ["two.txt"]
