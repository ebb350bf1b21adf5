"""Runs that send all their prompts at once sweep the burst's size only within one series of what the
input states (model, server, the workload the client asks for): two workloads at two sizes sweep nothing."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.presentation import serving as show


def _bursts(prompts, meta, inputs) -> list[int]:
    n = len(prompts)
    r = pd.DataFrame(
        {
            "run": [f"r{i}" for i in range(n)],
            "model": ["m"] * n,
            "request_rate": [np.inf] * n,
            "max_concurrency": [np.nan] * n,
            "num_prompts": prompts,
            "metadata": meta,
            "completed": prompts,
            "total_input_tokens": [p * i for p, i in zip(prompts, inputs, strict=True)],
            "total_generated_tokens": [p * 100 for p in prompts],
        }
    )
    return show.bursts(r)


def test_two_stated_workloads_at_two_sizes_are_no_burst_sweep():
    """GB200 base vs PR: 512 prompts of 3500/1500 tokens and 8 of 100/100, as the commands ask."""
    meta = ["random_input_len=3500; random_output_len=1500", "random_input_len=100; random_output_len=100"]
    assert _bursts([512, 8], meta, [3500, 100]) == []


def test_one_stated_workload_at_several_sizes_is_a_burst_sweep_whatever_its_samples_average():
    """A sweep of bursts whose small ones sample other mean lengths (dennislee22: 1 to 500 prompts)."""
    assert _bursts([1, 10, 500], ["", "", ""], [120, 700, 1000]) == [1, 10, 500]
