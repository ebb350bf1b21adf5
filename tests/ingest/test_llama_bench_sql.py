"""llama-bench `-o sql`: real outputs of builds 1275 and 5163 (table `test`), the `llama_bench` table
of current builds (synthetic, as sql_printer prints it), the same rows as the JSON/CSV forms, bad input."""

from __future__ import annotations

import pytest

from benchbook import config
from benchbook.ingest import ParseError
from benchbook.ingest import llama_bench as lb

FIX = config.FIXTURES_DIR / "llama-bench"
OLD = FIX / "llamacpp_readme_b1275.sql"
NEW = FIX / "llamacpp_readme_b5163.sql"
RENAMED = FIX / "synthetic_llama_bench_table.sql"


def cell(df, test, metric, statistic):
    hit = df[(df["test"] == test) & (df["metric"] == metric) & (df["statistic"] == statistic)]
    assert len(hit) == 1, (test, metric, statistic, len(hit))
    return hit.iloc[0]


@pytest.mark.parametrize("path", [OLD, NEW, RENAMED], ids=lambda p: p.name)
def test_sniffed_and_counted(path):
    text = path.read_text()
    assert lb.sniff(text)
    p = lb.parse(text, path.name)
    assert p.cells_read == len(p.table) + len(p.rejected) == 8 and p.rejected.empty


def test_new_build_values_settings_and_lines():
    t = lb.parse(NEW.read_text(), NEW.name).table
    row = cell(t, "pp512", "pp_rate", "mean")
    assert (row["value"], row["line"], row["unit"]) == (7324.546977, 37, "tok/s")
    assert cell(t, "tg128", "tg_rate", "std")["value"] == 0.504647
    assert cell(t, "tg128", "tg_duration", "mean")["value"] == pytest.approx(1063.60878)  # avg_ns in ms
    assert set(t["build"]) == {"8cf427ff (5163)"} and set(t["backend"]) == {"CUDA"}
    assert set(t["gpu"]) == {"NVIDIA GeForce RTX 4080"} and set(t["model"]) == {"qwen2 7B Q4_K - Medium"}
    assert set(t["n_depth"]) == {0} and set(t["n_ubatch"]) == {512}


def test_old_build_column_list_one_short_is_aligned():
    p = lb.parse(OLD.read_text(), OLD.name)
    t = p.table
    assert cell(t, "pp512", "pp_rate", "mean")["value"] == 2407.240204
    assert set(t["backend"]) == {"CUDA"} and set(t["threads"]) == {16} and set(t["ngl"]) == {99}
    assert len(p.messages) == 2 and "27 values for 26 columns" in p.messages[0]
    assert p.version == "build 3469684 (1275)"


def test_renamed_table_and_depth():
    p = lb.parse(RENAMED.read_text(), RENAMED.name)
    row = cell(p.table, "tg128 @ d4096", "tg_rate", "mean")
    assert (row["value"], row["n_depth"], row["fa"]) == (100.0, 4096, "auto")
    assert p.version == "build 0104b151 (9999)"


def test_same_rows_as_the_csv_of_the_same_build():
    """The README's CSV and SQL blocks are two runs of one build: same tests, settings and columns."""
    sql = lb.parse(NEW.read_text(), "s").table
    csv = lb.parse((FIX / "llamacpp_readme_b5163.csv").read_text(), "c").table
    keys = ["model", "backend", "gpu", "build", "test", "metric", "statistic", "unit"]
    assert sorted(map(tuple, sql[keys].to_numpy())) == sorted(map(tuple, csv[keys].to_numpy()))


def test_a_value_too_many_that_cannot_be_aligned_is_rejected_with_its_numbers():
    text = NEW.read_text().replace(
        "'512', '0', '0', '2025-04-24T12:00:08Z'", "'512', 'x', '0', '0', '2025-04-24T12:00:08Z'"
    )
    p = lb.parse(text, "bad.sql")
    assert p.cells_read == len(p.table) + len(p.rejected)
    assert set(p.rejected["line"]) == {37} and "cannot be aligned" in p.rejected["reason"].iat[0]
    assert set(p.table["line"]) == {38}


@pytest.mark.parametrize(
    "text",
    ["CREATE TABLE IF NOT EXISTS test (\n  avg_ts REAL\n);\n", "INSERT INTO test (a, b) VALUES ('1', '2');\n"],
)
def test_no_measured_row_is_a_parse_error(text):
    with pytest.raises(ParseError):
        lb.parse(text, "bad.sql")
