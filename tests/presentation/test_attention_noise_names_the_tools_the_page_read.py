"""The attention page's noise line names the tools whose rows it read and what each prints per point (one time;
tritonbench's `with_variance` mode a median and its spread): an sdpa.py input is never said to be attention-gym's,
and a tool that prints one time per point is said to, not to "print no spread"."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import attention_tritonbench as tb
from benchbook.presentation import attention as show

NO_GYM = pd.DataFrame(columns=["operation", "time_ms", "mask", "pass", "seq_len"])


def _table(tool: str, op: str, spread=None) -> pd.DataFrame:
    return pd.DataFrame({"tool": [tool], "op": [op], "spread_pct": [spread]})


def test_an_sdpa_py_input_names_sdpa_py_and_one_time_per_point():
    said = show.noise_words(NO_GYM, _table("pytorch-score-mod", tb.SDPA_OPERATOR))
    assert said.startswith("sdpa.py prints one time per point; a noise of 5% is assumed")
    assert "attention-gym" not in said and "no spread" not in said


def test_tritonbench_with_its_spread_is_said_to_print_it():
    said = show.noise_words(NO_GYM, _table("tritonbench", tb.OPERATOR, spread=14.23))
    assert said.startswith("tritonbench prints a median per point and how far the farthest timed run is from it")
    assert "(14.23% to 14.23% here)" in said and "re-times no kernel" not in said
    # the other way: a tritonbench table printed without `with_variance` gives one time per point
    assert show.noise_words(NO_GYM, _table("tritonbench", tb.OPERATOR)).startswith("tritonbench prints one time")
