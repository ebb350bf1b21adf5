"""One run's numbers are kept apart by their key settings, a missing key being a value of its own."""

import pandas as pd

from benchbook.analysis import compare


def test_a_run_s_numbers_are_grouped_by_their_keys():
    df = pd.DataFrame(
        {
            "batch_size": [1.0, 1.0, 8.0],
            "metric": ["throughput"] * 3,
            "statistic": ["value"] * 3,
            "unit": ["tok/s"] * 3,
            "value": [10.0, 12.0, 80.0],
        }
    )
    t = compare._one_run(df, ["batch_size"]).set_index("batch_size")
    assert t.loc["1", "value"] == 11.0 and t.loc["1", "n"] == 2 and t.loc["8", "value"] == 80.0
    # a key the run does not have is "" for every row
    assert compare._one_run(df, ["batch_size", "tp"])["tp"].tolist() == ["", ""]
