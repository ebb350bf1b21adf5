"""llama-bench prints the `model` type string, `size` and `params` of the file it loaded: rows equal in all
three ran one file, so a row whose command is not read takes the file another such row names (one model
is never labelled as two); rows of another size, or a key two files share, take none."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import bandwidth

M = "minimax-m2 230B.A10B Q5_K - Medium"
FILE = "MiniMax-M2.7-UD-Q5_K_M-00001-of-00005.gguf"


def _rows(*rows):
    return pd.DataFrame(rows, columns=["model", "model_size_gib", "params_b", "model_file"])


def test_a_row_with_no_file_takes_the_file_of_its_twin():
    out = bandwidth.same_file(_rows((M, 157.2, 228.69, FILE), (M, 157.2, 228.69, None)))
    assert out["model_file"].tolist() == [FILE, FILE]
    assert {bandwidth.label(r) for _, r in out.iterrows()} == {"MiniMax-M2.7-UD-Q5_K_M"}


def test_another_size_or_two_files_of_one_key_fill_nothing():
    other = bandwidth.same_file(_rows((M, 157.2, 228.69, FILE), (M, 120.0, 228.69, None)))
    assert other["model_file"].isna().tolist() == [False, True]
    two = bandwidth.same_file(_rows((M, 157.2, 228.69, FILE), (M, 157.2, 228.69, "b.gguf"), (M, 157.2, 228.69, None)))
    assert two["model_file"].isna().tolist() == [False, False, True]
