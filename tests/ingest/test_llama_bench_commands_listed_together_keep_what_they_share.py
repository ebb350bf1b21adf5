"""Each llama-bench invocation prints its own table. Where a file lists several commands with no table
between them and then one table (a bug report's "ran these two, here is the first's output"), it does
not say which command that table is, so the table takes only the flags every listed command sets alike:
`-ngl 0` of one of two commands is no fact of the table (the other ran at llama-bench's default)."""

from __future__ import annotations

from benchbook import ingest

TABLE = """| model                          |       size |     params | backend    | threads |            test |                  t/s |
| ------------------------------ | ---------: | ---------: | ---------- | ------: | --------------: | -------------------: |
| qwen35 9B Q4_K - Medium        |   5.28 GiB |     8.95 B | BLAS,MTL   |       4 |           pp256 |        597.06 ± 0.00 |
| qwen35 9B Q4_K - Medium        |   5.28 GiB |     8.95 B | BLAS,MTL   |       4 |            tg64 |         20.21 ± 0.00 |
"""

DEFAULT = "llama-bench -m Qwen3.5-9B-Q4_K_M.gguf -p 256 -n 64 -r 1"
FORCED_CPU = "llama-bench -m Qwen3.5-9B-Q4_K_M.gguf -p 256 -n 64 -r 1 -ngl 0"


def _read(tmp_path, text: str):
    f = tmp_path / "bench.md"
    f.write_text(text)
    return ingest.read(f, tool="llama-bench")


def test_a_flag_only_one_of_two_listed_commands_sets_is_not_the_tables(tmp_path):
    t = _read(tmp_path, f"```\n{DEFAULT}\n{FORCED_CPU}\n```\n\nDefault run:\n\n```\n{TABLE}```\n")
    assert t["ngl"].isna().all()
    assert set(t["model_file"]) == {"Qwen3.5-9B-Q4_K_M.gguf"}  # both commands name it


def test_one_command_above_its_table_still_gives_its_flags(tmp_path):
    t = _read(tmp_path, f"```\n{FORCED_CPU}\n```\n\n```\n{TABLE}```\n")
    assert set(t["ngl"]) == {0}


def test_a_command_after_a_table_starts_afresh(tmp_path):
    cpu = TABLE.replace("597.06", "71.30").replace("20.21", "9.87")
    t = _read(tmp_path, f"```\n{DEFAULT}\n```\n\n{TABLE}\n```\n{FORCED_CPU}\n```\n\n{cpu}")
    rates = t[t["statistic"] == "mean"].set_index("value")["ngl"]
    assert rates[71.30] == 0 and rates[9.87] == 0
    assert rates[[597.06, 20.21]].isna().all()
