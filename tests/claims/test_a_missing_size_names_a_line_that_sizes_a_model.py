"""The absence rule for a model's size: a page that ties no size to its results says "the input does not give
the model's size" only where no line of the file sizes a model; where one does (another tool's table with a
`params` column above a batched-bench table, a sentence with `34.66B parameters`), it names that line instead."""

from __future__ import annotations

from benchbook.analysis import serving
from benchbook.claims import rules
from benchbook.ingest import context

LLAMA_BENCH = [
    "## llama-bench",
    "| model                  |       size |     params | backend | ngl |  test |          t/s |",
    "| ---------------------- | ---------: | ---------: | ------- | --: | ----: | -----------: |",
    "| qwen35moe 35B.A3B Q8_0 |  34.36 GiB |    34.66 B | ROCm    |  -1 | tg256 | 82.19 ± 1.16 |",
    "",
]
BATCHED = [
    "## batched-bench",
    "|    PP |     TG |    B |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |      T s |    S t/s |",
    "|-------|--------|------|--------|----------|----------|----------|----------|----------|----------|",
    "|  2048 |    128 |    1 |   2176 |    0.847 |  2418.41 |    1.735 |    73.77 |    2.582 |   842.77 |",
]


def _said(tmp_path, lines: list[str]) -> dict:
    f = tmp_path / "run.md"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return serving.fact_said([f], "params", "params")


def test_a_params_column_is_a_sign_of_a_size_on_its_first_row():
    ctx = context.read(LLAMA_BENCH + BATCHED)
    signs = [s for s in ctx.signs if s.name == "params"]
    assert [(s.line, s.words) for s in signs] == [(4, "34.66 B of qwen35moe 35B.A3B Q8_0")]


def test_a_table_with_no_params_column_gives_no_sign():
    assert not [s for s in context.read(BATCHED).signs if s.name == "params"]


def test_the_missing_size_names_the_line_that_sizes_a_model(tmp_path):
    ev = _said(tmp_path, LLAMA_BENCH + BATCHED)
    assert ev["params_status"] == "unread" and ev["params_line"] == 4
    why = rules._missing_reason(["active_params_b", "bytes_per_token"], ev)
    assert "line 4 gives one (`34.66 B of qwen35moe 35B.A3B Q8_0`)" in why
    assert "does not give the model" not in why


def test_a_file_that_sizes_no_model_says_it_does_not_give_the_size(tmp_path):
    ev = _said(tmp_path, BATCHED)
    assert ev["params_status"] == "absent"
    assert "does not give the model's size" in rules._missing_reason(["active_params_b", "bytes_per_token"], ev)
