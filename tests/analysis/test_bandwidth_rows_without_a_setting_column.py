"""Rows of a tool that prints fewer settings than llama-bench (llama.cpp's timings of a request print no
n_batch, n_ubatch or fa) sweep none of them: `swept` skips a setting no row has, where it used to stop the
chapter with a KeyError. A prompt whose model nothing names is labelled by its line, never "?"."""

from __future__ import annotations

from benchbook.analysis import bandwidth, prefill
from benchbook.ingest import llama_timings

PROMPT = "llama_print_timings: prompt eval time =    1712.75 ms /    15 tokens (  114.18 ms per token,     8.76 tokens per second)"
EVAL = "llama_print_timings:        eval time =    9521.36 ms /   127 runs   (   74.97 ms per token,    13.34 tokens per second)"
EVAL2 = "llama_print_timings:        eval time =   23176.51 ms /   281 runs   (   82.48 ms per token,    12.12 tokens per second)"


def _rows(metric="tg_rate"):
    t = llama_timings.parse("\n".join([PROMPT, EVAL, PROMPT, EVAL2]), "x.md").table
    return bandwidth.request_rows(t, metric)


def test_requests_sweep_no_setting_their_tool_does_not_print():
    rows = _rows()
    assert "n_batch" not in rows.columns
    assert bandwidth.swept(rows) == {}


def test_a_setting_two_rows_print_differently_is_still_swept():
    rows = _rows().assign(n_batch=[512, 2048])
    assert bandwidth.swept(rows) == {"n_batch": [512, 2048]}


def test_an_unnamed_models_prompt_is_labelled_by_its_line():
    rows = _rows("pp_rate")
    assert set(rows["model_key"]) == {"?"}
    assert prefill.labels(rows).tolist() == ["the model on line 1", "the model on line 3"]
