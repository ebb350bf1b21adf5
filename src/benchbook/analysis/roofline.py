"""The roofline: the physical limit beside every measurement (device peaks and model sizes live in
`benchbook.hardware`).

A kernel (or a whole decode step) that does F floating-point operations while moving B bytes has
arithmetic intensity I = F / B. On a GPU with peak compute P and memory bandwidth W it cannot run
faster than min(P, W * I): that is the roofline. Decode at small batch reads every weight once per
step for a few FLOPs per weight, so it sits far left (bandwidth-bound); prefill and large batches
reuse each weight many times and move right (compute-bound).
"""

from __future__ import annotations

import numpy as np


def attainable_tflops(intensity: np.ndarray | float, g, peak_tflops: float | None = None) -> np.ndarray:
    """The roofline: min(peak, bandwidth x intensity), in TFLOP/s, for intensity in FLOP/byte."""
    peak = g.fp16_tflops if peak_tflops is None else peak_tflops
    return np.minimum(peak, g.bandwidth_gb_s * 1e9 * np.asarray(intensity, dtype=float) / 1e12)


def achieved_bandwidth_gb_s(nbytes: float, seconds: float) -> float:
    """Achieved bandwidth (GB/s) of a step that must move `nbytes` (weights + KV cache) in `seconds`."""
    return nbytes / seconds / 1e9
