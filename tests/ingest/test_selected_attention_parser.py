"""attention-gym's selected_attention_benchmark.py lines: each backend's time and TFLOP/s with the shape the
script prints above them, or its defaults where a paste dropped those lines (kept as a shape from the
script); the backend from the `[backend]` tag, else the author's label above the block, else none."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import selected_attention as sa

FULL = (
    "device: NVIDIA H100 80GB HBM3\n"
    "shape: B=4 H=16 S=2048 D=64 sparse_S=1024\n"
    "sparsity: topk=32 window=4096 share_kv=True dtype=float16\n"
    "[triton] forward: 1.000 ms  (2.00 TFLOP/s)\n"
    "[triton] backward: 2.000 ms  (2.00 TFLOP/s)\n"
    "[eager] forward: 10.000 ms  (0.20 TFLOP/s)\n"
    "\n"
    "speedup: 9.87x\n"
)
PASTE = "Triton:\n```\nforward: 3.538 ms  (80.12 TFLOP/s)\n```\nPerformance is now:\n```\nforward: 1.047 ms  (270.86 TFLOP/s)\n```\n"


def _t(text):
    return sa.parse(text, "s.md")


def test_the_printed_shape_and_sparsity_lines_give_the_shape_and_the_keys_each_query_attends():
    t = _t(FULL).table
    row = t[(t["backend"] == "triton") & (t["pass"] == "fwd")].iloc[0]
    assert [row[k] for k in ("batch", "heads", "seq_len", "d_head")] == [4, 16, 2048, 64]
    assert row["seq_len_kv"] == 32 + 2048  # the window is cut to S: min(4096, 2048)
    assert row["shape_from"] == "table" and row["dtype"] == "fp16"
    assert set(t["backend"]) == {"triton", "eager"} and set(t["pass"]) == {"fwd", "bwd"}


def test_a_paste_without_the_shape_lines_takes_the_scripts_defaults_as_a_shape_from_the_script():
    t = _t(PASTE).table
    assert set(t["shape_from"]) == {"script"} and set(t["dtype"]) == {"bf16"}
    assert set(t["seq_len_kv"]) == {sa.DEFAULTS["topk"] + sa.DEFAULTS["window"]}
    assert set(t["input"]) == {"B=8, H=32, S=4096, D=128, topk=16, window=512"}


def test_the_authors_label_above_the_fence_names_the_block_and_a_sentence_names_none():
    t = _t(PASTE).table
    assert t.drop_duplicates("line")["backend"].tolist() == ["Triton", "unlabelled (line 7)"]


def test_the_printed_tag_wins_over_a_label_above():
    t = _t("Eager:\n[triton] forward: 1.000 ms  (2.00 TFLOP/s)\n").table
    assert set(t["backend"]) == {"triton"}


def test_the_scripts_speedup_is_set_aside_as_a_separate_timing():
    p = _t(FULL)
    assert p.rejected["reason"].tolist() == [sa.SPEEDUP]
    assert p.table["value"].tolist()[:2] == [pytest.approx(1.0), pytest.approx(2.0)]


def test_text_without_its_lines_is_not_this_tools_output():
    assert not sa.sniff("forward pass: 3.5 ms\nTFLOP/s 80\n")
    with pytest.raises(ingest.ParseError):
        _t("nothing here\n")


def test_the_fixture_is_detected_as_this_tool_alone():
    for f in (config.FIXTURES_DIR / "attention-gym-selected").glob("*.md"):
        if f.name != "README.md":
            assert ingest.detect(ingest._load_text(f)) == [sa.NAME]
