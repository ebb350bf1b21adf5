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
