"""A llama-sweep-bench command's `-m "%MODEL_PATH%"` (cmd.exe's variable, as sh's `$MODEL_PATH`) is replaced by
the shell before the tool runs: it names no model file. The page used to call every table under such a command
the one model "%MODEL_PATH%", so two tables of two models (a Qwen3-235B and a Qwen3-30B sweep under one command)
were one model's 64 results; each table is now its own unnamed model's. A plain `-m` path still names its file."""

from __future__ import annotations

from benchbook.ingest import context, llama_sweep_bench

TABLE = (
    "|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |\n"
    "|-------|--------|--------|----------|----------|----------|----------|\n"
    "|   512 |    128 |      0 |   {tpp} |    {spp} |    9.924 |    12.90 |\n"
)


def test_a_shell_variable_after_m_names_no_model_file():
    assert "model_file" not in llama_sweep_bench.command(
        './llama-sweep-bench -m "%MODEL_PATH%" -c 16384 -t 20 -ngl 0 -fa'
    )
    assert "model_file" not in llama_sweep_bench.command("./llama-sweep-bench -m $MODEL -t 20")
    assert llama_sweep_bench.command("./llama-sweep-bench -m /m/Qwen3-8B-Q8_0.gguf -t 20")["model_file"] == (
        "Qwen3-8B-Q8_0.gguf"
    )


def test_two_tables_under_a_variable_model_are_two_runs_not_one_models():
    text = (
        '```text\n./llama-sweep-bench -m "%MODEL_PATH%" -c 16384 -t 20 -ngl 0 -fa\n```\n\n'
        + TABLE.format(tpp="67.198", spp="7.62")
        + "\n"
        + TABLE.format(tpp=" 8.519", spp="60.10")
    )
    t = llama_sweep_bench.parse(text, "x.md").table
    assert t["model_file"].isna().all() and t["table_line"].nunique() == 2


def test_a_cmd_variable_is_a_placeholder():
    assert context.placeholder("%MODEL_PATH%") and context.placeholder('"%MODEL_PATH%"')
    assert not context.placeholder("Qwen3-8B") and not context.placeholder("50%")
