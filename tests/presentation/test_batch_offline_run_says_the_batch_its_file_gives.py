"""An offline run whose file states a batch size (`- batch_size = 1` in an author's list) is not said to
set none: the page names the line and says why the run is still one point (the tool prints no result per
batch). A file that states none keeps "sets no batch size"."""

from __future__ import annotations

from benchbook import config
from benchbook.chapter import setup
from benchbook.topics import batch_saturation

FIX = config.FIXTURES_DIR / "mlperf-loadgen"


def _offline(name):
    res = batch_saturation.analyse(setup("batch_saturation", {"source": str(FIX / name)}))
    return batch_saturation.page(res).markdown["offline_sentence"]


def test_a_stated_batch_is_named_with_its_line():
    text = _offline("sophon_bm1684_three_cards_fp32_offline_invalid_summary_zh.md")
    assert "Line 17 gives a batch size of 1" in text and "sets no batch size" not in text


def test_no_stated_batch_keeps_no_batch_size():
    assert "sets no batch size" in _offline("dell_dgx_h100x8_trt_llama2_70b_99_offline_cat_summary_and_accuracy.txt")
