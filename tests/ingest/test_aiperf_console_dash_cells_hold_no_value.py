"""AIPerf prints `N/A` under the statistics of a once-per-run metric; a copy that writes a dash there (AIPerf's
own tutorials do) means the same: the row's average is its value (the request throughput is read, as from
`N/A` cells), and no dash is set aside as "expected a number"; a cell that is neither a number nor a
no-value mark is still set aside."""

from __future__ import annotations

from benchbook import ingest

TABLE = """aiperf profile -m tiny --url localhost:8080 --request-count 10

            NVIDIA AIPerf | LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━┳━━━━━━━━┳━━━━━━━━━┳━━━━━━━━━┳━━━━━━━━━┓
┃                      Metric ┃     avg ┃    min ┃     max ┃     p99 ┃     p50 ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━╇━━━━━━━━╇━━━━━━━━━╇━━━━━━━━━╇━━━━━━━━━┩
│        Request Latency (ms) │ 1234.56 │ 987.34 │ 1567.89 │ 1567.89 │ 1198.45 │
│  Request Throughput (req/s) │    0.80 │ {c} │       {c} │       {c} │       {c} │
└─────────────────────────────┴─────────┴────────┴─────────┴─────────┴─────────┘
"""


def _read(tmp_path, cell):
    f = tmp_path / "run.md"
    f.write_text(TABLE.replace("{c}", cell))
    df = ingest.read(f)
    return df, df.attrs["rejected"]


def test_dash_cells_leave_the_average_as_the_value(tmp_path):
    for dash in ("-", "\u2013", "N/A"):
        df, rejected = _read(tmp_path, dash)
        rate = df[df["metric"] == "request_throughput"]
        assert list(rate["statistic"]) == ["value"] and rate["value"].iloc[0] == 0.8
        assert not rejected


def test_a_cell_that_is_no_number_and_no_mark_is_still_set_aside(tmp_path):
    df, rejected = _read(tmp_path, "n.a.")
    assert {r["reason"] for r in rejected} == {"expected a number"}
    assert list(df[df["metric"] == "request_throughput"]["statistic"]) == ["mean"]
