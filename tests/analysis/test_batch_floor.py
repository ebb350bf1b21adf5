"""The batch lesson's step-time floor in the input's own numbers (`batch.floor`), worked by hand:
a 7B fp16 model (14 GB of weights) on a device of 2000 GB/s and 300 TFLOP/s."""

import pandas as pd
import pytest

from benchbook.analysis import batch

KEY = ("m", "vllm", "A100", "fp16")


def _rl():
    one = dict(model="m", framework="vllm", gpu="A100", dtype="fp16", weight_bytes=14e9)
    one |= dict(peak_gb_s=2000.0, peak_tflops=300.0, ridge=150.0)
    return pd.DataFrame(
        [
            one | dict(batch_size=8, step_s=0.008, throughput_tok_s=1000.0),
            one | dict(batch_size=1, step_s=0.0075, throughput_tok_s=133.0),
        ]
        + [one | dict(gpu="H100", batch_size=1, step_s=0.001, throughput_tok_s=1.0)]
    )


def test_the_floor_is_the_weights_over_the_bandwidth_from_the_first_batch():
    f = batch.floor(_rl(), KEY)
    assert f["dtype"] == "fp16" and f["bytes_per_weight"] == 2 and f["params_b"] == 7.0
    assert f["weights_ms"] == pytest.approx(7.0, rel=1e-12)  # 14e9 B / 2000e9 B/s
    assert f["first_batch"] == 1 and f["first_step_ms"] == 7.5
    assert f["batches"] == [1, 8] and f["tok_s"] == [133.0, 1000.0]  # this series only, in batch order


def test_no_series_or_no_peak_has_no_floor():
    assert batch.floor(_rl(), None) == {}
    assert batch.floor(_rl().assign(peak_gb_s=float("nan")), KEY) == {}


def test_a_step_takes_the_weights_read_until_the_batch_s_flops_take_longer():
    # 14 GB at 2000 GB/s is 7 ms; 14 GFLOP a token at 1000 TFLOP/s is 14 us, so 1000 tokens take 14 ms
    t = batch.step_time([1, 500, 1000], 14e9, 2000.0, 14e9, 1000.0)
    assert t.tolist() == pytest.approx([0.007, 0.007, 0.014])
