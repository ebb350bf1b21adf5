"""The attention chapter's logic, run without a notebook: on its seed (attention-gym on an RTX PRO
6000 Blackwell) and on real attention-gym fixtures, with known answers recomputed from the
benchmark's shape and the printed times, and for each rule a case where it comes out the other way."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook.analysis import attention
from benchbook.chapter import setup
from benchbook.claims import attention as claims
from benchbook.presentation import bottom_line, exercises, placement
from benchbook.topics import attention_kernels as topic

SEED = "data/raw/rtx_pro_6000/004_6d4f73623fb8afcd.txt"
TRACEBACK = "tests/fixtures/attention-gym/w7900_rocm_traceback.md"
NOOP = "tests/fixtures/attention-gym/rtx4090_flex_attn_noop.md"
AOTRITON = "tests/fixtures/attention-gym/strix_halo_aotriton_bench.md"


def run(source: str, **params):
    return topic.analyse(setup("attention_kernels", {"source": source, **params}))


@pytest.fixture(scope="module")
def seed():
    return run(SEED)


def test_each_mask_density_counted_from_its_tiles_is_the_one_attention_gym_printed(seed):
    d = seed.densities.set_index("mask")
    # n = 8192 / 128 = 64 tiles per side
    assert d.loc["causal_mask", "derived"] == pytest.approx(65 / 128)  # n(n+1)/2 / n^2
    assert d.loc["sliding_window_1024", "derived"] == pytest.approx((36 + 56 * 9) / 64**2)
    assert d.loc["prefix_lm_causal_mask_1024", "derived"] == pytest.approx((64 * 65 / 2 + 8 * 7 / 2) / 64**2)
    assert d.loc["alibi_mod", "derived"] == 1.0
    assert pd.isna(d.loc["doc_mask_mod", "derived"])  # set by the documents drawn: not from the name
    derived = d[d["derived"].notna()]
    assert ((derived["derived"] - derived["printed"]).abs() < 5e-5).all()


def test_a_name_that_does_not_fix_the_tiles_gets_no_density():
    assert attention.block_density("doc_mask_mod", 32768) is None
    assert attention.block_density("random_mask", 8192) is None
    assert attention.block_density("causal_mask", 8192)[1] != attention.block_density("causal_mask", 1024)[1]


def test_attention_flops_are_four_b_h_s_squared_d_forward():
    assert attention.dense_flops("fw", 8192) == 4 * 16 * 16 * 8192**2 * 64
    assert attention.dense_flops("bw", 8192) == 2.5 * attention.dense_flops("fw", 8192)


def test_the_bottom_line_gives_the_sparsest_gain_and_how_the_printed_tflops_mislead(seed):
    picked = [c["id"] for c in bottom_line.pick(seed.ledger)]
    assert picked == ["flex_sparsest", "sdpa_printed"]
    ev = seed.ledger.get("sdpa_printed").evidence
    assert ev["mask"] == "doc_mask_mod"
    assert ev["ratio"] == pytest.approx(1 / ev["density"], rel=0.01)  # performed / printed = 1 / density
    assert round(ev["b"], 2) == 5.68


def test_printed_and_performed_tflops_are_not_called_different_where_nothing_is_skipped():
    """The other way: a dense section (density 1) prints what it performs."""
    sp = pd.DataFrame({"mask": ["alibi_mod"], "pass": ["fw"], "density": [0.99], "flex_vs_sdpa": [1.2], "order": [0]})
    k = pd.DataFrame(
        {"operation": ["sdpa_mask"], "pass": ["fw"], "mask": ["alibi_mod"], "work_tflops": [120.0], "tflops": [118.8]}
    )
    c = claims.sdpa_printed(k, sp, (0.05, 0))
    assert c.status == "withheld"


def test_exercise_two_predicts_sdpa_at_fa2s_speed_from_the_flops_behind_the_printed_tflops(seed):
    ex = exercises.attention_kernels(seed.ledger)[1]
    causal = seed.kernels[(seed.kernels["mask"] == "causal_mask") & (seed.kernels["pass"] == "fw")].set_index(
        "operation"
    )
    dense = 4 * 16 * 16 * 8192**2 * 64
    fa2 = dense / 2 / (causal.loc["causal_fa2", "time_ms"] / 1e3) / 1e12
    credited = causal.loc["sdpa_mask", "density"] * dense / (causal.loc["sdpa_mask", "time_ms"] / 1e3) / 1e12
    assert f"{dense / 1e12:.2f} x 10^12 FLOP" in ex.steps[0]
    assert f"= {fa2:,.0f} TFLOP/s" in ex.steps[0]
    predicted_ms = dense / (fa2 * 1e12) * 1e3  # SDPA's dense FLOPs at FA2's speed: twice FA2's time
    assert predicted_ms == pytest.approx(2 * causal.loc["causal_fa2", "time_ms"])
    assert f"= {predicted_ms:.2f} ms" in ex.steps[1]
    would_print = causal.loc["sdpa_mask", "density"] * dense / (predicted_ms / 1e3) / 1e12
    assert f"= {would_print:,.1f} TF/s" in ex.steps[2]
    assert credited == pytest.approx(causal.loc["sdpa_mask", "tflops"], rel=0.01)  # as printed
    assert f"printed: {causal.loc['sdpa_mask', 'tflops']:,.1f} TF/s" in ex.steps[3]


def test_exercise_one_carries_the_sparsest_masks_share_of_its_ideal_to_the_next_mask(seed):
    ex = exercises.attention_kernels(seed.ledger)[0]
    fw = seed.speedups[(seed.speedups["pass"] == "fw") & (seed.speedups["density"] < 1)].sort_values("density")
    first, second = fw.iloc[0], fw.iloc[1]
    share = first["flex_vs_sdpa"] * first["density"]
    assert (first["mask"], second["mask"]) == ("doc_mask_mod", "sliding_window_1024")
    assert f"1 / {second['density']:.4f} = {1 / second['density']:.2f}x" in ex.steps[0]
    assert f"= {share / second['density']:.2f}x" in ex.steps[1]
    assert f"Measured: {second['flex_vs_sdpa']:.2f}x" in ex.steps[2] and "not a constant of the kernel" in ex.answer


def test_a_run_cut_by_a_traceback_keeps_its_sections_and_names_no_device():
    r = run(TRACEBACK)
    assert set(r.kernels["mask"]) == {"causal_mask", "alibi_mod"}
    assert r.peaks.device is None
    said = placement.in_place(r.ledger)
    assert said["here_best_bound"] == ""  # withheld: no device named
    listed = placement.folded(r.ledger)
    assert listed.count("none is assumed") <= 1


def test_a_file_without_a_block_mask_draws_no_speedup_figure_and_says_why():
    r = run(AOTRITON)  # no density printed: no point to place against it
    pg = topic.page(r)
    assert "fig_speedup" not in pg.figures
    assert pg.markdown["why_no_speedup"]


def test_a_dense_noop_section_still_compares_the_kernels_where_nothing_is_skipped():
    r = run(NOOP)
    assert r.densities["derived"].tolist() == [1.0]
    assert "fig_speedup" in topic.page(r).figures


def test_a_modified_benchmark_at_other_shapes_takes_the_work_from_the_printed_tflops():
    r = run(AOTRITON)
    assert set(r.kernels["shape"]) == {"other"}
    assert r.densities["derived"].isna().all()
    assert "flex_vs_fa2_causal" not in {c["id"] for c in bottom_line.pick(r.ledger)}


def test_the_density_figure_lists_the_inputs_dots_only_where_it_draws_some(seed):
    """A report on a tritonbench table (no density printed) showed "this input, printed" in the
    legend over no dot; the seed prints six densities below 1 and keeps the entry."""
    import matplotlib.pyplot as plt

    from benchbook.presentation import attention as show

    def labels(dens):
        fig = show.density_figure(dens)
        out = fig.axes[0].get_legend_handles_labels()[1]
        plt.close(fig)
        return out

    assert "this input, printed" in labels(seed.densities)
    assert "this input, printed" not in labels(seed.densities.iloc[0:0])


def test_what_attention_gym_credits_is_said_only_on_an_input_that_has_its_table(seed):
    """Issue 34's class: a paragraph on attention-gym's shapes and credits stood on a tritonbench
    page, followed by "This input holds no attention-gym section"."""
    credits = "attention-gym's benchmark runs B = 16, H = 16, D = 64"
    assert topic.page(seed).texts["shape_words"].startswith(credits)
    triton = topic.page(run("tests/fixtures/tritonbench/tritonbench_pr2296_h100_flash_attention_tflops.md"))
    assert (
        credits not in triton.texts["shape_words"]
        and triton.texts["shape_words"] == "This input holds no attention-gym section."
    )


def test_the_sections_a_file_feeds_decide_what_the_attention_gym_paragraphs_say(seed):
    """#34 (stop 46): on a flash-attention file the credited-TF/s section said four absences of
    attention-gym rows, and 'Counted by the work each kernel really performs:' ended in a colon over no
    table. Each stands only where the input has the attention-gym rows it speaks of."""
    page = topic.page(seed)
    assert (
        page.texts["recomputed"].startswith("Recomputing every TF/s")
        and "fixed causal reference" in (page.texts["recomputed"])
    )
    assert page.markdown["sdpa_lead"] == "Counted by the work each kernel really performs:"
    fa = topic.page(run("tests/fixtures/flash-attn-benchmark/fa_issue1310_h20_fa3_benchmark_attn_ms_tflops_excerpt.md"))
    assert fa.texts["recomputed"] == "" and fa.markdown["sdpa_lead"] == ""
