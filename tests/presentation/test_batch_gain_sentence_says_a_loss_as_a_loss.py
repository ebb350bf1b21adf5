"""The gain per added sequence at the top of a sweep can be negative (throughput falls as the batch
grows): the sentence then says what each sequence takes away, never that it "adds -0.35 tok/s"."""

from __future__ import annotations

import pandas as pd

from benchbook.presentation.batch import gain_sentence


def _steps(last_gain: float) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "dtype": ["bf16", "bf16"],
            "named_gpu": ["", ""],
            "gain_tok_s_per_seq": [41.6, last_gain],
            "prev_batch_size": [1, 1664],
            "batch_size": [2, 1792],
        }
    )


def test_a_falling_last_step_is_said_as_tok_s_taken_away():
    said = gain_sentence(_steps(-0.35))
    assert "takes 0.35 tok/s away from batch 1664 to 1792" in said
    assert "-0.35" not in said


def test_a_rising_last_step_is_said_as_tok_s_added():
    said = gain_sentence(_steps(0.35))
    assert "and 0.35 tok/s from batch 1664 to 1792" in said
    assert "away" not in said


def test_a_series_of_one_step_says_its_gain_once():
    """Two batch sizes make one step: its first and last step are the same, said once, not as
    "adds 15.7 tok/s from batch 1 to 2, and 15.68 tok/s from batch 1 to 2"."""
    one = _steps(0.35).iloc[:1]
    said = gain_sentence(one)
    assert said.endswith("adds 41.6 tok/s from batch 1 to 2.") and said.count("from batch") == 1
    assert gain_sentence(_steps(0.35)).count("from batch") == 2
