"""A polars frame keyed by score_mod.py's case columns with a `TFlops (<run>)` column per run is another script's
comparison of score_mod.py runs (no backend named, rows chosen by the change): refused in one sentence naming
its header line, not "no known tool output"; score_mod.py's own table is read as before."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import score_mod

FRAME = (
    "shape: (1, 7)\n"
    "┌───────────┬────────────────┬───────────────────────┬───────────────┬──────────────┬──────────┬───────────┐\n"
    "│ attn_type ┆ dtype          ┆ shape(B,Hq,M,Hkv,N,D) ┆ TFlops (base) ┆ TFlops (max) ┆ delta    ┆ pct_delta │\n"
    "│ causal    ┆ torch.bfloat16 ┆ (4, 16, 2048, 16,     ┆ 249.514658    ┆ 243.078974   ┆ 6.435684 ┆ 2.647569  │\n"
)


def test_a_polars_comparison_frame_is_refused_naming_its_header_line(tmp_path):
    f = tmp_path / "compare.md"
    f.write_text(FRAME)
    with pytest.raises(ingest.ParseError) as err:
        ingest.read(f)
    assert not isinstance(err.value, ingest.UnknownFormat) and err.value.line == 3
    assert "a polars frame comparing score_mod.py runs' TFlops" in err.value.message


def test_a_frame_without_a_tflops_column_per_run_refuses_nothing():
    assert score_mod.refuses(FRAME.replace("TFlops (", "fwd_time (")) is None


def test_score_mods_own_table_refuses_nothing_and_is_read():
    f = config.FIXTURES_DIR / "pytorch-score-mod" / "pytorch_pr130788_score_mod_causal_sparsity_summary_excerpt.md"
    assert score_mod.refuses(f.read_text()) is None
    assert len(ingest.read(f))
