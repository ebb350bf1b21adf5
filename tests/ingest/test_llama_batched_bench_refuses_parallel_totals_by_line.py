"""llama.cpp's `parallel` example prints totals over all its clients (`Total prompt tokens: N, speed: R t/s`),
whose requests overlap under continuous batching: one throughput at one client count, neither a batch curve
nor one request's rate. It is refused by its line and named; a file without that print is not refused."""

from __future__ import annotations

from benchbook.ingest import llama_batched_bench

TOTALS = [
    "LLAMA_CUBLAS=1 make -j && ./parallel -m models/openllama-7b/ggml-model-f16.gguf -np 10 -ns 128 -n 100 -cb",
    "",
    "Total prompt tokens:   2011, speed: 153.91 t/s",
    "Total gen tokens:      1864, speed: 142.66 t/s",
    "Total speed (AVG):           speed: 296.58 t/s",
]


def test_parallel_totals_are_refused_by_their_line():
    line, why = llama_batched_bench.refuses("\n".join(TOTALS))
    assert line == 3 and why.startswith("llama.cpp's parallel example's totals")


def test_a_file_without_the_totals_is_not_refused():
    assert llama_batched_bench.refuses("\n".join(TOTALS[:2] + ["Total speed: fast"])) is None
