"""The DRAM floor's two reasons for being withheld, each named as the claim states it."""

import numpy as np
import pandas as pd

from benchbook.analysis import power
from benchbook.claims import power as cp


def _table():
    t = pd.DataFrame(
        [("tg128", w, m, 0.1) for w, m in zip([600, 500, 400], [100, 90, 70], strict=True)],
        columns=["test", "power_limit_w", "mean", "std"],
    )
    t = t.assign(model="m", metric="tg_rate", n_depth=0, cv=t["std"] / t["mean"], n_reps=5)
    t = t.assign(reps_assumed=True, time_rate=np.nan, line=1, se=t["std"] / t["mean"] / np.sqrt(5))
    return power.energy(t)


def test_no_generation_test_withholds_the_floor_without_a_limit():
    c = cp.dram_floor(_table(), None, 4.0)
    assert c.status == "withheld" and c.reason == "the input has no generation test at two or more power limits"
    assert c.evidence["limit_w"] is None and c.evidence["upper_bound"] is None


def test_unknown_weights_withhold_the_floor_and_say_where_llama_bench_prints_them():
    c = cp.dram_floor(_table(), "tg128", None)
    assert c.status == "withheld"
    assert c.reason == "the bytes of the model's weights are not known (llama-bench prints them as its size)"
    assert c.evidence["limit_w"] == 500.0  # 500 W over 90 tok/s: the least J/token of the three
