"""ik_llama.cpp's llama-bench prints no `ot` column: the tensor-buffer overrides a command sets (`-ot exps=CPU`,
`-ot ffn=CPU`) are known only from the command above the table, and they place the weights, so two commands'
tables are two configurations, never one sweep. A table that prints its own `ot` column keeps the column's."""

from __future__ import annotations

from benchbook.ingest import llama_bench

HEADER = (
    "| model | size | params | backend | ngl | fa | test | t/s |\n"
    "| --- | ---: | ---: | --- | --: | -: | ---: | ---: |\n"
)


def _table(ot: str, rate: str) -> str:
    return (
        f"$ llama-bench -fa 0 -ot {ot} -ngl 99 -m q.gguf\n"
        + HEADER
        + f"| qwen3moe ?B IQ4_XS | 15.32 GiB | 30.53 B | CUDA | 99 | 0 | pp512 | {rate} ± 0.19 |\n\n"
    )


def test_two_commands_overrides_tell_their_rows_apart():
    df = llama_bench.parse(_table("exps=CPU", "15.72") + _table("ffn=CPU", "15.66"), "o.md").table
    assert sorted(df["extra_settings"].dropna().unique()) == ["ot=exps=CPU", "ot=ffn=CPU"]


def test_a_printed_ot_column_is_the_rows_own():
    text = (
        "$ llama-bench -ot exps=CPU -m q.gguf\n"
        "| model | size | params | backend | ot | test | t/s |\n| --- | ---: | ---: | --- | --- | ---: | ---: |\n"
        "| qwen3moe 30B.A3B IQ4_XS | 15.32 GiB | 30.53 B | CUDA | exps=CPU | pp512 | 14.29 ± 0.05 |\n"
    )
    df = llama_bench.parse(text, "m.md").table
    assert df["extra_settings"].dropna().unique().tolist() == ["ot=exps=CPU"]


def test_a_command_without_overrides_adds_none():
    df = llama_bench.parse(_table("exps=CPU", "15.72").replace(" -ot exps=CPU", ""), "n.md").table
    assert df["extra_settings"].isna().all()
