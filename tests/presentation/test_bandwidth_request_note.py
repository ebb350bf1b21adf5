"""The bandwidth page says a llama.cpp timing is ONE request (no repetitions, no spread), and, partly
offloaded, that no GPU's roof alone bounds it; a llama-bench result gets no such note."""

from __future__ import annotations

import pandas as pd

from benchbook.presentation import bandwidth as show


def _pts(**kw):
    row = {"line": 7, "rate": 11.92, "test": "tg192", "n_prompt": 27, "ngl": None, "n_layers": None}
    return pd.DataFrame([{**row, "offload": "full", "one_request": True, **kw}])


def test_one_request_is_said_to_be_one():
    text = show.request_note(_pts())
    assert "ONE request: 11.92 tok/s over 192 generated tokens after a 27-token prompt" in text
    assert "no spread" in text and "roof alone" not in text


def test_a_partly_offloaded_request_is_bounded_by_no_gpu_roof_alone():
    text = show.request_note(_pts(offload="partial", ngl=20, n_layers=33))
    assert "Only 20 of its 33 layers were offloaded to the GPU" in text and "roof alone bounds" in text


def test_a_llama_bench_result_gets_no_request_note():
    assert show.request_note(_pts(one_request=float("nan"))) is None


def test_the_prompt_section_says_a_requests_prompt_is_no_llama_bench_test():
    pp = pd.DataFrame([{"one_request": True}])
    text = show.prefill_intro(pp, 1)
    assert "one measurement" in text and "llama-bench `ppN` test" not in text
    text = show.prefill_intro(pd.DataFrame([{"one_request": float("nan")}]), 1)
    assert "llama-bench `ppN` test" in text and "llama.cpp request" not in text
