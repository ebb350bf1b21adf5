"""A run whose output prints a total token throughput and no output throughput (a write-up's table of
trtllm-bench's numbers) has a throughput: the runs' results table shows it, and a run kept apart with it
is not called a run with no token throughput."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.presentation import serving as show
from benchbook.presentation import wording

FIGURE = wording.words("serving_saturation")["figure"]
TOTAL = "total token throughput (tok/s)"


def _runs(output, total) -> pd.DataFrame:
    return pd.DataFrame(
        {"run": ["a", "b"], "output_throughput": output, "total_token_throughput": total, "order": [0, 1]}
    )


def test_the_results_table_shows_a_total_printed_alone():
    r = _runs([np.nan, np.nan], [1065.8, 1110.7])
    alone = show.runs_table(r, show._results(r))
    assert TOTAL in alone.columns and alone[TOTAL].tolist() == [1065.8, 1110.7]


def test_a_total_beside_the_output_adds_no_column():
    both = _runs([500.0, 520.0], [1065.8, 1110.7])
    assert show._results(both) is show.RUN_RESULTS


def test_a_run_kept_apart_with_a_total_alone_has_a_throughput():
    empty = pd.DataFrame({"max_concurrency": [], "output_throughput": [], "total_token_throughput": []})
    apart = _runs([np.nan, np.nan], [1065.8, 1110.7])
    assert show.plot_saturation(empty, apart, "max_concurrency").benchbook_message == FIGURE["no_curve"]
    blind = _runs([np.nan, np.nan], [np.nan, np.nan])
    assert show.plot_saturation(empty, blind, "max_concurrency").benchbook_message == FIGURE["no_throughput"]
