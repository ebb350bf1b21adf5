"""bench_serving prints `Backend:` first under its `Serving Benchmark Result` banner; a banner over
other rows of its block (a script that printed a selection of them) is not its print: a file holding
only that is refused in one sentence naming the banner's line, and a block that opens with `Backend:`
is read."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.ingest import sglang_serving as s

ROWS = [
    "Benchmark duration (s):                  473.44",
    "Output token throughput (tok/s):         0.04",
    "Mean E2E Latency (ms):                   118313.04",
    "Mean TTFT (ms):                          87380.50",
    "==================================================",
]
BANNER = "============ Serving Benchmark Result ============"


def test_a_banner_over_a_selection_of_rows_is_refused_naming_its_line(tmp_path):
    f = tmp_path / "subset.md"
    f.write_text("Mode: BF16\n```text\n" + "\n".join([BANNER, *ROWS]) + "\n```\n", encoding="utf-8")
    with pytest.raises(ingest.ParseError) as err:
        ingest.read(f)
    assert not isinstance(err.value, ingest.UnknownFormat)
    assert err.value.line == 3 and err.value.message == s.SUBSET


def test_the_block_that_opens_with_backend_is_read_not_refused(tmp_path):
    f = tmp_path / "whole.md"
    block = [
        BANNER,
        "Backend:                                 sglang",
        "Successful requests:                     5",
        *ROWS,
    ]
    f.write_text("\n".join(block) + "\n", encoding="utf-8")
    assert s.refuses(f.read_text(encoding="utf-8")) is None
    t = ingest.read(f)
    assert set(t["tool"]) == {s.NAME} and 0.04 in set(t["value"])


def test_a_selection_with_no_row_only_sglang_prints_is_no_sglang_block():
    rows = [r for r in ROWS if "E2E" not in r]
    assert s.refuses("\n".join([BANNER, *rows])) is None
