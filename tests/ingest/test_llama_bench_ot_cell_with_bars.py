"""llama-bench's markdown printer joins a row's fields with " | " and escapes nothing, so an `ot`
(tensor-buffer override) value that is a regex with `|` splits into several cells: the surplus cells
are that column's pieces and are joined back (a real run of four V620s lost its fastest row this
way). A row wider than a header with no free-text column is still set aside."""

from __future__ import annotations

from benchbook import ingest

HEAD = "| model | size | params | backend | ngl | ot | test | t/s |\n| --- | ---: | ---: | --- | --: | --- | ---: | ---: |\n"
OT = r"blk\.([0-9]|10)\.ffn_.*_exps\.=ROCm0;exps=CPU"


def _read(tmp_path, body: str):
    f = tmp_path / "bench.md"
    f.write_text(body)
    return ingest.read(f, tool="llama-bench")


def test_an_ot_regex_with_bars_is_one_cell_and_its_row_is_read(tmp_path):
    row = f"| minimax-m2 230B.A10B Q5_K - Medium | 157.23 GiB | 228.69 B | ROCm | 42 | {OT} | tg128 | 17.37 ± 0.04 |\n"
    t = _read(tmp_path, HEAD + row)
    tg = t[(t["metric"] == "tg_rate") & (t["statistic"] == "mean")]
    assert tg["value"].tolist() == [17.37]
    assert f"ot={OT}" in tg["extra_settings"].iat[0]


def test_a_row_wider_than_a_header_without_a_free_text_column_is_set_aside(tmp_path):
    head = "| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
    row = "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | x | tg128 | 100.00 ± 1.00 |\n"
    t = _read(tmp_path, head + row + "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | tg128 | 99.00 ± 1.00 |\n")
    tg = t[(t["metric"] == "tg_rate") & (t["statistic"] == "mean")]
    assert tg["value"].tolist() == [99.0]
