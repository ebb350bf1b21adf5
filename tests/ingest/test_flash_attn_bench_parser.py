"""flash-attention's benchmark scripts: each method's line under its shape banner, in the three print
forms the scripts use (TFLOP/s per pass; TFLOP/s and the forward's time; the time then TFLOP/s); a 0.00
TFLOP/s, the scripts' mark for a timing that failed, set aside; the head count from the banner where it
prints one, else the scripts' dim of 2048 over the head size."""

from __future__ import annotations

import re

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError, flash_attn_bench

FIX = config.FIXTURES_DIR / "flash-attn-benchmark"
FILES = sorted(p for p in FIX.iterdir() if p.suffix in (".md", ".txt") and p.name != "README.md")

FA2 = (
    "### causal=True, headdim=128, batch_size=2, seqlen=1024 ###\n"
    "Flash2 fwd: 100.00 TFLOPs/s, bwd: 80.00 TFLOPs/s, fwd + bwd: 85.00 TFLOPs/s\n"
    "Pytorch fwd: 0.00 TFLOPs/s, bwd: 0.00 TFLOPs/s, fwd + bwd: 0.00 TFLOPs/s\n"
)
FP8 = "### causal=False, headdim=64, batch_size=4, seqlen=512 ###\nFlash3 fwd: 300.50 TFLOPs/s, 0.25 ms,\nPytorch fwd: 30.00 TFLOPs/s, 2.5 ms,\n"
ATTN = (
    "### headdim = 64, causal = False, seqlen = 2048, batch_size = 8, nheads = 12, nheads_kv = 12, varlen = False ###\n"
    "FAv2 fwd: 0.500ms, 400.1 TFLOPS\n[2CTA] FA Python bwd: 1.250ms, 400.0 TFLOPS\n"
)


def _parse(text):
    return flash_attn_bench.parse(text, "t.txt")


def _value(t, backend, pass_, metric):
    return t[(t["backend"] == backend) & (t["pass"] == pass_) & (t["metric"] == metric)]["value"].tolist()


def test_the_three_passes_of_a_flashattention_2_line_are_three_tflops_figures():
    t = _parse(FA2).table
    assert _value(t, "Flash2", "fwd", "tflops") == [100.0]
    assert _value(t, "Flash2", "bwd", "tflops") == [80.0]
    assert _value(t, "Flash2", "fwd_bwd", "tflops") == [85.0]
    assert set(t["line"]) == {2} and set(t["causal"]) == {"causal"} and set(t["dtype"]) == {"fp16"}
    assert (t["batch"].iat[0], t["seq_len"].iat[0], t["d_head"].iat[0]) == (2, 1024, 128)


def test_a_zero_tflops_is_a_failed_timing_set_aside_with_its_reason():
    p = _parse(FA2)
    assert p.cells_read == 6 and len(p.table) == 3 and len(p.rejected) == 3
    assert set(p.rejected["reason"]) == {flash_attn_bench.ZERO} and set(p.rejected["line"]) == {3}
    assert "Pytorch" not in set(p.table["backend"])
    kept = _parse(FA2.replace("Pytorch fwd: 0.00", "Pytorch fwd: 0.01"))  # any other figure is a measurement
    assert _value(kept.table, "Pytorch", "fwd", "tflops") == [0.01]


def test_the_fp8_scripts_line_gives_the_forwards_time_and_its_data_types():
    t = _parse(FP8).table
    assert _value(t, "Flash3", "fwd", "latency") == [0.25] and _value(t, "Flash3", "fwd", "tflops") == [300.5]
    assert set(t["pass"]) == {"fwd"}
    assert dict(zip(t["backend"], t["dtype"], strict=False)) == {"Flash3": "fp8", "Pytorch": "bf16"}


def test_a_method_of_the_fp8_script_named_bf16_is_its_bf16_baseline():
    # flash_attn/cute/benchmark_flash_attention_fp8.py times FA4-CuTe-BF16 on torch.bfloat16 tensors beside
    # its FP8 methods: the method's name, not the script's, is the row's precision
    cute = (
        "### causal=False, headdim=128, nheads=32, batch=1, seqlen=8192 ###\n"
        "FA4-CuTe-BF16 fwd: 1802.23 TFLOPs/s, 0.610 ms\n"
        "FA4-CuTe-FP8 fwd: 2500.00 TFLOPs/s, 0.440 ms\n"
        "cuDNN-FP8 fwd: 2400.00 TFLOPs/s, 0.458 ms\n"
    )
    t = _parse(cute).table
    assert dict(zip(t["backend"], t["dtype"], strict=False)) == {
        "FA4-CuTe-BF16": "bf16",
        "FA4-CuTe-FP8": "fp8",
        "cuDNN-FP8": "fp8",
    }


def test_heads_come_from_the_banner_else_from_the_scripts_dim():
    printed = _parse(ATTN).table
    assert set(printed["heads"]) == {12} and set(printed["shape_from"]) == {"table"}
    assert _value(printed, "[2CTA] FA Python", "bwd", "latency") == [1.25]
    assert _value(printed, "FAv2", "fwd", "tflops") == [400.1]
    derived = _parse(FP8).table
    assert set(derived["heads"]) == {2048 // 64} and set(derived["shape_from"]) == {"script"}


def test_text_without_a_banner_is_refused_in_one_sentence():
    with pytest.raises(ParseError, match="no flash-attention benchmark line"):
        _parse("Flash2 fwd: 100.00 TFLOPs/s, bwd: 80.00 TFLOPs/s, fwd + bwd: 85.00 TFLOPs/s\n")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_figure_on_a_method_line_is_kept_or_rejected(path):
    (p,) = ingest.read_parsed(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    figures = sum(
        ln.count("TFLOPs/s")
        + ln.count(" TFLOPS")
        + ln.count(" ms,")
        + ln.count("ms, ")
        + bool(re.search(r"\d ms$", ln.rstrip()))  # the CuTe FP8 script ends its line with the time
        for ln in lines
        if " fwd: " in ln
        or " bwd: " in ln
        or re.match(r"[^:]+: [0-9.]+ms, [0-9.]+ TFLOPS$", ln)  # a mode banner's lines
    )
    assert p.tool == flash_attn_bench.NAME and p.cells_read == len(p.table) + len(p.rejected) == figures


def test_no_other_tools_fixture_is_taken_for_a_flash_attention_run():
    others = [
        f
        for d in config.FIXTURES_DIR.iterdir()
        if d.is_dir() and d.name != FIX.name
        for f in d.iterdir()
        if f.is_file() and f.name != "README.md" and not f.name.endswith(".truth.yml")
    ]
    taken = [f.name for f in others if flash_attn_bench.sniff(f.read_text(encoding="utf-8", errors="replace"))]
    assert taken == []
    assert all(ingest.detect(f.read_text(encoding="utf-8")) == [flash_attn_bench.NAME] for f in FILES)


MODE = (
    "### mode = 'bwd', batch_size = 2, headdim = 64, seqlen = 2048, causal = True ###\n"
    "Fav2: 1.210ms, 71.0 TFLOPS\nCuDNN varlen: 0.790ms, 108.7 TFLOPS\n"
)


def test_the_2024_hopper_banner_names_the_pass_of_each_method_line_under_it():
    t = _parse(MODE).table
    assert set(t["pass"]) == {"bwd"} and set(t["backend"]) == {"Fav2", "CuDNN varlen"}
    assert set(t["dtype"]) == {"fp16"} and set(t["heads"]) == {2048 // 64}
    assert t.loc[(t["backend"] == "Fav2") & (t["metric"] == "latency"), "value"].tolist() == [1.21]
    assert "mode" not in t["input"].iat[0]  # the pass is its own column
    assert ingest.detect(MODE) == [flash_attn_bench.NAME]


def test_a_method_line_without_its_pass_is_not_read_under_a_banner_that_names_no_mode():
    bare = MODE.replace("mode = 'bwd', ", "")
    assert ingest.detect(bare) == []
    with pytest.raises(ParseError):
        _parse(bare)


TWO_RUNS = (
    "RTX 4090\n```\n### causal=False, headdim=64, batch_size=32, seqlen=512 ###\nFlash2 fwd: 150.90 TFLOPs/s,\n"
    "### causal=False, headdim=64, batch_size=16, seqlen=1024 ###\nFlash2 fwd: 154.49 TFLOPs/s,\n```\n\n"
    "7900 XTX\n\n```\n### causal=False, headdim=64, batch_size=32, seqlen=512 ###\nFlash2 fwd: 42.98 TFLOPs/s\n```\n"
)


def test_a_banner_met_again_begins_another_run_named_by_the_label_above_it():
    t = _parse(TWO_RUNS).table
    assert _value(t, "Flash2 (RTX 4090)", "fwd", "tflops") == [150.90, 154.49]
    assert _value(t, "Flash2 (7900 XTX)", "fwd", "tflops") == [42.98]
    # two runs pasted with no label above them are numbered
    bare = re.sub(r"(?m)^(RTX 4090|7900 XTX)\n", "", TWO_RUNS)
    assert sorted(_parse(bare).table["backend"].unique()) == ["Flash2 (run 1)", "Flash2 (run 2)"]


def test_a_file_of_one_run_keeps_the_methods_own_names_under_a_label():
    one = TWO_RUNS.split("\n\n7900 XTX")[0]
    assert set(_parse(one).table["backend"]) == {"Flash2"}


def test_a_banner_value_that_holds_an_equals_sign_is_kept_whole():
    shape = flash_attn_bench._banner("causal=True, headdim=128, batch_size=2, seqlen=512, note=a=b")
    assert shape["causal"] == "causal" and shape["input"].endswith("note=a=b")
