"""One llama-sweep-bench table is one run stepping its own N_KV. Two tables of the same model and the same
printed settings (a run, then its rerun with an option the settings line does not print, `-fmoe` dropped in a
reply) are two depth sweeps, each its own depths once, never one sweep with every depth twice. A llama-bench
table's `-d` depths of one model and settings stay one sweep."""

from __future__ import annotations

import pandas as pd

from benchbook import ingest
from benchbook.analysis import bandwidth, prefill

CMD = "./llama-sweep-bench -m '/models/DeepSeek-R1-0528-UD-Q3_K_XL-00001-of-00007.gguf' -c 16384 -ngl 999 -fa -ub 2048\n\n"
SETTINGS = (
    "main: n_kv_max = 16384, n_batch = 2048, n_ubatch = 2048, flash_attn = 1, n_gpu_layers = 999, n_threads = 8, "
    "n_threads_batch = 8\n\n"
)
HEAD = (
    "|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |\n"
    "|-------|--------|--------|----------|----------|----------|----------|\n"
)
SLOW = (
    "|  2048 |    512 |      0 |   13.489 |   151.83 |  326.413 |     1.57 |\n"
    "|  2048 |    512 |   2048 |   12.965 |   157.96 |  326.891 |     1.57 |\n"
)
FAST = (
    "|  2048 |    512 |      0 |   10.990 |   186.35 |   58.726 |     8.72 |\n"
    "|  2048 |    512 |   2048 |   10.805 |   189.53 |   59.120 |     8.66 |\n"
)
BENCH = (
    "| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
    "| llama 8B Q4_0 | 4.33 GiB | 8.03 B | CUDA | 99 | tg128 | 150.52 ± 0.01 |\n"
    "| llama 8B Q4_0 | 4.33 GiB | 8.03 B | CUDA | 99 | tg128 @ d512 | 140.52 ± 0.01 |\n"
    "| llama 8B Q4_0 | 4.33 GiB | 8.03 B | CUDA | 99 | tg128 @ d1024 | 130.52 ± 0.01 |\n"
)


def _sweeps(tmp_path, text: str, tool: str) -> list:
    path = tmp_path / "s.md"
    path.write_text(text, encoding="utf-8")
    df = ingest.read(path, tool=tool)
    return prefill.sweeps(pd.concat([prefill.prompt_rows(df), bandwidth.generation_rows(df)], ignore_index=True))


def test_two_tables_of_one_model_and_settings_are_two_depth_sweeps(tmp_path):
    found = _sweeps(tmp_path, CMD + SETTINGS + HEAD + SLOW + "\nwithout it:\n\n" + HEAD + FAST, "llama-sweep-bench")
    tg = [[v[:2] for v in s["values"]] for s in found if s["test"] == "tg512"]
    assert tg == [[(0, 1.57), (2048, 1.57)], [(0, 8.72), (2048, 8.66)]]


def test_the_depths_of_one_llama_bench_table_stay_one_sweep(tmp_path):
    found = _sweeps(tmp_path, BENCH, "llama-bench")
    assert [[v[0] for v in s["values"]] for s in found if s["setting"] == "n_depth"] == [[0, 512, 1024]]
