"""The serving page's latency tables and tail sentence: a column for each statistic some run prints and
none for one no run prints, each empty cell saying why, and p99 over the median read only where a run
prints both (synthetic `vllm bench serve` blocks with known percentiles)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from benchbook import ingest
from benchbook.analysis import serving
from benchbook.presentation import serving as show


def block(cap: int, stats: dict[str, dict[str, float]], generated: int = 6400) -> str:
    """A `vllm bench serve` result block in the tool's `{:<40} {:<10}` rows; `stats` maps TTFT/TPOT/ITL/E2EL
    to the statistics printed (Mean, Median, P90, ...) and their values in ms."""
    rows = [
        ("Successful requests:", 100),
        ("Maximum request concurrency:", cap),
        ("Benchmark duration (s):", "20.00"),
        ("Total input tokens:", 12800),
        ("Total generated tokens:", generated),
        ("Request throughput (req/s):", "5.00"),
        ("Output token throughput (tok/s):", f"{generated / 20:.2f}"),
    ]
    lines = [f"{' Serving Benchmark Result ':=^50}", *(f"{k:<40} {v:<10}" for k, v in rows)]
    for name, printed in stats.items():
        lines += [f"{s + ' ' + name + ' (ms):':<40} {v:<10.2f}" for s, v in printed.items()]
    return "\n".join([*lines, "=" * 50, ""])


def read(tmp_path, *blocks: str) -> pd.DataFrame:
    p = tmp_path / "runs.txt"
    p.write_text("\n".join(f"## c={i}\n\n{b}" for i, b in enumerate(blocks, 1)))
    return serving.runs(ingest.read(p, tool="vllm-bench-serve"))


LOW = {"TTFT": {"Mean": 120.0, "Median": 100.0, "P90": 180.0, "P99": 250.0}, "TPOT": {"Mean": 20.0}}
HIGH = {"TTFT": {"Mean": 900.0, "Median": 400.0, "P99": 3600.0}, "TPOT": {"Mean": 30.0}}


def test_a_column_for_each_statistic_some_run_prints_and_none_for_one_no_run_prints(tmp_path):
    r = read(tmp_path, block(1, LOW), block(2, HIGH))
    t, missing = show.latency_table(r, "ttft")
    assert list(t.columns) == ["run", "mean TTFT (ms)", "median TTFT (ms)", "p90 TTFT (ms)", "p99 TTFT (ms)"]
    assert t["p90 TTFT (ms)"].iloc[0] == pytest.approx(180.0)
    assert np.isnan(t["p90 TTFT (ms)"].iloc[1]) and missing["p90 TTFT (ms)"].iloc[1] == show.NOT_PRINTED
    assert len(t.columns) <= 7
    tpot, _ = show.latency_table(r, "tpot")
    assert list(tpot.columns) == ["run", "mean TPOT (ms)"]
    e2el, _ = show.latency_table(r, "e2el")
    assert list(e2el.columns) == ["run"]  # no run prints an E2EL: no table for it
    assert len(show.latency_tables(r)) == 2


def test_a_run_where_no_token_came_says_so_in_its_empty_cells(tmp_path):
    silent = {"TTFT": {"Mean": 0.0, "Median": 0.0, "P99": 0.0}, "E2EL": {"Mean": 50.0}}
    r = read(tmp_path, block(1, LOW), block(2, silent, generated=0))
    _, missing = show.latency_table(r, "ttft")
    assert missing["median TTFT (ms)"].tolist() == [show.NOT_PRINTED, show.NO_TOKEN]
    t, _ = show.latency_table(r, "e2el")
    assert t["mean E2EL (ms)"].iloc[1] == pytest.approx(50.0)  # an E2EL is a latency with no token too


def test_the_tail_sentence_names_the_lowest_and_highest_p99_over_median(tmp_path):
    text = show.tail_sentence(read(tmp_path, block(1, LOW), block(2, HIGH)))
    assert (
        "Across the 2 runs with both read (and more than one request), p99 TTFT is 2.5x its median in run `c=1`" in text
    )
    assert "(250 ms against 100 ms), the least of them, and" in text
    assert "up to 9.0x in run `c=2` (3,600 ms against 400 ms)" in text


def test_the_tail_sentence_reads_one_run_and_says_why_it_has_none(tmp_path):
    one = show.tail_sentence(read(tmp_path, block(1, HIGH)))
    assert "In this run, p99 TTFT is 9.0x its median (3,600 ms against 400 ms)" in one
    means = {"TTFT": {"Mean": 120.0}, "TPOT": {"Mean": 20.0, "P99": 40.0}}
    assert show.tail_sentence(read(tmp_path, block(1, means))).startswith("No run has both a median and a p99")
    silent = {"TTFT": {"Mean": 0.0, "Median": 0.0, "P99": 0.0}}  # no token came: no latency to read
    none = show.tail_sentence(read(tmp_path, block(1, silent, generated=0)))
    assert none.startswith("No statistic of TTFT, TPOT, ITL or E2EL was read for any run")


def test_the_tail_sentence_falls_to_the_first_latency_with_both():
    r = pd.DataFrame({"run": ["a"], "ttft_mean": [10.0], "e2el_median": [1000.0], "e2el_p99": [3000.0]})
    assert "p99 E2EL is 3.0x its median" in show.tail_sentence(r)


def test_a_run_where_none_completed_or_whose_value_was_set_aside_says_so():
    r = pd.DataFrame(
        {
            "run": ["a", "b", "c", "d"],
            "completed": [50.0, 0.0, 50.0, np.nan],
            "ttft_mean": [120.0, np.nan, np.nan, np.nan],
            "latency_set_aside": ["", "", "ttft", ""],
        }
    )
    _, missing = show.latency_table(r, "ttft")
    assert missing["mean TTFT (ms)"].tolist()[1:] == [show.NONE_COMPLETED, show.NOT_READ, show.NOT_PRINTED]
    _, other = show.latency_table(r.assign(tpot_mean=[20.0, np.nan, np.nan, np.nan]), "tpot")
    assert other["mean TPOT (ms)"].iat[2] == show.NOT_PRINTED  # the TTFT set aside says nothing of TPOT


def test_one_run_of_several_with_a_tail_is_named():
    r = pd.DataFrame(
        {"run": ["a", "b"], "completed": [1.0, 40.0], "ttft_median": [300.0, 200.0], "ttft_p99": [300.0, 700.0]}
    )
    text = show.tail_sentence(r)  # run a: one request, its median is its p99
    assert "In run `b`, the one with both read (and more than one request), p99 TTFT is 3.5x its median" in text
