"""Where llama-bench's rows print the parameter count of the file a batched-bench table ran (`params`,
`llama_model_n_params`: `3.88 B` for gemma-3-4b), the batch chapter counts that, not the model table's nominal size
(`4B`), for a model the table knows as dense (`batched_bench.printed_params`, used before the table by
`batch.model_size`); the bytes per weight are the file's size over that count, so the weight bytes stay the
file's. A mixture of experts (its compute counts active parameters, which the print does not give), a model the
table does not know, or a model with two printed counts keeps the table's size."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.analysis import batch, batched_bench

GEMMA = "ggml-org/gemma-3-4b-it-qat-GGUF"
GPT_OSS = "ggml-org/gpt-oss-20b-GGUF"


def _df(model, *params):
    return pd.DataFrame({"tool": "llama-batched-bench", "model": model, "weights_params_b": list(params)})


def test_a_dense_models_printed_count_is_its_size():
    printed = batched_bench.printed_params(_df(GEMMA, 3.88, 3.88))
    assert printed == {GEMMA: 3.88}
    assert batch.model_size(GEMMA, printed) == (3.88, "printed")
    assert batch.model_size(GEMMA, {}) == (4.0, "table")  # without the print, the table's nominal 4B


def test_the_file_is_read_whole_at_the_printed_count():
    bpw = batched_bench._file_bytes_per_weight(GEMMA, 2.35, 3.88)
    assert abs(bpw * 3.88e9 - 2.35 * 2**30) < 1


def test_a_mixture_of_experts_an_unknown_model_or_two_counts_keep_the_table():
    assert batched_bench.printed_params(_df(GPT_OSS, 20.91)) == {}
    assert batched_bench.printed_params(_df("some-org/unknown-model-GGUF", 29.94)) == {}
    assert batched_bench.printed_params(_df(GEMMA, 3.88, 4.3)) == {}
    assert batched_bench.printed_params(_df(GEMMA, np.nan)) == {}
