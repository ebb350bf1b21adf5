"""vllm bench serve's rows pasted without the banner and without the counts that open the block
(`Successful requests:`, `Benchmark duration (s):`) are refused in one sentence naming their first
line, where the file's `vllm bench serve` command names the tool; without such a command, or with
fewer rows than a block's, nothing is said; a block that keeps its counts is read."""

from benchbook import ingest
from benchbook.ingest import vllm_serve

COMMAND = "vllm bench serve --model m --num-prompts 8 --max-concurrency 1\n\n219tok/s\nMTP 2\n\n```\n"
ROWS = (
    "Output token throughput (tok/s):         219.95\n"
    "Mean TTFT (ms):                          3857.68\n"
    "Mean TPOT (ms):                          3.58\n"
    "Mean ITL (ms):                           10.10\n"
    "Acceptance rate (%):                     90.84\n"
    "Acceptance length:                       2.82\n"
    "```\n"
)


def test_rows_alone_under_a_vllm_command_are_refused_naming_their_first_line():
    line, why = vllm_serve.refuses(COMMAND + ROWS)
    assert line == 7 and why.startswith("vllm bench serve's result rows pasted without the block's banner")
    assert ingest.detect(COMMAND + ROWS) == []


def test_the_other_way_no_command_few_rows_or_a_block_with_its_counts():
    assert vllm_serve.refuses(ROWS) is None
    assert vllm_serve.refuses(COMMAND + "".join(ROWS.splitlines(keepends=True)[:3])) is None
    counted = (
        "Successful requests:                     8\n"
        "Benchmark duration (s):                  160.00\n"
        "Total input tokens:                      400000\n"
        "Total generated tokens:                  32000\n"
        "Request throughput (req/s):              0.05\n"
    )
    assert ingest.detect(COMMAND + counted + ROWS) == ["vllm-bench-serve"]
