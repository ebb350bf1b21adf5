"""Back-of-envelope arithmetic: the few divisions a reader does by hand to check a chapter's
verdicts (a ceiling, a share, an intensity, an energy floor). Numbers only; the exercises
that ask for them are worded in presentation/exercises.py."""

from __future__ import annotations


def ceiling(peak_gb_s: float, gb_per_token: float) -> float:
    """The bandwidth ceiling in tokens/s: every weight read once per token."""
    return peak_gb_s / gb_per_token


def share(measured: float, limit: float) -> float:
    """A measurement as a fraction of its limit."""
    return measured / limit


def intensity(params_b: float, gb_per_token: float, flops_per_param: float = 2.0) -> float:
    """FLOP per byte of one decode step: `flops_per_param` FLOPs per parameter, the bytes read."""
    return flops_per_param * params_b / gb_per_token


def tokens_per_s(tflops: float, params_b: float, flops_per_param: float = 2.0) -> float:
    """Tokens/s that `tflops` TFLOP/s of work means at `flops_per_param` FLOPs per parameter."""
    return tflops * 1e12 / (flops_per_param * params_b * 1e9)


def dram_floor(weights_gb: float, pj_per_bit: float) -> float:
    """Joules to move `weights_gb` gigabytes out of DRAM once at `pj_per_bit` picojoules per bit."""
    return weights_gb * 1e9 * 8 * pj_per_bit * 1e-12


def product(ratios) -> float:
    """The ratio of the last run to the first: the product of the step-to-step ratios."""
    out = 1.0
    for r in ratios:
        out *= r
    return out
