"""The report's index counts a file's configurations as its distinct settings: llama-bench's tests (`-p`, `-n`, `-d`:
pp64 ... tg64 of one setting) and its repeats are what one configuration is measured on, so five tests of one
setting are one configuration (ik_llama.cpp issue 419's index said "5 configurations"); rows that differ in a setting
(`-nkvo 0` and `1`) are still two."""

from __future__ import annotations

from benchbook import config, ingest

BENCH = config.FIXTURES_DIR / "llama-bench"


def test_five_tests_of_one_setting_are_one_configuration():
    path = BENCH / "ik_llama_issue419_2x_p100_qwen3moe_235b_iq3_k_ts_fmoe_cut_excerpt.md"
    df = ingest.read(path)
    assert df["test"].nunique() == 5 and df.attrs["detected"] == ["llama-bench, 1 configuration"]


def test_rows_that_differ_in_a_setting_are_configurations_of_their_own():
    df = ingest.read(BENCH / "ggml_pr4812_rtx3090ti_nkvo.md")
    assert df.attrs["detected"] == ["llama-bench (build 32d9f7d9 (1786)), 2 configurations"]
