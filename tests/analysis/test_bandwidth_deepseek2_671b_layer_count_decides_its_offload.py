"""llama.cpp labels DeepSeek-V3 and R1 `deepseek2 671B` (61 repeating layers, config.json num_hidden_layers 61),
and llama-bench's -ngl counts those plus the output layer: -ngl 63 offloads every layer. With the count unknown,
the page called a 16 x RTX 3090 run at -ngl 63 "partly offloaded (ngl 63 (layer count unknown)), so its rate is a
blend of GPU and host memory" though its writer offloaded the model "fully on CUDA"; -ngl 40 is still partial."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import bandwidth


def _row(ngl: int) -> pd.Series:
    return pd.Series({"model": "deepseek2 671B Q8_0", "backend": "CUDA", "ngl": ngl, "gpu": None})


def test_deepseek2_671b_has_61_layers():
    assert bandwidth.layers("deepseek2 671B Q8_0")[0] == 61


def test_ngl_63_is_every_layer_and_ngl_40_is_part():
    assert bandwidth.run_mode(_row(63)) == "gpu"
    assert bandwidth.run_mode(_row(62)) == "gpu"
    assert bandwidth.run_mode(_row(40)) == "partial"
