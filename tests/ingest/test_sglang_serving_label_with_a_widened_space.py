"""bench_serving prints each row's label with single spaces (`"{:<40} {:<10}".format(label, value)`): a
copy that widens a space inside a label holds the same label and its row is read; a label whose words
differ is still no row of the tool's."""

from __future__ import annotations

from benchbook.ingest import sglang_serving

HEAD = [
    "============ Serving Benchmark Result ============",
    "Backend:                                 sglang",
    "Traffic request rate:                    inf",
    "Max request concurrency:                 4",
    "Successful requests:                     32",
    "Benchmark duration (s):                  89.02",
    "Total input tokens:                      237793",
    "Total generated tokens:                  28932",
]
TAIL = [
    "Request throughput (req/s):              0.36",
    "Output token throughput (tok/s):         324.99",
    "=" * 50,
    "",
]


def _cells(rows: list[str]):
    return sglang_serving.parse("\n".join([*HEAD, *rows, *TAIL]), "x.md").table


def _peak(df):
    hit = df[df["metric"] == "peak_output_throughput"]
    return list(hit["value"])


def test_a_label_with_a_widened_space_is_the_tools_row():
    df = _cells(["Peak output token throughput   (tok/s):    372.00"])
    assert _peak(df) == [372.0]


def test_a_label_of_other_words_is_still_set_aside():
    df = _cells(["Peak output token throughput per GPU (tok/s):    93.00"])
    assert _peak(df) == []
