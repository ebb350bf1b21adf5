"""A bench_serving block whose lines were joined into one line of prose is refused naming that line; the
block as the tool prints it (a row per line) is not this refusal."""

from __future__ import annotations

from benchbook.ingest import sglang_serving

BLOCK = [
    "============ Serving Benchmark Result ============",
    "Backend:                                 vllm",
    "Traffic request rate:                    inf",
    "Successful requests:                     9996",
    "Benchmark duration (s):                  11118.99",
]
FLAT = (
    "# Lost requests\n\nwe test 10000 requests and only 9996 succeed ``` "
    + " ".join(" ".join(s.split()) for s in BLOCK)
    + " ...\n"
)


def test_a_flattened_block_is_named_at_its_line():
    line, why = sglang_serving.refuses(FLAT)
    assert line == 3
    assert why.startswith("a 'Serving Benchmark Result' block flattened into a line of other text")


def test_the_block_a_row_per_line_is_not_this_refusal():
    assert sglang_serving.refuses("\n".join(["we test 10000 requests", *BLOCK, "=" * 50, ""])) is None
