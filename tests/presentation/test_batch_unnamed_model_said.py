"""The batch page's model size for a series whose run names no model goes through the absence rule
(`serving.untied_models`): a model the file names but ties to no run, or a line that speaks of one, is
named in its place; only where there is neither is it "the model the output does not name"."""

from __future__ import annotations

from benchbook.presentation import batch as show


def _sentence(untied) -> str:
    return show.device_sentence(None, {"": 7.0}, {"": "parameter"}, untied=untied)


def test_a_model_the_file_names_but_ties_to_no_run_is_named():
    text = _sentence([["meta-llama/Llama-2-7b-hf", 3, "named"]])
    assert "the model no run names (line 3 names `meta-llama/Llama-2-7b-hf`): 7.00 B parameters" in text
    assert "does not name" not in text


def test_a_line_that_speaks_of_a_model_unread_is_named():
    text = _sentence([["--model $MODEL", 2, "sign"]])
    assert "the model no run names (line 2 speaks of one: `--model $MODEL`)" in text


def test_only_a_file_with_no_sign_of_a_model_does_not_name_it():
    assert "the model the output does not name: 7.00 B parameters" in _sentence([])


def test_the_one_model_taken_as_the_runs_is_said_as_theirs():
    # the batch chapter takes the one model a file names where no run names one as its runs' (as the serving
    # chapter does): the page says so, never that the file ties it to no run
    text = show.inputs_sentence("f.md", _empty_sweep(), untied=[["meta-llama/Llama-3.1-8B-Instruct", 39, "taken"]])
    assert "the one model the input names, taken as its runs' (`meta-llama/Llama-3.1-8B-Instruct` (line 39))" in text
    assert "ties to no run" not in text
    sizes = show.device_sentence(None, {"": 8.0}, {"": "model table"}, untied=[["m/x-8B", 39, "taken"]])
    assert "the one model the input names (line 39 names `m/x-8B`)" in sizes


def test_a_model_named_but_not_taken_still_ties_to_no_run():
    text = show.inputs_sentence("f.md", _empty_sweep(), untied=[["a/one", 3, "named"], ["b/two", 9, "named"]])
    assert "a model the input names but ties to no run" in text


def _empty_sweep():
    import pandas as pd

    return pd.DataFrame(
        {
            "model": pd.Series(dtype=str),
            "framework": pd.Series(dtype=str),
            "gpu": pd.Series(dtype=str),
            "dtype": pd.Series(dtype=str),
            "batch_size": pd.Series(dtype=float),
            "has_result": pd.Series(dtype=bool),
        }
    )
