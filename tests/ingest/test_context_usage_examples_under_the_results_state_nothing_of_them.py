"""Two or more benchmark commands written under a file's results that set one setting differently are
usage examples (a tutorial's, under its sample output): none made the output, so their facts state
nothing of it (`context.examples_after`) and AIPerf's console parser takes neither; the one command
written under the results stays theirs."""

from __future__ import annotations

from benchbook.ingest import aiperf_console, context

TABLE = """                                NVIDIA AIPerf | LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┓
┃                               Metric ┃       avg ┃       min ┃       max ┃       p99 ┃       p90 ┃       p50 ┃       std ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━┩
│             Time to First Token (ms) │  1,684.39 │    787.37 │  6,778.97 │  6,475.99 │  3,749.18 │    842.25 │  1,864.61 │
│                 Request Latency (ms) │ 65,584.01 │ 36,996.33 │ 84,822.28 │ 84,386.70 │ 80,466.49 │ 67,367.31 │ 14,280.37 │
│ Output Token Throughput (tokens/sec) │     23.46 │       N/A │       N/A │       N/A │       N/A │       N/A │       N/A │
│    Request Throughput (requests/sec) │      0.03 │       N/A │       N/A │       N/A │       N/A │       N/A │       N/A │
│             Request Count (requests) │     10.00 │       N/A │       N/A │       N/A │       N/A │       N/A │       N/A │
└──────────────────────────────────────┴───────────┴───────────┴───────────┴───────────┴───────────┴───────────┴───────────┘"""

COMMAND = """```bash
aiperf profile \\
  --model Qwen/Qwen3-0.6B \\
  --url localhost:8000 \\
  --streaming \\
  --concurrency 10 \\
  --request-count 100
```"""


RATE = """```bash
aiperf profile \\
  --model Qwen/Qwen3-0.6B \\
  --url localhost:8000 \\
  --request-rate 32 \\
  --request-count 64
```"""


def _run(text: str) -> dict:
    records, _rejects, _cells = aiperf_console.parse(text, "f.md", [])
    return records[0]


def _doc(*commands: str) -> str:
    return "\n".join(["```text", TABLE, "```", "", *commands, ""])


def test_two_example_commands_under_the_results_are_neither_the_runs():
    text = _doc("## Examples", RATE, "Fixed concurrency:", COMMAND)
    run = _run(text)
    assert run["max_concurrency"] != 10 and run["num_prompts"] != 100
    lines = text.splitlines()
    examples = context.examples_after(context.read(lines), lines, [6])
    assert not examples.get("model") and not examples.get("concurrency")


def test_the_one_command_under_the_results_is_the_runs():
    text = _doc("### Benchmark Command", COMMAND)
    run = _run(text)
    assert run["max_concurrency"] == 10 and run["num_prompts"] == 100
    lines = text.splitlines()
    kept = context.examples_after(context.read(lines), lines, [6])
    assert [f.value for f in kept.get("model")] == ["Qwen/Qwen3-0.6B"]


def test_a_command_above_the_results_is_theirs_whatever_follows():
    lines = "\n".join([COMMAND, "", "```text", TABLE, "```", "", RATE]).splitlines()
    kept = context.examples_after(context.read(lines), lines, [12])
    assert 10 in [f.value for f in kept.get("concurrency")]
