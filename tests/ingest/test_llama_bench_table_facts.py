"""The run facts llama-bench's own columns print (KV cache type, threads, layers on the GPU) are facts
the file states, each value with the rows that print it; a table without those columns states none."""

from __future__ import annotations

from benchbook import ingest
from benchbook.ingest import context

WITH = """| model | size | params | backend | ngl | threads | type_k | type_v | test | t/s |
| --- | ---: | ---: | --- | --: | --: | --: | --: | ---: | ---: |
| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | 8 | q8_0 | q8_0 | pp512 | 1000.00 ± 1.00 |
| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | 8 | q8_0 | f16 | tg128 | 100.00 ± 1.00 |
"""

WITHOUT = """| model | size | params | backend | test | t/s |
| --- | ---: | ---: | --- | ---: | ---: |
| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | tg128 | 100.00 ± 1.00 |
"""


def test_the_kv_cache_type_threads_and_gpu_layers_llama_bench_prints_are_stated_with_their_rows(tmp_path):
    path = tmp_path / "with.md"
    path.write_text(WITH, encoding="utf-8")
    ctx = ingest.context_of(path)
    assert [(f.value, f.line) for f in ctx.get("kv_dtype")] == [("q8_0", 3), ("K q8_0, V f16", 4)]
    assert {f.value for f in ctx.get("threads")} == {8} and {f.value for f in ctx.get("gpu_layers")} == {99}
    assert context.states(ctx, "kv_dtype").status == "stated"


def test_a_table_without_those_columns_states_none_of_them(tmp_path):
    path = tmp_path / "without.md"
    path.write_text(WITHOUT, encoding="utf-8")
    ctx = ingest.context_of(path)
    assert ctx.get("kv_dtype") == () and ctx.get("threads") == () and ctx.get("gpu_layers") == ()
    assert context.states(ctx, "threads").status == "absent"
