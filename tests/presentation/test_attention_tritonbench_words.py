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
