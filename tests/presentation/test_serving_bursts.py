"""Runs that send all their prompts at once sweep the burst's size only within one series."""

from __future__ import annotations

import math

import pandas as pd

from benchbook.presentation import serving as show


def burst_runs(prompts, input_tokens, output_tokens, runs):
    """One uncapped, unlimited-rate run per prompt count, with its workload's mean tokens a request."""
    n = len(prompts)
    return pd.DataFrame(
        {
            "run": runs,
            "model": ["m"] * n,
            "request_rate": [math.inf] * n,
            "max_concurrency": [float("nan")] * n,
            "num_prompts": prompts,
            "completed": prompts,
            "total_input_tokens": [p * i for p, i in zip(prompts, input_tokens, strict=True)],
            "total_generated_tokens": [p * o for p, o in zip(prompts, output_tokens, strict=True)],
        }
    )


def test_bursts_of_one_workload_are_a_sweep_of_the_bursts_size():
    r = burst_runs([8, 64, 512], [1000] * 3, [200] * 3, ["a", "b", "c"])
    assert show.bursts(r) == [8, 64, 512]


def test_bursts_of_two_workloads_are_two_configurations_not_a_sweep():
    """Base and PR, each at 512 prompts of 3,500 + 1,500 and at 8 prompts of 100 + 100."""
    r = burst_runs([512, 8, 512, 8], [3500, 100, 3500, 100], [1500, 100, 1500, 100], ["base", "base", "PR", "PR"])
    assert show.bursts(r) == []
