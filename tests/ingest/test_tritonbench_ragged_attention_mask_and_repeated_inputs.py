"""tritonbench's `--causal` flag defaults to off, so a flash_attention command without it ran
non-causal attention; ragged_attention (HSTU) masks by its own `--attn-mask-type`, whose default is
`lower_triangular`, and flex_attention by its `--mod-type`, printed per row, so a command without
`--causal` does not say their mask: causal is not stated. An
operator that draws its inputs (ragged_attention's random lengths) prints one `x_val` for several
inputs: each row is its own input, numbered, not a conflicting repeat."""

from __future__ import annotations

from benchbook import ingest

TABLE = """
                                 x_val    hstu-tflops
--------------------------------------  -------------
 (128, 4, 256, 128, 128, 1.0, 20, 256)        68.4261
 (128, 4, 512, 128, 128, 1.0, 20, 256)       105.465
"""

FA = """
  (Batch, Heads, SeqLen, Dhead)    sdpa-latency    flash_v2-latency
-------------------------------  --------------  ------------------
             (32, 16, 512, 128)        0.24512             0.236768
            (16, 16, 1024, 128)        0.442944            0.41968
"""


def _causal(tmp_path, command: str, table: str) -> set:
    f = tmp_path / "bench.md"
    f.write_text(f"$ {command}\n{table}")
    return set(ingest.read(f)["causal"].astype(object).where(lambda s: s.notna(), None))


def test_ragged_attention_without_causal_states_no_mask(tmp_path):
    assert _causal(tmp_path, "python run.py --op ragged_attention --metrics tflops", TABLE) == {None}


def test_ragged_attention_with_causal_is_causal(tmp_path):
    assert _causal(tmp_path, "python run.py --op ragged_attention --causal --metrics tflops", TABLE) == {"causal"}


def test_flash_attention_without_causal_ran_non_causal(tmp_path):
    assert _causal(tmp_path, "python run.py --op flash_attention --d-head 128", FA) == {"non-causal"}


FLEX = """
             (B, Hq, M, Hkv, N, D) | Mask Type    eager-latency    compiled-latency
----------------------------------------------  ---------------  ------------------
(8, 16, 1024, 16, 1024, 128) |          causal         6.023616            0.216096
(8, 16, 1024, 16, 1024, 128) |  sliding_window         6.111872            0.145600
"""


def test_flex_attention_masks_by_its_own_mod_type_so_no_causal_setting_is_stated(tmp_path):
    # flex_attention's mask is its --mod-type (printed per row), not --causal: a command without --causal
    # ran the rows' own masks, causal and sliding_window here, not non-causal attention
    assert _causal(tmp_path, "python run.py --op flex_attention --mod-type all", FLEX) == {None}


REPEATED = """
            x_val    hstu_triton_ragged_attention-tflops    hstu_triton_ragged_attention-latency
-----------------  -------------------------------------  --------------------------------------
(8, 4, 512, 2048)                               0.306747                                2.81939
(8, 4, 512, 2048)                               1.65614                                 0.867936
(8, 4, 256, 2048)                               2.00125                                 0.84768
"""


def test_rows_that_print_the_same_x_val_are_numbered_inputs_not_conflicts(tmp_path):
    f = tmp_path / "bench.md"
    f.write_text(f"$ python run.py --op ragged_attention --metrics latency,tflops --mode bwd\n{REPEATED}")
    t = ingest.read(f)
    lat = t[t["metric"] == "latency"].set_index("input")["value"].to_dict()
    assert lat == {"(8, 4, 512, 2048) #1": 2.81939, "(8, 4, 512, 2048) #2": 0.867936, "(8, 4, 256, 2048)": 0.84768}
