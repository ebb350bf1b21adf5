"""llama-bench's tests (`-p`, `-n`) are what one configuration is measured on, and it prints every setting it varies:
a tg64 row beside a tg32 row of the same printed settings is another test of the same run, never a "slower setting"
(ik_llama.cpp issue 419's page said "slower settings: test tg64 (placed: tg32)"). A row that differs in a setting
too is still a slower setting, and requests timed one each keep their own rule (`repeat`)."""

from __future__ import annotations

import pandas as pd

from benchbook import config, ingest
from benchbook.analysis import bandwidth


def _row(test: str, threads: str = "8", one_request: bool = False) -> pd.Series:
    return pd.Series({"test": test, "threads": threads, "backend": "CUDA", "one_request": one_request})


def test_a_row_that_differs_in_its_test_alone_is_another_test_of_the_run():
    assert bandwidth.other_test(_row("tg64"), _row("tg32"))
    assert not bandwidth.other_test(_row("tg64", threads="4"), _row("tg32"))  # a setting differs too
    assert not bandwidth.other_test(_row("tg64", one_request=True), _row("tg32", one_request=True))


def test_ik_llamas_tg64_is_set_aside_as_another_test_not_a_slower_setting():
    path = config.FIXTURES_DIR / "llama-bench/ik_llama_issue419_2x_p100_qwen3moe_235b_iq3_k_ts_fmoe_cut_excerpt.md"
    _, every = bandwidth.reduce(bandwidth.generation_rows(ingest.read(path)))
    why = every.set_index("test")["why_dropped"]
    assert why["tg32"] == "" and why["tg64"] == bandwidth.OTHER_TEST + ": test tg64 (placed: tg32)"
