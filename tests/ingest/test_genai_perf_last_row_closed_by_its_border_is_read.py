"""A copy that ends on a table row before the table's bottom rule: a row that closes its last cell with
the border (`│ Request Count (count) │ 1.00 │ N/A │`) shows each of its cells whole, between two
borders, so its values are read and only the statistics after it are missing; a row that stops inside
a cell may be cut short and is set aside, its line named."""

from __future__ import annotations

from benchbook import ingest

TABLE = """                                        NVIDIA GenAI-Perf | LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┓
┃                           Statistic ┃       avg ┃       min ┃       max ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━┩
│                Request Latency (ms) │ 13,123.11 │ 13,123.11 │ 13,123.11 │
│        Request Throughput (per sec) │      0.76 │       N/A │       N/A │
"""


def _read(tmp_path, last):
    f = tmp_path / "cut.md"
    f.write_text(TABLE + last + "\n")
    df = ingest.read(f)
    return df, df.attrs["rejected"]


def test_a_last_row_closed_by_its_border_is_read(tmp_path):
    df, rejected = _read(tmp_path, "│               Request Count (count) │      1.00 │       N/A │")
    assert df[df["metric"] == "completed"]["value"].tolist() == [1.0]
    assert not any("cut short" in r["reason"] for r in rejected)


def test_a_last_row_that_stops_inside_a_cell_is_set_aside(tmp_path):
    df, rejected = _read(tmp_path, "│               Request Count (count) │      1.0")
    assert not (df["metric"] == "completed").any()
    assert any("cut short" in r["reason"] and r["line"] == 7 for r in rejected)
