"""The physical limits beside every measurement: GPU peaks, model sizes, and the roofline.

A kernel (or a whole decode step) that does F floating-point operations while moving B bytes has
arithmetic intensity I = F / B. On a GPU with peak compute P and memory bandwidth W it cannot run
faster than min(P, W * I): that is the roofline. Decode at small batch reads every weight once per
step for a few FLOPs per weight, so it sits far left (bandwidth-bound); prefill and large batches
reuse each weight many times and move right (compute-bound).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from benchbook import config


@dataclass(frozen=True)
class GPU:
    """Peak figures of one GPU, with where they come from."""

    name: str
    memory_gb: float
    bandwidth_gb_s: float
    fp16_tflops: float
    int8_tops: float
    power_w: float
    source: str
    note: str

    @property
    def ridge_flop_per_byte(self) -> float:
        """Arithmetic intensity where the fp16 roofline turns from bandwidth- to compute-bound."""
        return self.fp16_tflops * 1e12 / (self.bandwidth_gb_s * 1e9)


def hardware_table() -> pd.DataFrame:
    """The hardware table (data/hardware.csv), one GPU per row, each figure with its source."""
    config.log_read(config.HARDWARE_TABLE)
    return pd.read_csv(config.HARDWARE_TABLE)


def gpu(name: str) -> GPU:
    """A GPU by its name in the hardware table (case-insensitive); error lists the known names."""
    df = hardware_table()
    hit = df[df["gpu"].str.lower() == str(name).lower()]
    if hit.empty:
        raise KeyError(f"unknown GPU {name!r}; the hardware table has: {', '.join(df['gpu'])}")
    r = hit.iloc[0]
    return GPU(
        name=r["gpu"],
        memory_gb=float(r["memory_gb"]),
        bandwidth_gb_s=float(r["memory_bandwidth_gb_s"]),
        fp16_tflops=float(r["dense_fp16_tflops"]),
        int8_tops=float(r["dense_int8_tops"]),
        power_w=float(r["power_w"]),
        source=str(r["source"]),
        note=str(r["note"]),
    )


def model_table() -> pd.DataFrame:
    """Known model sizes (data/models.csv): total and active parameters, with sources."""
    path = config.DATA_DIR / "models.csv"
    config.log_read(path)
    return pd.read_csv(path)


def model_params(model_id: str) -> dict:
    """Total and active parameters (billions) of a model, matched by the table's patterns
    (longest pattern first); falls back to a size in the name (e.g. "13b", "7B").

    Returns {"params_b", "active_params_b", "architecture", "source"}.
    """
    table = model_table()
    key = model_id.lower()
    for _, r in table.assign(n=table["model_pattern"].str.len()).sort_values("n", ascending=False).iterrows():
        if r["model_pattern"].lower() in key:
            return {
                "params_b": float(r["params_b"]),
                "active_params_b": float(r["active_params_b"]),
                "architecture": r["architecture"],
                "source": r["source"],
            }
    m = re.search(r"(\d+(?:\.\d+)?)\s*[bB](?![a-zA-Z])", model_id)
    if m:
        b = float(m.group(1))
        return {
            "params_b": b,
            "active_params_b": b,
            "architecture": "dense",
            "source": f"size in the name {model_id!r}",
        }
    raise KeyError(f"no parameter count known for model {model_id!r}; pass params_b explicitly")


def attainable_tflops(intensity: np.ndarray | float, g: GPU, peak_tflops: float | None = None) -> np.ndarray:
    """The roofline: min(peak, bandwidth x intensity), in TFLOP/s, for intensity in FLOP/byte."""
    peak = g.fp16_tflops if peak_tflops is None else peak_tflops
    return np.minimum(peak, g.bandwidth_gb_s * 1e9 * np.asarray(intensity, dtype=float) / 1e12)


def achieved_bandwidth_gb_s(nbytes: float, seconds: float) -> float:
    """Achieved bandwidth (GB/s) of a step that must move `nbytes` (weights + KV cache) in `seconds`."""
    return nbytes / seconds / 1e9
