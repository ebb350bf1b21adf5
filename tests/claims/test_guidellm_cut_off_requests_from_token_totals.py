"""GuideLLM's 0.5+ console prints no request counts, but its Run Summary prints the token totals of
completed, incomplete and errored requests (console.py): a request adds its prompt tokens to the
incomplete total only if the benchmark's window closed on it, so a non-zero total says at least one
request was cut off. The page says so with the line, and that how many is not known; a run whose
incomplete totals are 0 keeps 'cannot tell whether any failed'."""

from __future__ import annotations

from benchbook import config
from benchbook.analysis import serving
from benchbook.claims import serving as cs
from benchbook.presentation import wording

FIX = config.FIXTURES_DIR / "guidellm"


def _failed(path):
    r, _ = serving.load([path])
    return wording.word("serving_saturation", cs.failed(r))


def test_a_nonzero_incomplete_token_total_is_at_least_one_request_cut_off():
    c = _failed(FIX / "llmd_benchmark_pr1459_constant_30s_run_summary_607_incomplete_cut.md")
    assert c.evidence["cut_runs"] == 1 and c.evidence["cut_input_tokens"] == 607.0
    assert "at least one request was still running when the benchmark's window closed" in c.text
    assert "(607 prompt and 60 output tokens of incomplete requests, line 17)" in c.text
    assert "so how many is not known; no errored request carried a token" in c.text
    assert "cannot tell whether any failed" not in c.text and "requests failed" not in c.text


def test_zero_incomplete_and_errored_totals_say_nothing_was_cut_off_and_keep_the_unknown_count():
    c = _failed(FIX / "llmd_benchmark_run_llama31_8b_sanity_random_console.txt")
    assert "cut_runs" not in c.evidence
    assert "cannot tell whether any failed" in c.text and "cut off incomplete" not in c.text
