"""llama-bench's markdown printer writes model, size, params and backend on every row: a table whose only
llama-bench columns are `test` and `t/s` (a lab note's hand copy under the command) keeps nothing of the run
but the test and the rate, and is refused in one sentence naming its header line, not "no known tool output";
a trimmed copy that keeps the backend, or llama-bench's own table, refuses nothing."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import llama_bench

NOTE = (
    "## llama-bench — Q5 full GPU\n\n"
    "```bash\n./build/bin/llama-bench -m gemma-4-12b-it-UD-Q5_K_XL.gguf -p 4096 -n 256\n```\n\n"
    "| test | t/s | Peak VRAM |\n|------|-----|-----------|\n"
    "| pp4096 | **1152.06 ± 14.63** | |\n| tg256 | **33.27 ± 0.10** | ~11261 MB |\n"
)


def test_a_test_and_rate_table_is_refused_naming_its_header_line(tmp_path):
    f = tmp_path / "note.md"
    f.write_text(NOTE)
    with pytest.raises(ingest.ParseError) as err:
        ingest.read(f)
    assert not isinstance(err.value, ingest.UnknownFormat) and err.value.line == 7
    assert "copied by hand from llama-bench's print" in err.value.message


def test_a_copy_that_keeps_the_backend_refuses_nothing():
    kept = NOTE.replace("| test | t/s | Peak VRAM |", "| backend | test | t/s |").replace(
        "| pp4096 | **1152.06 ± 14.63** | |", "| CUDA | pp4096 | 1152.06 ± 14.63 |"
    )
    assert llama_bench.refuses(kept) is None


def test_rates_without_a_spread_refuse_nothing():
    assert llama_bench.refuses(NOTE.replace(" ± 14.63", "").replace(" ± 0.10", "")) is None


def test_llama_benchs_own_table_refuses_nothing():
    f = next((config.FIXTURES_DIR / "llama-bench").glob("strix_halo_testing_issue33*.md"))
    assert llama_bench.refuses(f.read_text()) is None


def test_a_row_too_short_to_hold_the_rate_is_passed_over():
    """A row that ends before the `t/s` column (`| pp4096 |`) holds no rate: the next row decides."""
    short = NOTE.replace("| pp4096 | **1152.06 ± 14.63** | |", "| pp4096 |")
    assert llama_bench.refuses(short)[0] == 7  # the tg256 row still shows the hand copy
    assert llama_bench.refuses(short.replace("| tg256 | **33.27 ± 0.10** | ~11261 MB |", "| tg256 |")) is None
