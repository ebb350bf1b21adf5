"""The noise sentence speaks of attention-gym ("prints one time per point; this input re-times no kernel") only of
an input with attention-gym sections: an input of tritonbench tables alone prints each latency's spread
and may time one input twice, so its sentence names only the floor under which no difference is called."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from benchbook import ingest
from benchbook.analysis import attention
from benchbook.presentation import attention as show

NOOP = Path(__file__).parents[1] / "fixtures" / "attention-gym" / "rtx4090_flex_attn_noop.md"


def test_an_input_without_attention_gym_sections_says_nothing_of_its_spread():
    k = attention.with_work(attention.kernels(pd.DataFrame(columns=["tool"])))
    said = show.noise_words(k)
    assert "attention-gym prints no spread" not in said and "re-times no kernel" not in said
    assert said == "a noise of 5% is assumed; differences inside it are not called"


def test_an_attention_gym_input_that_re_times_nothing_says_so():
    df, _ = ingest.read_all([NOOP], tool="attention-gym")
    said = show.noise_words(attention.with_work(attention.kernels(df)))
    assert said.startswith("attention-gym prints one time per point; this input re-times no kernel")
