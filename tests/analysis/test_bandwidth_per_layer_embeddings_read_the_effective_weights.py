"""A model with per-layer embeddings (Gemma 4's E2B and E4B, named for their effective size) looks up one row of
those tables per token and layer and reads every other weight: one decode step reads its effective weights, so
its bytes per token are the file's size times effective / total, as an MoE's are its active share. A dense model
of the same family (gemma-4-31B) reads its whole file."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook import hardware
from benchbook.analysis import bandwidth

NONE = pd.DataFrame(columns=["model_pattern", "params_b", "active_params_b"])


def test_an_effective_size_model_reads_its_effective_share_of_the_file():
    size = bandwidth.model_size(NONE, 4.647, "gemma4 E2B Q4_K - Medium", printed_model="gemma4 E2B Q4_K - Medium")
    assert size["architecture"] == hardware.PLE
    assert size["active_params_b"] == pytest.approx(2.3) and size["params_b"] == pytest.approx(4.647)


def test_a_dense_model_of_the_family_reads_every_weight():
    size = bandwidth.model_size(NONE, 30.7, "gemma-4-31B-it-Q4_K_M.gguf")
    assert size["architecture"] == "dense" and size["active_params_b"] == size["params_b"]
