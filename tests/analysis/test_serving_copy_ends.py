"""Which run a copy cut inside a result block leaves unfinished: the run whose numbers stand nearest
above the line where the copy ends; a run whose block the copy holds whole is never marked."""

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
