"""A result set aside beside a faster one of the same model and device is "slower settings" only
when it is slower beyond the noise: 2 standard errors of the difference, each rate's printed
standard deviation over its repetitions (the command's -r, else llama-bench's 5). A real RX 6800 XT
file had ngl 0 rates of 4.45 ± 0.05 (OpenCL), 4.46 ± 0.05 (Vulkan) and 4.48 ± 0.03 (ROCm)."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import bandwidth


def _row(backend: str, rate: float, std: float, line: int, reps=pd.NA) -> list[dict]:
    base = {
        "model": "llama 13B Q6_K",
        "model_file": None,
        "test": "tg128",
        "n_depth": 0,
        "metric": "tg_rate",
        "backend": backend,
        "gpu": None,
        "ngl": 0,
        "threads": pd.NA,
        "model_size_gib": 9.95,
        "params_b": 13.02,
        "line": line,
        "power_limit_w": float("nan"),
        "n_reps": reps,
    }
    return [{**base, "statistic": "mean", "value": rate}, {**base, "statistic": "std", "value": std}]


def _why(rows: list[dict]) -> dict[int, str]:
    _, every = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(rows)))
    return dict(zip(every["line"], every["why_dropped"], strict=True))


def test_rates_inside_two_standard_errors_are_a_tie_not_slower_settings():
    why = _why(_row("OpenCL", 4.45, 0.05, 1) + _row("Vulkan", 4.46, 0.05, 2) + _row("ROCm", 4.48, 0.03, 3))
    assert why[3] == ""
    assert why[1].startswith(bandwidth.TIED) and why[2].startswith(bandwidth.TIED)


def test_a_rate_beyond_two_standard_errors_is_slower_settings():
    why = _why(_row("OpenCL", 4.30, 0.05, 1) + _row("ROCm", 4.48, 0.03, 3))
    assert why[1].startswith("slower settings: backend OpenCL")


def test_one_repetition_widens_the_noise():
    # -r 1: each printed spread is the whole noise, so 0.08 apart with spreads of 0.05 is a tie
    assert _why(_row("OpenCL", 4.40, 0.05, 1, reps=1) + _row("ROCm", 4.48, 0.05, 3, reps=1))[1].startswith(
        bandwidth.TIED
    )
    assert _why(_row("OpenCL", 4.40, 0.05, 1) + _row("ROCm", 4.48, 0.05, 3))[1].startswith("slower settings")
