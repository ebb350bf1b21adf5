"""A llama-bench copy cut before its first result is refused, naming the line its table starts at
(the header under llama-cli timings or a write-up's prose), not the file's first line."""

import pytest

from benchbook.ingest import llama_bench
from benchbook.ingest.core import ParseError

HEADER = "| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |\n"


def _refused_at(text: str) -> int | None:
    with pytest.raises(ParseError) as err:
        llama_bench.parse(text, "cut.md")
    assert "no measured rows" in err.value.message
    return err.value.line


def test_a_table_cut_after_its_header_below_other_lines_names_the_header_line():
    text = "# a PR\n\nllama_perf_context_print: eval time = 473.70 ms / 106 runs\n\n" + HEADER
    assert _refused_at(text) == 5


def test_a_table_at_the_top_names_line_one():
    assert _refused_at(HEADER) == 1
