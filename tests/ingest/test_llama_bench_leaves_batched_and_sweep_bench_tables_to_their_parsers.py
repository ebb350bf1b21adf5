"""llama.cpp's batched-bench table and ik_llama.cpp's sweep-bench table are each read by their own
parser, so llama-bench neither refuses them nor claims a file where its own header stands empty beside
one; an empty llama-bench header alone is still llama-bench's (a cut output)."""

from benchbook import ingest
from benchbook.ingest import llama_bench

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


def test_a_sweep_bench_table_is_not_refused_by_llama_bench_but_read_by_its_own_parser():
    assert llama_bench.refuses("# title\n" + SWEEP) is None
    assert ingest.detect("# title\n" + SWEEP) == ["llama-sweep-bench"]


def test_an_empty_llama_bench_table_beside_a_batched_bench_table_is_not_llama_bench_output():
    assert ingest.detect(BATCHED + "\n" + EMPTY) == ["llama-batched-bench"]


def test_a_llama_bench_table_with_a_row_beside_a_batched_bench_table_is_both():
    assert set(ingest.detect(BATCHED + "\n" + EMPTY + ROW)) == {"llama-bench", "llama-batched-bench"}


def test_an_empty_llama_bench_table_alone_is_still_refused_as_cut():
    assert "llama-bench" in ingest.detect(EMPTY)


def test_an_empty_llama_bench_table_beside_a_sweep_bench_table_is_not_llama_bench_output():
    assert ingest.detect(SWEEP + "\n" + EMPTY) == ["llama-sweep-bench"]
    assert set(ingest.detect(SWEEP + "\n" + EMPTY + ROW)) == {"llama-bench", "llama-sweep-bench"}
