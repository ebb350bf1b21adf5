"""What one decode-shaped GEMM measured over a batch sweep says about the roofline: the time of a step
that reads the weight once, the bandwidth and compute it reaches, the ridge those two make, and the
batch where the measured step starts to cost more than the weight read. Numbers only.

A step with batch B reads the k x n weight once (k n x bytes per weight) and does 2 B k n FLOPs: its
intensity is 2 B / bytes per weight FLOP/byte (B at 16 bits, 2 B at 8). Its time is at least the larger of bytes / bandwidth and FLOPs / compute, so
it stays flat until B reaches the ridge (compute / bandwidth), then grows in proportion to B."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from benchbook.analysis import roofline

#: A step counts as slower than the weight read once its median time exceeds the smallest batch's by this share.
SLOWER = 0.10


@dataclass(frozen=True)
class Sweep:
    """The sweep's medians per batch and what they give. `kernel_misses`: batches whose step took
    longer (by more than SLOWER) than a larger batch's: more work cannot take less time, so the
    smaller batch's kernel was not the best the device runs; they are set aside from `first_slower`."""

    steps: pd.DataFrame  # batch, median_s, low_s, high_s, tflop_per_s
    dtype: str
    weight_gb: float
    bytes_per_weight: float
    k: int
    n: int
    read_s: float  # the smallest batch's step: the weight read alone
    bandwidth_gb_s: float  # weight bytes / batch 1's step time
    tflops: float  # the best median FLOP rate of any batch
    ridge: float  # tflops / bandwidth, FLOP/byte
    critical_batch: float  # the batch at that ridge, for these bytes per weight
    first_slower: int | None
    kernel_misses: tuple[int, ...]
    spread: float  # the largest (high - low) / median over the batches' repeats

    def bound_s(self, batch: float, bandwidth_gb_s: float, tflops: float) -> float:
        """The least time a step of `batch` can take at these ceilings: max(bytes / bandwidth, FLOPs / compute)."""
        flops = 2.0 * batch * self.k * self.n
        return max(self.weight_gb / bandwidth_gb_s, flops / (tflops * 1e12))


def sweep(rows: pd.DataFrame, dtype: str = "bfloat16") -> Sweep:
    """`rows`: measured.decode_gemm's table; the sweep of `dtype`. Batch 1's time is the sweep's
    smallest batch's (an FP8 sweep starts at 16, still far left of any ridge)."""
    rows = rows[rows["dtype"] == dtype]
    if rows.empty:
        raise ValueError(f"the sweep has no {dtype} rows")
    weight, k, n = float(rows["weight_bytes"].iloc[0]), int(rows["k"].iloc[0]), int(rows["n"].iloc[0])
    g = rows.groupby("batch")["seconds"]
    steps = pd.DataFrame({"median_s": g.median(), "low_s": g.min(), "high_s": g.max()}).reset_index()
    steps["tflop_per_s"] = 2.0 * steps["batch"] * k * n / steps["median_s"] / 1e12
    read = float(steps.loc[steps["batch"] == steps["batch"].min(), "median_s"].iloc[0])
    bandwidth = weight / read / 1e9
    tflops = float(steps["tflop_per_s"].max())
    ridge = roofline.ridge(tflops, bandwidth)
    later_min = steps["median_s"][::-1].cummin()[::-1].shift(-1)
    misses = tuple(
        int(b) for b, t, m in zip(steps["batch"], steps["median_s"], later_min, strict=True) if t > (1 + SLOWER) * m
    )
    slower = steps[(steps["median_s"] > (1 + SLOWER) * read) & ~steps["batch"].isin(misses)]
    return Sweep(
        steps=steps,
        dtype=dtype,
        weight_gb=weight / 1e9,
        bytes_per_weight=weight / (k * n),
        k=k,
        n=n,
        read_s=read,
        bandwidth_gb_s=bandwidth,
        tflops=tflops,
        ridge=ridge,
        critical_batch=roofline.critical_batch(ridge, weight / (k * n)),
        first_slower=int(slower["batch"].iloc[0]) if len(slower) else None,
        kernel_misses=misses,
        spread=float(((steps["high_s"] - steps["low_s"]) / steps["median_s"]).max()),
    )


def under_power(samples: pd.DataFrame, k: int, n: int, peak_tflops: float, max_mhz: float) -> pd.DataFrame:
    """Per batch of a power run: the median board power and SM clock, the step's FLOP rate, and that
    rate as a share of the peak scaled to the clock the board held (tensor throughput is proportional
    to the clock, so a power-capped clock lowers the compute roof in proportion)."""
    g = samples.groupby("batch")
    out = pd.DataFrame(
        {"power_w": g["power_w"].median(), "sm_mhz": g["sm_mhz"].median(), "step_s": g["step_s"].first()}
    )
    out = out.reset_index()
    out["tflop_per_s"] = 2.0 * out["batch"] * k * n / out["step_s"] / 1e12
    out["clocked_peak_tflops"] = peak_tflops * out["sm_mhz"] / max_mhz
    out["share_of_clocked_peak"] = out["tflop_per_s"] / out["clocked_peak_tflops"]
    return out
