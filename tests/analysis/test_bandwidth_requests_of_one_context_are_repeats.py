"""llama.cpp measures a context's load time once, when it loads the model, and `llama_print_timings`
prints it with every request of that context: blocks that print the same load time ran on one loaded
model with one set of settings. Two such requests of no named model that differ only in how many tokens
their answers had are repeats, not a slower setting (a real page set one of three samples of the same
evaluation aside as 'another engine, build or configuration'). Blocks with different load times (two
runs of `main`) are not taken for repeats."""

from __future__ import annotations

from benchbook.analysis import bandwidth
from benchbook.ingest import llama_timings

EVAL = {
    30: "eval time = 49937.32 ms /    30 runs   ( 1664.58 ms per token,     0.60 tokens per second)",
    36: "eval time = 54622.37 ms /    36 runs   ( 1517.29 ms per token,     0.66 tokens per second)",
}


def _block(load: str, n: int) -> list[str]:
    return [f"llama_print_timings:        load time = {load} ms", f"llama_print_timings:        {EVAL[n]}", ""]


def _rows(load_a: str, load_b: str):
    text = "\n".join([*_block(load_a, 30), *_block(load_b, 36)])
    return bandwidth.request_rows(llama_timings.parse(text, "x.md").table)


def test_two_requests_of_one_context_are_repeats():
    rows = _rows("28606.21", "28606.21")
    assert bandwidth.same_context(rows.iloc[0], rows.iloc[1])
    assert bandwidth.repeat(rows.iloc[0], rows.iloc[1])


def test_two_contexts_are_not_taken_for_repeats():
    rows = _rows("28606.21", "30112.40")
    assert not bandwidth.same_context(rows.iloc[0], rows.iloc[1])
    assert not bandwidth.repeat(rows.iloc[0], rows.iloc[1])


def test_a_request_without_its_own_load_line_has_no_known_context():
    text = "\n".join([*_block("28606.21", 30), _block("x", 36)[1]])
    rows = bandwidth.request_rows(llama_timings.parse(text, "x.md").table)
    assert rows["context_load_ms"].isna().iloc[1]
    assert not bandwidth.repeat(rows.iloc[0], rows.iloc[1])
