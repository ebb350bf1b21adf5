"""A serving page of an authors' table (`ingest.serving_table`) shows each number as the table names it: a
`TTFT (ms)` that names no statistic in its own column, never under mean or median; a bare `Throughput
(tok/s)` in a table of its own, never as output throughput; and where a header does name the statistic
or the kind, the page's usual column holds it."""

from __future__ import annotations

import pandas as pd

from benchbook import ingest
from benchbook.analysis import serving
from benchbook.presentation import serving as show
from benchbook.presentation import wording

HEAD = "# Results\n\n- SGLang: 0.5.13\n\n"


def read(tmp_path, header: str, rows: list[str]) -> pd.DataFrame:
    p = tmp_path / "pr.md"
    p.write_text(HEAD + header + "\n|---|---|---|---|\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return serving.runs(ingest.read(p))


ROWS = ["| 1 | 210 | 14.9 | 65 |", "| 16 | 167 | 31.8 | 486 |"]


def test_an_unnamed_statistic_and_an_unnamed_throughput_are_shown_as_named(tmp_path):
    r = read(tmp_path, "| Concurrency | TTFT (ms) | TPOT (ms) | Throughput (tok/s) |", ROWS)
    t, _ = show.latency_table(r, "ttft")
    assert list(t.columns) == ["run", "TTFT, as the table names it (ms)"]
    assert list(t["TTFT, as the table names it (ms)"]) == [210, 167]
    shown = [x.data if hasattr(x, "data") else x for x in show.runs_tables(r)]
    heads = [list(getattr(s, "columns", [])) for s in shown]
    assert ["run", "throughput, as the table names it (tok/s)"] in heads
    assert not any("output throughput (tok/s)" in h for h in heads)  # an empty table of output throughput is no fact


def test_a_named_statistic_and_kind_go_to_the_usual_columns(tmp_path):
    r = read(tmp_path, "| Concurrency | Mean TTFT (ms) | Median TPOT (ms) | Output throughput (tok/s) |", ROWS)
    t, _ = show.latency_table(r, "ttft")
    assert list(t.columns) == ["run", "mean TTFT (ms)"]
    assert list(r["output_throughput"]) == [65, 486]
    assert "throughput" not in r


def test_the_figures_say_the_tables_throughput_is_named_neither_output_nor_total(tmp_path):
    figure = wording.words("serving_saturation")["figure"]
    r = read(tmp_path, "| Concurrency | TTFT (ms) | TPOT (ms) | Throughput (tok/s) |", ROWS)
    r["x"] = r["max_concurrency"]
    assert show.plot_saturation(r, r.iloc[0:0], "max_concurrency").benchbook_message == figure["named_throughput"]
    assert show.plot_latency_tradeoff(r, "max_concurrency").benchbook_message == figure["named_latency"]
    plain = r.drop(columns=["throughput"])  # no throughput at all: the sentence of none
    assert show.plot_saturation(plain, r.iloc[0:0], "max_concurrency").benchbook_message == figure["no_throughput"]
    assert show.plot_latency_tradeoff(plain, "max_concurrency").benchbook_message != figure["named_latency"]
