"""A harness that saves bench_serving's print as a JSON list of its lines (`"benchmark_result":
["====...", "Backend: sglang", ...]`, sglang PR #21576) holds the tool's block: each item is one of the
tool's rows, read at its own line. A list of strings without the tool's banner is no block."""

import json

import pytest

from benchbook.ingest import sglang_serving
from benchbook.ingest.core import ParseError

ROWS = [
    "============ Serving Benchmark Result ============",
    "Backend:                                 sglang",
    "Traffic request rate:                    inf",
    "Max request concurrency:                 not set",
    "Successful requests:                     256",
    "Benchmark duration (s):                  30.36",
    "Request throughput (req/s):              8.43",
    "==================================================",
]


def saved(rows) -> str:
    """A write-up quoting the harness's JSON in a code block, as the pull request's description does."""
    items = ",\n".join(f"        {json.dumps(r)}" for r in rows)
    command = "bash -c ' python3 -m sglang.bench_serving --num-prompts 256 --port 30000 '"
    return f'# A PR\n\n```\n    "bench_serving_command": "{command}",\n' + (
        f'    "benchmark_result": [\n{items}\n    ]\n```\n'
    )


def test_the_items_of_a_saved_block_are_its_rows_each_at_its_line():
    text = saved(ROWS)
    assert sglang_serving.sniff(text)
    t = sglang_serving.parse(text, "r.md").table
    done = t[t["metric"] == "completed"].iloc[0]
    assert done["value"] == 256 and done["line"] == 10  # the item's own line in the file
    assert t[t["metric"] == "request_throughput"]["value"].tolist() == [8.43]
    assert t["num_prompts"].eq(256).all()


def test_a_list_of_strings_without_the_tools_banner_is_no_block():
    text = saved(ROWS[1:])
    assert not sglang_serving.sniff(text)
    with pytest.raises(ParseError):
        sglang_serving.parse(text, "r.md")
