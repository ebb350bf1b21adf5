"""A GenAI-Perf table whose mean Input Sequence Length is more than `WORKLOAD_SPREAD` away from the input length
the log above it asks for (`--synthetic-input-tokens-mean N` on the command that printed it: its synthetic prompts
have N tokens, so the table prints N; a recipe's `ISL: 128` echo) is another workload's run: a recipe's "example
output format" under the log of its own 128-token run. The log's model and load are not the table's, and the
facts written in the log's block (`Concurrency: 1`) are no fact or sign of its run. Where the lengths agree, or
nothing states one, the log is the table's, as before."""

from __future__ import annotations

import math

from benchbook import ingest


def _table(mean_input: str) -> str:
    return f"""                              NVIDIA GenAI-Perf | LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┓
┃                         Statistic ┃    avg ┃    min ┃    max ┃    p99 ┃    p90 ┃    p75 ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━┩
│          Time to first token (ms) │  16.26 │  12.39 │  17.25 │  17.09 │  16.68 │  16.56 │
│             Input sequence length │ {mean_input:>6} │ 126.00 │ 553.00 │ 551.60 │ 550.00 │ 550.00 │
│ Output token throughput (per sec) │ 520.87 │    N/A │    N/A │    N/A │    N/A │    N/A │
└───────────────────────────────────┴────────┴────────┴────────┴────────┴────────┴────────┘
"""


def _recipe_log(isl: int) -> str:
    return f"""The recipe runs on 16 H100s.

```bash
Concurrency: 1
ISL: {isl}
OSL: 128
2025-03-29 21:06 [INFO] genai_perf.parser:115 - Profiling these models: deepseek-ai/deepseek-r1
2025-03-29 21:06 [INFO] genai_perf.subcommand.common:208 - Running Perf Analyzer : 'perf_analyzer -m deepseek-ai/deepseek-r1 --concurrency-range 1 --request-count 20'
```
A table will be printed for each GenAI-Perf command:
```
"""


def _read(tmp_path, text):
    f = tmp_path / "recipe.md"
    f.write_text(text + "```\n")
    return ingest.read(f), ingest.context_of(f)


def test_a_table_of_another_input_length_takes_neither_the_model_nor_the_load_of_the_log_above_it(tmp_path):
    df, ctx = _read(tmp_path, _recipe_log(128) + _table("550.06"))
    assert df["model"].isna().all() and df["max_concurrency"].isna().all()
    assert any("mean input of 550 tokens a request is not the 128 line 5 asks for" in m for m in df.attrs["messages"])
    assert not ctx.get("concurrency") and not [s for s in ctx.signs if s.name == "concurrency"]
    assert [f.value for f in ctx.get("device")] == ["H100"]  # the file's facts outside the log stay


def test_a_table_of_the_input_length_its_log_asks_for_is_that_logs_run(tmp_path):
    df, _ = _read(tmp_path, _recipe_log(550) + _table("550.06"))
    assert set(df["model"]) == {"deepseek-ai/deepseek-r1"} and set(df["max_concurrency"]) == {1.0}
    assert not any("another workload" in m for m in df.attrs["messages"])


def _profile(tokens: int) -> str:
    return (
        "```\ngenai-perf profile -m gpt2 --concurrency 4 "
        f"--synthetic-input-tokens-mean {tokens} --synthetic-input-tokens-stddev 0\n```\n\n```\n"
    )


def test_the_command_that_printed_the_table_states_its_input_length(tmp_path):
    kept, _ = _read(tmp_path, _profile(200) + _table("200.00"))
    assert set(kept["model"]) == {"gpt2"} and set(kept["max_concurrency"]) == {4.0}
    within, _ = _read(tmp_path, _profile(200) + _table("290.00"))  # 1.45x: within WORKLOAD_SPREAD
    assert set(within["model"]) == {"gpt2"}
    other, _ = _read(tmp_path, _profile(10) + _table("394.00"))
    assert other["model"].isna().all() and all(math.isnan(c) for c in other["max_concurrency"])


def test_a_table_that_prints_no_input_length_keeps_its_log(tmp_path):
    table = "\n".join(line for line in _table("550.06").split("\n") if "Input sequence" not in line)
    df, _ = _read(tmp_path, _recipe_log(128) + table)
    assert set(df["model"]) == {"deepseek-ai/deepseek-r1"}
