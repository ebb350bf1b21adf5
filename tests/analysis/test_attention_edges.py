"""The attention chapter at its edges: an input with no attention-gym section, a bandwidth the reader gives."""

import pandas as pd

from benchbook.analysis import attention


def test_an_input_without_attention_gym_rows_gives_an_empty_table_of_the_right_kinds():
    k = attention.kernels(pd.DataFrame({"tool": pd.Series([], dtype=object)}))
    assert k.empty
    assert k[["mask", "operation", "pass"]].dtypes.tolist() == [object] * 3
    assert k[["seq_len", "density", "time_ms", "tflops"]].dtypes.tolist() == [float] * 4


def test_a_bandwidth_the_reader_gives_replaces_the_table_s():
    p = attention.peaks("A100-SXM4-80GB", peak_bandwidth_gb_s=1000.0)
    assert p.bandwidth_gb_s == 1000.0 and p.source == "parameter"
    assert attention.peaks("A100-SXM4-80GB").bandwidth_gb_s != 1000.0


def test_a_sliding_window_keeps_at_most_its_width_in_tiles_per_row_behind_the_diagonal():
    # S 512 in 128-wide tiles: n = 4; a 256 window is 2 tiles back, so rows keep 1, 2, 3, 3 tiles of 16
    formula, density = attention.block_density("sliding_window_256", 512)
    assert formula == "sum of min(i+1, 3) / n^2" and density == 9 / 16
    assert attention.block_density("sliding_window_mask_1024", 512)[1] == 10 / 16  # wider than S: causal
