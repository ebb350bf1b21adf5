"""The up-front note of the bandwidth chapter: one placed result is not one model in the input."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import bandwidth
from benchbook.presentation import bandwidth as show


def test_one_placed_result_of_an_input_with_two_models_is_not_one_model_only():
    runs = pd.DataFrame({"model": ["RedHatAI/Qwen3-30B-A3B-NVFP4", "RedHatAI/Llama-3.1-8B-Instruct-NVFP4", None]})
    models = bandwidth.models_named(pd.DataFrame({"model": []}), runs)
    assert models == 2
    note = show.coverage_note(1, models)
    assert "one model on one device only" not in note and "name 2 models" in note


def test_one_placed_result_of_one_model_is_said_to_be_all_the_input_holds():
    models = bandwidth.models_named(pd.DataFrame({"model": ["m", "m"]}))
    assert "one model on one device only" in show.coverage_note(1, models)


def test_runs_that_name_no_model_are_not_said_to_be_one_model():
    requests = pd.DataFrame({"model": [None, None], "model_file": [None, None]})
    models = bandwidth.models_named(requests)
    assert models is None
    note = show.coverage_note(1, models)
    assert "one model" not in note and "does not name the model of every result" in note
    named = pd.DataFrame({"model": [None, None], "model_file": ["Llama3.2-3B-F16.gguf", "Llama3.2-3B-F16.gguf"]})
    assert bandwidth.models_named(named) == 1
