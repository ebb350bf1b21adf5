"""Which run a copy cut inside a result block leaves unfinished: the run whose numbers stand nearest
above the line where the copy ends, unless another block's banner stands between them; a run whose block the copy
holds whole is never marked."""

from __future__ import annotations

import math

from benchbook import config
from benchbook.analysis import serving

FIX = config.FIXTURES_DIR / "vllm-bench-serve"


def test_the_second_block_cut_where_the_copy_ends_is_the_one_marked():
    # qps1's block is whole (closed at line 27); qps4's is cut at line 36 (`Outp`)
    r, _ = serving.load([FIX / "vllm_ascend_issue1605_qwen3_32b_qps1_qps4_cut.md"])
    marked = r[r["copy_ends"].notna()]
    assert len(r) == 2 and len(marked) == 1 and marked["copy_ends"].iat[0] == 36
    assert marked["completed"].iat[0] == 200 and math.isnan(r.loc[r["copy_ends"].isna(), "copy_ends"].iat[0])
    assert serving.cut_of(r) == (marked["run"].iat[0], 36)


def test_a_whole_copy_marks_no_run():
    r, _ = serving.load([FIX / "vllm_pr15401_tpu_v4_8_qwen25_7b_tp4_guided_decoding.md"])
    assert r["copy_ends"].isna().all() and serving.cut_of(r) is None


SGL = config.FIXTURES_DIR / "sglang-bench-serving"


def test_a_copy_cut_after_its_itl_section_lost_no_tpot():
    # DeepGEMM PR 183: cut in `Max ITL`; this SGLang layout prints E2E, TTFT and ITL, no TPOT section, and both
    # tools print TPOT before ITL, so the cut hides no TPOT: no cut is said for TPOT
    r, _ = serving.load([SGL / "deepgemm_pr183_sbo_dsr1_bs32_origin_rate4p8_cap512_10240_requests_cut.md"])
    assert r["copy_ends"].notna().all() and r["itl_mean"].notna().all()
    assert serving.cut_of(r) is not None and serving.cut_of(r, "tpot") is None


def test_a_copy_cut_inside_its_tpot_section_may_have_lost_the_rest():
    # the other way: sglang PR 10027's copy ends in `P99 TPO`, before the ITL section; PR 14194's at `Mean TPOT (ms):`
    for name, line in (
        ("sglang_pr10027_dsr1_w4afp8_tp8_rate64_cap64_before_cut.md", 33),
        ("sglang_pr14194_dsv2_dcp8_tp8_cap48_480_prompts_peak_rows_cut.md", 33),
    ):
        r, _ = serving.load([SGL / name])
        assert serving.cut_of(r, "tpot") == (r["run"].iat[0], line)


def test_a_block_cut_on_its_first_row_below_a_whole_one_leaves_that_one_unmarked():
    # stop 51 (half ay), tpu-inference PR 1006: 'before' is closed at line 31; 'after:' opens its banner on line 37
    # and the copy ends on line 38 ('S'): the cut is that block's, of which no number was read
    r, _ = serving.load([FIX / "tpu_inference_pr1006_jax080_llama31_8b_before_after_cut.md"])
    assert list(r["run"]) == ["before"] and r["copy_ends"].isna().all() and serving.cut_of(r) is None
    # the other way: with no banner between, the run above holds the cut (the rule these tests above keep)
    r, _ = serving.load([FIX / "dynamo_issue2437_pd_qwen3_8b_8000in_200out_rate1_burst100_p95_cut.md"])
    assert serving.cut_of(r) == ("rate=1", 32)
