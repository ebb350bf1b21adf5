"""The per-user against per-GPU figure, where no run can be drawn, says which of its two numbers no
run has: a run that prints TPOTs but no whole-server throughput (InferenceX rows without a GPU count)
is not one that "prints no mean TPOT"."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.presentation import serving as show


def _runs(tpot, rate):
    return pd.DataFrame({"x": [16.0, 64.0], "tpot_mean": tpot, "output_throughput": rate})


def test_the_missing_number_is_named():
    assert show.plot_pareto(_runs([7.4, 9.2], [np.nan, np.nan]), "max_concurrency").benchbook_message == (
        "no run has a whole-server output throughput"
    )
    assert show.plot_pareto(_runs([np.nan, np.nan], [500.0, 900.0]), "max_concurrency").benchbook_message == (
        "No run prints a mean TPOT, so per-user speed cannot be shown."
    )
    assert show.plot_pareto(_runs([7.4, np.nan], [np.nan, 900.0]), "max_concurrency").benchbook_message == (
        "no run has both a mean TPOT and a whole-server output throughput"
    )


def test_the_reason_no_run_is_drawn_is_said_once():
    """#34: with no mean TPOT the figure's place holds the chapter's sentence, and the text under it
    adds nothing; where the figure draws, or names another missing number, the sentence stays."""
    none = _runs([np.nan, np.nan], [500.0, 900.0])
    fig, said = show.pareto_texts(none, "max_concurrency")
    assert fig.benchbook_message == show.pareto_sentence(none) and said == ""
    no_rate = _runs([7.4, 9.2], [np.nan, np.nan])
    assert show.pareto_texts(no_rate, "max_concurrency")[1] == show.pareto_sentence(no_rate) != ""
    drawn = _runs([7.4, 9.2], [500.0, 900.0])
    fig, said = show.pareto_texts(drawn, "max_concurrency")
    assert not hasattr(fig, "benchbook_message") and said.startswith("Across the runs")


def test_with_no_tpot_the_per_user_rate_the_output_prints_is_given_as_printed():
    r = _runs([np.nan, np.nan], [np.nan, np.nan]).assign(output_token_throughput_per_user=[64.45, 63.62])
    assert show.pareto_sentence(r) == (
        "No run prints a mean TPOT; the per-user output rate the output prints itself is 63.6 to 64.5 tok/s per user "
        "across the 2 runs that print it, as printed."
    )
    assert show.pareto_sentence(r.assign(output_token_throughput_per_user=np.nan)) == (
        "No run prints a mean TPOT, so per-user speed cannot be shown."
    )
