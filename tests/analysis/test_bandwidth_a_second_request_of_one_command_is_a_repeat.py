"""Two timings of one request each that differ only in how many tokens the answer had are one command
run twice (ollama issue 12913: `ollama run --verbose gpt-oss:20b hi`, 10.04 then 7.73 tok/s over 32 and 38
tokens): the slower is a repeat of the kept one's settings, not a slower setting. A llama-bench tg128 beside
a tg256 is a length the user chose, requests that differ in a setting differ in that setting, and requests
of no named model may differ in what the reader does not take."""

from __future__ import annotations

import pandas as pd

from benchbook import config
from benchbook.analysis import bandwidth
from benchbook.chapter import setup
from benchbook.topics import bandwidth_roofline as topic


def _row(test: str, one_request: bool, threads: str = "8", model: str | None = "gpt-oss:20b") -> pd.Series:
    return pd.Series({"test": test, "threads": threads, "backend": "CUDA", "one_request": one_request, "model": model})


def test_a_request_that_differs_from_the_kept_one_in_its_answer_length_alone_is_a_repeat():
    assert bandwidth.repeat(_row("tg38", True), _row("tg32", True))
    # the other way: a llama-bench sweep of the generated length, and requests that differ in a setting
    assert not bandwidth.repeat(_row("tg256", False), _row("tg128", False))
    assert not bandwidth.repeat(_row("tg38", True, threads="4"), _row("tg32", True))
    # nor requests of no named model: two Ollama versions under bold labels (ollama issue 10746) look alike
    assert not bandwidth.repeat(_row("tg74", True, model=None), _row("tg63", True, model=None))


def test_the_second_ollama_run_of_one_command_is_set_aside_as_a_repeat():
    fixture = "ollama_issue12913_rtx4090_vulkan_gpt_oss_20b_verbose_two_runs_and_llama_cli_cut_excerpt.md"
    source = str(config.FIXTURES_DIR / "llama-timings" / fixture)
    every = topic.analyse(setup("bandwidth_roofline", {"source": source})).every
    why = every.loc[~every["kept"].astype(bool), "why_dropped"].tolist()
    assert why == [bandwidth.REPEAT + ": test tg38 (placed: tg32)"]
