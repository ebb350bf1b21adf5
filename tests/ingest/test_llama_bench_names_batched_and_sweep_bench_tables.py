"""ik_llama.cpp's sweep-bench prints its own table, which no chapter reads: a file holding one is
refused in one sentence naming the table's line and what its rates are, not as unknown; a header with
no row under it names nothing; beside an empty llama-bench table the refusal names both. llama.cpp's
batched-bench table is read by its own parser, so llama-bench neither refuses it nor claims a file
where its own header stands empty beside it."""

import pytest

from benchbook import ingest
from benchbook.ingest import llama_bench
from benchbook.ingest.core import ParseError

BATCHED = (
    "|    PP |     TG |    B |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |      T s |    S t/s |\n"
    "|-------|--------|------|--------|----------|----------|----------|----------|----------|----------|\n"
    "|   128 |     64 |    1 |    192 |   22.274 |     5.75 |    6.203 |    10.32 |   28.477 |     6.74 |\n"
)
SWEEP = (
    "|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |\n"
    "|-------|--------|--------|----------|----------|----------|----------|\n"
    "|  2048 |    128 |      0 |    0.377 |  5428.85 |    0.920 |   139.06 |\n"
)
EMPTY = "| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
ROW = "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | tg128 | 130.12 ± 0.31 |\n"


def test_a_batched_bench_table_is_not_refused_by_llama_bench():
    assert llama_bench.refuses("./batched-bench m.gguf 8192 0 0\n\n" + BATCHED) is None


def test_a_sweep_bench_table_is_named_as_one_sequence_at_growing_depth():
    line, why = llama_bench.refuses("# title\n" + SWEEP)
    assert line == 2 and why.startswith("a llama-sweep-bench table") and "growing KV-cache depth" in why


def test_a_header_without_a_row_or_other_text_names_nothing():
    assert llama_bench.refuses(SWEEP.split("\n", 2)[0] + "\n" + SWEEP.split("\n", 2)[1] + "\n\n") is None
    assert llama_bench.refuses("no table here\n\n") is None


def test_an_empty_llama_bench_table_beside_a_batched_bench_table_is_not_llama_bench_output():
    assert ingest.detect(BATCHED + "\n" + EMPTY) == ["llama-batched-bench"]


def test_a_llama_bench_table_with_a_row_beside_a_batched_bench_table_is_both():
    assert set(ingest.detect(BATCHED + "\n" + EMPTY + ROW)) == {"llama-bench", "llama-batched-bench"}


def test_an_empty_llama_bench_table_alone_is_still_refused_as_cut():
    assert "llama-bench" in ingest.detect(EMPTY)


def test_beside_an_empty_llama_bench_table_the_refusal_names_the_sweep_bench_table():
    with pytest.raises(ParseError) as err:
        llama_bench.parse(SWEEP + "\n" + EMPTY, "f.md")
    assert err.value.line == 5 and "llama-sweep-bench table" in err.value.message and "at line 1" in err.value.message
