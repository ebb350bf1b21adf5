"""Where the attention chapter's input has no attention-gym table (a flash-attention or tritonbench
file), each figure that is not drawn is replaced by a sentence about that figure: "No attention-gym
forward rows in this input." sat right after "This input holds no attention-gym section.", one
absence said twice. On the seed every figure is drawn and no such sentence stands."""

from __future__ import annotations

import matplotlib.pyplot as plt

from benchbook.chapter import setup
from benchbook.topics import attention_kernels as topic

WHY = ("why_no_tflops", "why_no_speedup", "why_no_roof")


def _page(source: str):
    page = topic.page(topic.analyse(setup("attention_kernels", {"source": source})))
    plt.close("all")
    return page


def test_a_file_without_attention_gym_rows_says_per_figure_what_is_not_drawn():
    page = _page("tests/fixtures/flash-attn-benchmark/fa_issue1310_h20_fa3_benchmark_attn_ms_tflops_excerpt.md")
    said = [page.markdown[k] for k in WHY]
    assert all(s.startswith(("No figure:", "No roofline figure:")) for s in said), said
    assert len(set(said)) == 3 and page.texts["shape_words"] not in said


def test_the_seed_draws_every_figure_and_says_no_such_sentence():
    page = _page("data/raw/rtx_pro_6000/004_6d4f73623fb8afcd.txt")
    assert [page.markdown[k] for k in WHY] == ["", "", ""]
