"""Where a copy of an output ends (`ingest.core`): its last line that is not blank, which may be cut
short, and the rejected item that names it; every line above it is whole."""

from __future__ import annotations

from benchbook.ingest import core


def test_the_last_line_is_the_last_that_is_not_blank_even_the_first():
    assert core.last_line(["Successful requests: 10", "", "  "]) == 0
    assert core.last_line(["a", "b", " "]) == 1
    assert core.last_line(["", "", "P99 TPOT (ms): 49"]) == 2
    assert core.last_line(["", "   "]) is None and core.last_line([]) is None


def test_only_the_last_line_of_the_copy_may_be_cut_short():
    lines = ["Output token throughput (tok/s): 12.5", "P99 TPOT (ms):   49", ""]
    assert core.copy_ends(lines, 1) and not core.copy_ends(lines, 0) and not core.copy_ends(lines, 2)
    assert not core.copy_ends(["", ""], 0)  # a copy with no text ends nowhere


def test_the_cut_item_names_its_line_from_1_and_keeps_80_characters():
    line, text, reason = core.cut_item(4, "  " + "x" * 100 + "  ")
    assert (line, text) == (5, "x" * 80)
    assert reason == f"{core.COPY_ENDS} (line 5, the file's last: it may be cut short)"
