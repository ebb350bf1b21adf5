"""llama-bench's markdown printer opens every row with model, size, params and backend and closes it with
test and t/s; the columns between (ngl or threads, then each setting the run varied) are named only by
the header. Rows whose header a writer cut (or replaced with `...`) are refused in one sentence naming the
first row, since no row's settings can be named; a table with its header is read as before."""

from __future__ import annotations

import pytest

from benchbook.ingest import llama_bench
from benchbook.ingest.core import ParseError

ROWS = [
    "| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | SYCL       |  99 |  none |         pp512 |     11.10 ± 3.48 |",
    "| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | SYCL       |  99 |  none |         tg128 |     26.38 ± 0.15 |",
]
HEAD = [
    "| model | size | params | backend | ngl | sm | test | t/s |",
    "| --- | ---: | ---: | --- | --: | --: | ---: | ---: |",
]


def test_rows_under_an_elided_header_are_refused_naming_the_first_row():
    text = "\n".join(["$ ./bin/llama-bench -m model.gguf -ngl 99 -sm none", "...", *ROWS, "", "build: d62e4aaa (3215)"])
    line, why = llama_bench.refuses(text)
    assert line == 3 and "no header row above them" in why


def test_the_same_rows_under_their_header_are_read():
    table = llama_bench.parse("\n".join([*HEAD, *ROWS]), "x.md").table
    assert list(table.value[table.statistic == "mean"]) == [11.10, 26.38]


def test_a_table_that_is_not_llama_benchs_is_not_refused_as_headerless():
    assert llama_bench.refuses("| a | b | c | d | e | f |\n| 1 | 2 | 3 | 4 | 5 | 6 |") is None
    with pytest.raises(ParseError):
        llama_bench.parse("\n".join(ROWS), "x.md")
