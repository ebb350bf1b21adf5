"""A table with llama-bench's tests as its columns (GPULlama3's llama-tornado --bench) is a layout llama-bench
never prints: refused naming its header line; llama-bench's own table is read."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.ingest import llama_bench

TORNADO = """**Single-token forward** (`pp128` / `tg64`, t/s):

| model | quant | size | params | pp128 | tg64 |
|-------|-------|-----:|-------:|------:|-----:|
| Llama-3.2-1B | FP16 | 2.31 GiB | 1.24 B | 107.70 ± 0.86 | 109.60 ± 1.55 |
"""


def test_tests_as_columns_are_named_at_the_header(tmp_path):
    assert llama_bench.refuses(TORNADO) == (
        3,
        "a table with llama-bench's tests as its columns (pp128, tg64), a layout llama-bench never prints (one row "
        "per test under 'test' and 't/s'): another program's table or a writer's retabulation; not read",
    )
    path = tmp_path / "tornado.md"
    path.write_text(TORNADO, encoding="utf-8")
    with pytest.raises(ingest.ParseError, match=r":3: a table with llama-bench's tests"):
        ingest.read(path)


def test_a_table_with_a_test_column_is_not_this_refusal():
    own = TORNADO.replace("| pp128 | tg64 |", "| test | t/s |").replace("107.70 ± 0.86 | 109.60 ± 1.55", "pp128 | 1.0")
    assert llama_bench._tests_as_columns(own.splitlines()) is None
