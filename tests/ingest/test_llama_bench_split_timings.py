"""llama-bench with prompt and generation timed apart (the fields of llama.cpp pull request #12874)."""

from __future__ import annotations

import pytest

from benchbook import config, ingest

FIX = config.FIXTURES_DIR / "llama-bench"


def _one(df, test, metric, statistic):
    hit = df[(df["test"] == test) & (df["metric"] == metric) & (df["statistic"] == statistic)]
    assert len(hit) == 1, (test, metric, statistic, len(hit))
    return hit.iloc[0]


@pytest.mark.parametrize(
    ("name", "pp", "tg"),
    [
        ("fork_split_timings_rtx4080_csv.md", 27527.98705, 467.926504),
        ("fork_split_timings_rtx4080.sql", 27611.175041, 466.86721),
    ],
)
def test_a_prompt_test_is_its_prompt_timing_and_a_generation_test_its_generation_timing(name, pp, tg):
    df = ingest.read(FIX / name)
    assert _one(df, "pp512", "pp_rate", "mean")["value"] == pytest.approx(pp)
    assert _one(df, "tg128", "tg_rate", "mean")["value"] == pytest.approx(tg)
    assert set(df["gpu"]) == {"NVIDIA GeForce RTX 4080"} and set(df["build"]) == {"df46ea53 (5099)"}


def test_the_part_a_test_does_not_run_is_set_aside_not_read_as_a_rate():
    """A pp512 row's generation fields (60 ns of no work, 0 t/s) are no generation measurement."""
    df = ingest.read(FIX / "fork_split_timings_rtx4080_csv.md")
    assert (df["test"] == "pp512").sum() == 4  # pp rate and duration, mean and std
    reasons = {r["text"]: r["reason"] for r in df.attrs["rejected"] if r["line"] == 9}
    assert reasons["avg_gen_ns=60"] == "the generation timing of a test with no generation tokens (PR #12874)"


def test_a_prompt_plus_generation_test_timed_in_two_parts_is_not_read_as_a_pg_rate():
    """llama-bench's pg rate is (prompt + generated tokens) over the whole test; the split fields
    give two rates of two parts, which that metric is not: all eight are set aside."""
    df = ingest.read(FIX / "fork_split_timings_rtx4080_pg_csv.md")
    assert set(df["test"]) == {"tg32"}
    assert [r["line"] for r in df.attrs["rejected"]].count(10) == 8


def test_upstream_fields_beside_split_ones_are_read_as_upstream(tmp_path):
    head = "build_commit,n_prompt,n_gen,avg_ns,stddev_ns,avg_ts,stddev_ts,avg_prompt_ts\n"
    p = tmp_path / "b.csv"
    p.write_text(head + '"abc","512","0","1000000","10","512000.0","5.0","9.9"\n', encoding="utf-8")
    df = ingest.read(p)
    assert _one(df, "pp512", "pp_rate", "mean")["value"] == 512000.0
