"""A llama-sweep-bench table is one run of one model at a growing depth: where nothing names that model,
its rows share one label by the table's header line (`the model of the table on line N`), so its depths
are one sweep, stepped by the tool itself (N_KV, not llama-bench's `-d`); two tables are two models. A model
that nothing names or sizes has no architecture (not "dense"); a printed count alone still reads as dense."""

from __future__ import annotations

import pandas as pd

from benchbook import ingest
from benchbook.analysis import bandwidth, prefill

HEAD = (
    "|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |\n"
    "|-------|--------|--------|----------|----------|----------|----------|\n"
)
ROWS = (
    "|  2048 |    512 |      0 |    0.352 |  5823.61 |    3.101 |   165.11 |\n"
    "|  2048 |    512 |   2048 |    0.392 |  5229.45 |    3.264 |   156.88 |\n"
)
BENCH = (
    "| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
    "| llama 8B Q4_0 | 4.33 GiB | 8.03 B | CUDA | 99 | tg128 | 150.52 ± 0.01 |\n"
    "| llama 8B Q4_0 | 4.33 GiB | 8.03 B | CUDA | 99 | tg128 @ d512 | 140.52 ± 0.01 |\n"
)


def _rows(tmp_path, text: str) -> pd.DataFrame:
    path = tmp_path / "s.md"
    path.write_text(text, encoding="utf-8")
    df = ingest.read(path, tool="llama-sweep-bench")
    return pd.concat([prefill.prompt_rows(df), bandwidth.generation_rows(df)], ignore_index=True)


def test_an_unnamed_models_depths_are_one_sweep_under_its_tables_label(tmp_path):
    rows = _rows(tmp_path, "# title\n\n" + HEAD + ROWS)
    assert set(bandwidth.model_keys(rows)) == {"the model of the table on line 3"}
    assert {bandwidth.label(r) for _, r in rows.iterrows()} == {"the model of the table on line 3"}
    found = prefill.sweeps(rows)
    assert sorted(s["test"] for s in found) == ["pp2048", "tg512"] and {s["setting"] for s in found} == {"n_kv"}
    assert [v[1] for s in found if s["test"] == "tg512" for v in s["values"]] == [165.11, 156.88]


def test_the_other_way_two_tables_are_two_models_and_llama_bench_depths_stay_d(tmp_path):
    rows = _rows(tmp_path, HEAD + ROWS + "\n" + HEAD + ROWS)
    assert set(bandwidth.model_keys(rows)) == {"the model of the table on line 1", "the model of the table on line 6"}
    assert len(prefill.sweeps(rows)) == 4
    path = tmp_path / "b.md"
    path.write_text(BENCH, encoding="utf-8")
    bench = bandwidth.generation_rows(ingest.read(path, tool="llama-bench"))
    assert {s["setting"] for s in prefill.sweeps(bench)} == {"n_depth"}


def test_a_model_nothing_names_or_sizes_has_no_architecture():
    override = bandwidth.override_table({})
    assert bandwidth.model_size(override, None, None)["architecture"] == "unknown"
    assert bandwidth.model_size(override, 8.03, None)["architecture"] == "dense"
