"""Ollama's `--verbose` stats enter the roofline as one request each, like llama.cpp's timings, but they
say nothing of where the layers ran (Ollama's scheduler splits a model over CPU and GPU where it does not
fit): the mode is unknown, as a llama.cpp request's is where its log names no device and no layer count;
two requests of one model with none of llama-bench's settings are still listed."""

from __future__ import annotations

from benchbook.analysis import bandwidth
from benchbook.ingest import llama_timings

BLOCK = ["eval count:           66 token(s)", "eval duration:        3.829555s", "eval rate:            17.23 tokens/s"]
EVAL = "llama_perf_context_print:        eval time =     473.70 ms /   106 runs   (    4.47 ms per token,   223.77 tokens per second)"


def _rows(*lines):
    return bandwidth.request_rows(llama_timings.parse("\n".join(lines), "x.log").table)


def test_an_ollama_request_states_no_offload():
    r = _rows(*BLOCK)
    assert r["mode"].tolist() == ["unknown"] and r["timings"].tolist() == ["ollama run --verbose"]
    assert _rows(EVAL)["mode"].tolist() == ["unknown"]  # llama-cli's -ngl default changed over the years


def test_two_requests_with_no_llama_bench_setting_are_listed():
    r = _rows(*BLOCK, "", *BLOCK)
    assert len(r) == 2 and bandwidth.swept(r) == {}
