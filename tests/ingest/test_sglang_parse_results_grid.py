"""SGLang's `test/srt/parse_results.py` prints bench_serving's `--output-file` records as a tabulate grid of
their own keys: each whole row is read as the record it prints; the column the script computes
(`per_user_throughput`) and a row the copy cut are set aside; a grid of other keys is no such grid, and a
grid cut after its header is refused naming that header."""

from __future__ import annotations

import pytest

from benchbook.ingest import ParseError, sglang_grid, sglang_serving

RULE = "+----+-------------------+--------------------+----------------+----------------+-----------------------+"
HEAD = "|    |   max_concurrency |   output_throughput |   mean_ttft_ms |   mean_tpot_ms |   per_user_throughput |"
ROW0 = "|  0 |             1.000 |            128.105 |        193.663 |          7.617 |               128.105 |"
ROW1 = "|  1 |             4.000 |            406.393 |        206.789 |          9.524 |               101.598 |"


def _text(*rows: str) -> str:
    return "\n".join(["bbuf python3 test/srt/parse_results.py main.jsonl", "", RULE, HEAD, RULE, *rows, ""])


def test_each_row_is_the_record_it_prints():
    parsed = sglang_serving.parse(_text(ROW0, RULE, ROW1, RULE), "x.md")
    t = parsed.table
    caps = sorted(t["max_concurrency"].unique())
    assert caps == [1.0, 4.0]
    out = t[(t["metric"] == "output_throughput") & (t["max_concurrency"] == 4.0)]["value"]
    assert list(out) == [406.393]
    assert set(t["format"]) == {sglang_grid.FORMAT}
    assert list(parsed.rejected["reason"]) == [sglang_grid.DERIVED_WHY] * 2


def test_a_row_the_copy_cut_is_set_aside_and_the_rows_above_are_read():
    parsed = sglang_serving.parse(_text(ROW0, RULE, ROW1[:40]), "x.md")
    assert set(parsed.table["max_concurrency"]) == {1.0}
    assert sglang_grid.CUT_WHY in set(parsed.rejected["reason"])


def test_a_grid_of_keys_the_script_does_not_print_is_no_such_grid():
    other = HEAD.replace("mean_tpot_ms", "mean_e2el_ms")
    assert sglang_grid.grids([RULE, other, RULE, ROW0]) == []
    assert not sglang_serving.sniff("\n".join([RULE, other, RULE, ROW0]))
    assert sglang_serving.sniff(_text(ROW0))


def test_a_grid_cut_after_its_header_is_refused_naming_the_header():
    with pytest.raises(ParseError) as err:
        sglang_serving.parse(_text(), "x.md")
    assert err.value.line == 4 and "cut after its header row" in str(err.value)
