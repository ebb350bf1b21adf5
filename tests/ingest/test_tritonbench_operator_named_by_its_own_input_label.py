"""A tritonbench table copied without its command line still names its operator where its input
column's label is one only that operator registers (`@register_x_val(label=...)`): flex_attention's
`(B, Hq, M, Hkv, N, D) | Mask Type`. A label two operators share names none."""

from __future__ import annotations

from benchbook.ingest import tritonbench

FLEX = """\
                 (B, Hq, M, Hkv, N, D) | Mask Type        compiled-latency    compiled-tflops
--------------------------------------------------  -------------------  -----------------
      (8, 16, 128, 16, 128, 128) |            noop   0.028768 (±70.75%)            37.47
"""

SHARED = """\
  (Batch, Heads, SeqLen, SeqLen_KV, Dhead)    flex_attention-latency
------------------------------------------  ------------------------
                     (4, 48, 128, 128, 64)        0.078788 (±70.82%)
"""


def test_flex_attentions_own_label_names_the_operator():
    parsed = tritonbench.parse(FLEX, "flex.md")
    assert set(parsed.table["op"]) == {"flex_attention"}
    assert parsed.table["causal"].isna().all()  # the mask is each row's, not --causal
    assert any("the flex_attention operator's alone" in m for m in parsed.messages)


def test_a_label_two_operators_register_names_none():
    # flash_attention and blackwell_attentions both label their inputs (Batch, Heads, SeqLen, SeqLen_KV, Dhead)
    parsed = tritonbench.parse(SHARED, "shared.md")
    assert parsed.table["op"].isna().all()
    assert any("operator, causal and pass unknown" in m for m in parsed.messages)
