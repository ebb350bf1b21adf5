"""LoadGen's summary ends with the count of the errors it logged (loadgen/logging.cc). Where a file
holds several summaries, some copied down to that line and some cut before it, the page says which run
logged how many errors (and on which line) and that the others' count is not in the copy, never that the
whole copy ends before it."""

from __future__ import annotations

from benchbook import config
from benchbook.analysis import serving
from benchbook.claims import serving as claims

FIX = config.FIXTURES_DIR / "mlperf-loadgen"


def _failed(name):
    return claims.failed(serving.load([FIX / name])[0]).evidence


def test_the_runs_that_logged_errors_are_named_beside_the_cut_ones():
    ev = _failed("krai_ck_qaic_g292_z43_q16_bert99_offline_valid_invalid_server_invalid_pre_html_excerpt.md")
    assert ev["loadgen_partial"] == 2 and ev["loadgen_partial_runs"] == ["summary 3"]
    assert ev["loadgen_partial_lines"] == [216] and ev["loadgen_cut_runs"] == 2


def test_one_summary_with_its_errors_line_is_no_partial_count():
    ev = _failed("dell_dgx_h100x8_trt_llama2_70b_99_offline_cat_summary_and_accuracy.txt")
    assert "loadgen_partial" not in ev and ev["loadgen_errors"] == 0
