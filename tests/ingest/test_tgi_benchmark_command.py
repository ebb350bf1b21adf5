"""A `text-generation-benchmark` command states what the tool's parameter table would print:
`--tokenizer-name` is its Model row (benchmark/src/table.rs), `--runs` its N Runs; a parameter table
printed after the command replaces them."""

from __future__ import annotations

from benchbook.ingest import tgi

TABLE = """| Step           | Batch Size | Average   | Lowest    | Highest   | p50       | p90       | p99       |
|----------------|------------|-----------|-----------|-----------|-----------|-----------|-----------|
| Prefill        | 100        | 370.77 ms | 370.77 ms | 370.77 ms | 370.77 ms | 370.77 ms | 370.77 ms |
"""
COMMAND = (
    "* On A100: `text-generation-benchmark --tokenizer-name meta-llama/Llama-2-13b-chat-hf "
    "--sequence-length 40 --decode-length 10 --runs 1 --warmups 1 -b 100`\n\n"
)
PARAMS = """| Parameter          | Value                 |
|--------------------|-----------------------|
| Model              | bigscience/bloomz-7b1 |
| Sequence Length    | 10                    |
| Decode Length      | 8                     |
| N Runs             | 10                    |
| Warmups            | 1                     |

"""


def test_the_benchmark_command_names_the_model_and_the_runs_of_the_table_under_it():
    t = tgi.parse(COMMAND + TABLE, "cmd.md").table
    assert set(t["model"]) == {"meta-llama/Llama-2-13b-chat-hf"}
    assert set(t["n_runs"]) == {1} and set(t["sequence_length"]) == {40} and set(t["decode_length"]) == {10}


def test_a_parameter_table_printed_after_the_command_wins_and_no_command_names_nothing():
    t = tgi.parse(COMMAND + PARAMS + TABLE, "both.md").table
    assert set(t["model"]) == {"bigscience/bloomz-7b1"} and set(t["n_runs"]) == {10}
    bare = tgi.parse(TABLE, "bare.md").table
    assert bare["model"].isna().all() and bare["n_runs"].isna().all()


def test_a_launcher_command_is_no_benchmark_command():
    t = tgi.parse("text-generation-launcher --model-id x/y --num-shard 2\n\n" + TABLE, "launch.md").table
    assert set(t["model"]) == {"x/y"} and t["n_runs"].isna().all()
