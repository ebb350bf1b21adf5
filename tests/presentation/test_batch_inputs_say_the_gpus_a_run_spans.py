"""A batch run over several GPUs (TensorRT-LLM's world_size, vLLM's TP x DP) is said to span them where the
page says what it reads, so its throughput is never read as one GPU's; a run on one GPU, or one whose
count is not stated, gets no such words."""

from __future__ import annotations

import pandas as pd

from benchbook.presentation import batch


def _sw(devices):
    return pd.DataFrame(
        {
            "model": ["gpt"],
            "framework": ["tensorrt-llm"],
            "gpu": [""],
            "dtype": ["fp16"],
            "batch_size": [8],
            "has_result": [True],
            "new_tokens": [4.0],
            "devices": [devices],
        }
    )


def test_a_run_over_four_gpus_is_said_to_span_them():
    assert "its runs span 4 GPUs" in batch.inputs_sentence("f.md", _sw(4.0))


def test_one_gpu_or_an_unstated_count_says_nothing_of_spans():
    for n in (1.0, float("nan")):
        assert "span" not in batch.inputs_sentence("f.md", _sw(n))
