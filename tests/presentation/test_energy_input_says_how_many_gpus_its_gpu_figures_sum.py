"""A GPU figure summed over several GPUs (a `--record-power` summary's `Mean Total Power (total W)` over 8, an
AIPerf telemetry's GPU list) is not one card's: the input line says how many it sums, and says nothing of a
count where the figures are one GPU's or the file gives no count."""

import pandas as pd

from benchbook.presentation import energy as show


def _table(counts, scope="gpu"):
    n = len(counts)
    return pd.DataFrame(
        {
            "source": ["f"] * n,
            "run": [f"r{i}" for i in range(n)],
            "tool": ["serving-power"] * n,
            "scope": [scope] * n,
            "model": [None] * n,
            "device": [None] * n,
            "device_count": counts,
        }
    )


def test_the_input_line_says_how_many_gpus_a_gpu_figure_sums():
    t = _table([8.0])
    assert "its GPU figures are summed over 8 GPUs" in show.describe(t, t)


def test_one_gpu_no_count_or_a_cpu_figure_says_no_count():
    for t in (_table([1.0]), _table([None]), _table([8.0], scope="cpu")):
        assert "summed over" not in show.describe(t, t)
