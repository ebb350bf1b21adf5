"""The attention chapter's tritonbench sentence: a share of a peak only against a named device."""

from __future__ import annotations

from benchbook import config, ingest
from benchbook.analysis import attention
from benchbook.analysis import attention_tritonbench as tb
from benchbook.presentation import attention as show

H100 = config.FIXTURES_DIR / "tritonbench" / "tritonbench_pr2296_h100_flash_attention_tflops.md"


def test_a_share_of_the_peak_only_with_a_device():
    t = tb.table(ingest.read(H100))
    none = show.triton_words(t, attention.peaks("", [H100.read_text()]))
    assert "no share of a peak is given" in none and "dense 16-bit peak" not in none
    named = show.triton_words(t, attention.peaks("H100-SXM5-80GB"))
    assert "422.2 TFLOP/s (colfax_cutlass at 4096), 42.7% of the H100-SXM5-80GB's dense 16-bit peak" in named
    assert show.triton_table(t, attention.peaks("", []))["of dense 16-bit peak (%)"].isna().all()


def test_an_input_without_tritonbench_tables_says_so():
    assert show.triton_words(tb.table(ingest.read(H100)).iloc[0:0], attention.NONE) == (
        "This input holds no tritonbench table."
    )


FP8 = config.FIXTURES_DIR / "flash-attn-benchmark" / "flash_attention_pr1075_fa3_fp8_h100_pcie_cudnn_excerpt.md"


def test_an_fp8_kernel_is_never_set_against_the_16_bit_peak():
    t = tb.table(ingest.read(FP8))
    words = show.triton_words(t, attention.peaks("H100-PCIe-80GB"))
    # the highest figure is cuDNN's FP8 674.59; the share is of the highest bf16 one, PyTorch's 78.47
    assert "674.6 TFLOP/s (cuDNN at causal=False, headdim=128, batch_size=8, seqlen=2048), a kernel run in FP8" in words
    assert "78.5 TFLOP/s (Pytorch at causal=False, headdim=128, batch_size=2, seqlen=8448), 10.4% of the" in words
    share = show.triton_table(t, attention.peaks("H100-PCIe-80GB"))["of dense 16-bit peak (%)"]
    assert share[t["dtype"] == "fp8"].isna().all() and share[t["dtype"] == "bf16"].notna().all()
    sixteen = show.triton_words(t.assign(dtype="bf16"), attention.peaks("H100-PCIe-80GB"))
    assert "a kernel run in FP8" not in sixteen and "89.2% of the" in sixteen  # 674.6 of 756 had it been bf16


def test_the_figures_a_script_printed_as_failed_are_counted_by_backend():
    t = tb.table(ingest.read(FP8))
    failed = tb.failed(
        ingest.read(
            config.FIXTURES_DIR
            / "flash-attn-benchmark"
            / "ring_attention_issue10_dual_rtx_a5000_flash_attn_bench_excerpt.md"
        ).pipe(lambda df: ingest.set_aside_frame(df))
    )
    words = show.triton_words(t, attention.NONE, failed)
    assert "12 figures on 4 lines (Triton) are printed as 0.00 TFLOP/s" in words
    assert "printed as 0.00" not in show.triton_words(t, attention.NONE)


SCORE_MOD = config.FIXTURES_DIR / "pytorch-score-mod"


def test_score_mods_tflops_are_shown_as_its_own_rules_never_as_missing_a_shape():
    decoding = tb.table(ingest.read(SCORE_MOD / "pytorch_pr137036_a6000_score_mod_decoding_noop_excerpt.md"))
    words = show.triton_words(decoding, attention.NONE)
    assert "3 TFLOP/s figures are shown as printed (score_mod.py's own FLOPs rule" in words
    assert "no latency or no full shape" not in words
    times_only = tb.table(ingest.read(SCORE_MOD / "pytorch_pr130788_score_mod_causal_sparsity_summary_excerpt.md"))
    none = show.triton_words(times_only, attention.NONE)
    assert "the chapter's FLOPs rule is not applied to score_mod.py's backends" in none
    shapeless = times_only.assign(tool=tb.TOOL)  # the same rows as a tritonbench table's: the shape is what is missing
    assert "no full shape gives the FLOPs" in show.triton_words(shapeless, attention.NONE)


B200 = config.FIXTURES_DIR / "flash-attn-benchmark" / "flash_attention_issue1589_b200_fa2_benchmark_excerpt.md"


def test_a_figure_above_the_devices_peak_is_a_warning_and_no_comparison_uses_it():
    """Flash2 printed up to 381.0 TFLOP/s: under a B200's 2,250 dense FP16 peak a measurement, above an
    A100's 312 beyond physics, so it is named as no measurement and left out of the fastest and the highest."""
    t = tb.table(ingest.read(B200))
    b200 = show.triton_words(t, attention.peaks("B200-180GB"))
    assert "Warning" not in b200 and "Flash2 is fastest on 15" in b200
    a100 = show.triton_words(t, attention.peaks("A100-SXM4-80GB"))
    high = t[(t["backend"] == "Flash2") & (t["tflops"] > 312)]
    assert len(high) and f"Warning: {len(high)} TFLOP/s figures of Flash2 are not measurements" in a100
    assert "beyond physics" in a100 and "The highest is 381.0" not in a100
    assert "The flash-attention benchmark lines give 30 timings" in a100  # every timing is still counted


def test_a_lead_inside_the_noise_floor_is_not_called_fastest():
    """The page assumes 5 % of noise where nothing is re-timed: a backend 1 % ahead is not 'fastest' there,
    one 10 % ahead is; both are counted, apart."""
    import pandas as pd

    t = tb.table(ingest.read(H100))
    one = t[t["input"] == t["input"].iloc[0]]
    pair = one.drop_duplicates("backend").head(2)
    assert len(pair) == 2

    def timed(lead: float) -> pd.DataFrame:
        return pair.assign(latency_ms=[1.0, lead], tflops=float("nan"))

    close = show.triton_words(timed(1.01), attention.NONE)
    assert "is fastest on" not in close and "on 1 input the fastest is within 5% of the next backend" in close
    assert "inside the noise" in close
    far = show.triton_words(timed(1.10), attention.NONE)
    assert f"{pair['backend'].iloc[0]} is fastest on 1" in far and "within 5%" not in far


MI300 = config.FIXTURES_DIR / "tritonbench" / "tritonbench_pr612_mi300_aiter_flex_triton_latency_excerpt.md"


def test_with_no_device_a_figure_above_every_known_peak_is_a_warning_and_no_comparison_uses_it():
    """aiter's 0.278904 ms at (4, 48, 4096, 4096, 64) is 2,957 TFLOP/s by tritonbench's FLOPs rule: with no
    device taken, no device the table knows reaches that (the highest dense 16-bit peak, MI355X's 2,517), so
    it is named as no measurement and left out, and with it aiter's 5 other timings of that table (1,424
    TFLOP/s at 2048 among them): one timer took them all; halved figures raise no warning."""
    t = tb.table(ingest.read(MI300))
    words = show.triton_words(t, attention.NONE)
    assert "Warning: 1 TFLOP/s figure of aiter is not a measurement" in words
    assert "highest dense 16-bit peak of any device the hardware table knows, the MI355X's 2,517 TFLOP/s" in words
    assert "and so are the other 5 timings of aiter in that table" in words
    assert "2,956.7" not in words and "1,424.1" not in words
    assert "The highest is 360.0 TFLOP/s (triton_tutorial_flash_v2 at (4, 48, 4096, 4096, 64))" in words
    halved = show.triton_words(t.assign(tflops=t["tflops"] / 2), attention.NONE)
    assert "Warning" not in halved and "The highest is 1,478.3 TFLOP/s (aiter at (4, 48, 4096, 4096, 64))" in halved


def test_only_the_backend_whose_timer_gave_an_impossible_rate_loses_its_other_timings():
    """pallas's timer gives 3,299 and 6,721 TFLOP/s at S 8192 and 16384 (its author calls its latencies
    suspicious): its 6 other timings go with them. A backend of the same table whose every rate is possible
    keeps all of its own: beside aiter's, flex_attention's and triton_tutorial_flash_v2's 6 inputs each."""
    pallas = tb.table(
        ingest.read(
            config.FIXTURES_DIR / "tritonbench" / "tritonbench_pr181_pallas_latency_suspicious_empty_average.md"
        )
    )
    words = show.triton_words(pallas, attention.NONE)
    assert "and so are the other 6 timings of pallas in that table" in words and "The highest is" not in words
    kept = show.triton_words(tb.table(ingest.read(MI300)), attention.NONE)
    assert "Of the 6 inputs timed by more than one backend, triton_tutorial_flash_v2 is fastest on 6" in kept
    assert "2.23x as fast" in kept  # against flex_attention at the last input: its timings stay


def test_a_bare_mi300_bounds_by_the_higher_part_of_the_series_and_says_so():
    """The file names `MI300` (line 5): AMD's MI300A or MI300X, so the peaks are the MI300X's, the higher
    (1,307 TFLOP/s), said as the rows the name fits; aiter's 1,424 TFLOP/s at 2048 is then above it too."""
    peaks = attention.peaks("", [MI300.read_text()])
    assert peaks.device == "MI300X" and [n for n, _ in peaks.variants] == ["MI300X", "MI300A"]
    words = show.triton_words(tb.table(ingest.read(MI300)), peaks)
    assert "Warning: 2 TFLOP/s figures of aiter are not measurements: they are 109% to 226% of the MI300X's" in words
    said = show.device_words(peaks, {"device_fits": "MI300", "device_fits_line": 5})
    assert "MI300 (line 5), fits the MI300X and MI300A, whose peaks differ; the highest are used" in said
    assert "fits" not in show.device_words(attention.peaks("MI300X", []))  # named by the parameter: that part


def test_the_spread_tritonbench_prints_with_each_latency_is_stated_only_where_printed():
    """`--latency-mode with_variance` prints each latency as the median of the timed runs and the farthest
    run's distance from it (`0.024714 (±254.78%)`): the page gives their range; a table printing none says nothing."""
    spread = show.triton_words(tb.table(ingest.read(MI300)), attention.NONE)
    assert "18 latencies are printed as tritonbench's median of the timed runs" in spread
    assert "farthest run's distance from it: 1.29% to 254.78%" in spread
    assert "farthest run" not in show.triton_words(tb.table(ingest.read(H100)), attention.NONE)


FLEX = (
    config.FIXTURES_DIR / "tritonbench" / "tritonbench_pr194_flex_attention_mod_types_recompile_error_cuda_oom_rows.md"
)


def test_rows_set_aside_as_two_runs_of_one_input_are_named_not_dropped_silently():
    """The flex sweep times (8, 16, 1024, 16, 1024, 128) | noop in both of its runs with different values:
    the page counts 14 inputs and names the two lines it set aside; with no conflict it says nothing of it."""
    df = ingest.read(FLEX)
    t, lines = tb.table(df), tb.conflicts(ingest.set_aside_frame(df))
    assert lines == [14, 32]
    words = show.triton_words(t, attention.NONE, None, lines)
    assert (
        "14 inputs of the flex_attention operator, backends eager and compiled. Not counted: the rows of lines 14"
        in words
    )
    assert "Not counted" not in show.triton_words(t, attention.NONE)


def test_an_operator_with_its_own_flops_rule_is_said_so_not_missing_a_shape():
    """flex_attention credits its compiled kernel the block mask's kept share, decoding_attention FLOPs of its
    own: their figures are shown as printed (or none shown) for that reason, never for a shape the table gives."""
    words = show.triton_words(tb.table(ingest.read(FLEX)), attention.NONE)
    assert "shown as printed (the flex_attention operator's own FLOPs rule" in words and "no full shape" not in words
    decoding = (
        config.FIXTURES_DIR
        / "tritonbench"
        / ("tritonbench_pr99_decoding_attention_fa2_fa3_kvcache_splitk_one_input_latency_accuracy.md")
    )
    none = show.triton_words(tb.table(ingest.read(decoding)), attention.NONE)
    assert "the decoding_attention operator credits FLOPs by a rule of its own" in none and "no full shape" not in none


TB = config.FIXTURES_DIR / "tritonbench"


def test_a_table_of_the_backward_pass_says_so():
    bwd = show.triton_words(tb.table(ingest.read(TB / "tritonbench_pr196_tk_flash_v3_bwd_tflops.md")), attention.NONE)
    assert "8 inputs of the flash_attention operator (non-causal), each timing of the backward pass" in bwd
    fwd = show.triton_words(
        tb.table(ingest.read(TB / "tritonbench_pr180_tilelang_vs_triton_tutorial_tflops.md")), attention.NONE
    )
    assert "backward" not in fwd


def test_where_the_only_figure_is_left_out_the_page_says_that_not_a_missing_shape():
    colfax = TB / "pytorch_benchmark_pr2401_colfax_cutlass_one_input_latency_0_001024_ms.md"
    words = show.triton_words(tb.table(ingest.read(colfax)), attention.NONE)
    assert "No other TFLOP/s can be shown: the tables print none beside the figure left out above." in words
    assert "no full shape" not in words


def test_accuracy_checks_that_all_passed_are_said_and_none_printed_says_nothing():
    decoding = TB / "tritonbench_pr99_decoding_attention_fa2_fa3_kvcache_splitk_one_input_latency_accuracy.md"
    words = show.triton_words(tb.table(ingest.read(decoding)), attention.NONE)
    assert "All 5 accuracy checks tritonbench printed passed" in words
    bare = show.triton_words(
        tb.table(ingest.read(TB / "tritonbench_pr180_tilelang_vs_triton_tutorial_tflops.md")), attention.NONE
    )
    assert "accuracy check" not in bare


FLEX_PR292 = (
    config.FIXTURES_DIR
    / "tritonbench"
    / "tritonbench_pr292_flex_attention_eager_compiled_sdpa_cudnn_not_supported_excerpt.md"
)
TK = config.FIXTURES_DIR / "tritonbench" / "tritonbench_pr179_tk_tflops.txt"


def test_the_noise_line_says_the_spread_tritonbench_prints_and_names_no_tool_an_input_lacks():
    k = attention.kernels(ingest.read(FLEX_PR292))  # no attention-gym section in the input
    assert k.empty
    words = show.noise_words(k, tb.table(ingest.read(FLEX_PR292)))
    assert "tritonbench prints a median per point and how far the farthest timed run is from it" in words
    assert "(3.93% to 125.49% here)" in words and "attention-gym" not in words
    # a tritonbench table printed without spreads: no tool named, a noise assumed
    plain = show.noise_words(attention.kernels(ingest.read(TK)), tb.table(ingest.read(TK)))
    assert plain.startswith("tritonbench prints one time per point; a noise of 5% is assumed")
