"""bench_one_batch_server's markdown report (`get_report_summary`, and the nightly CI's shorter copy):
one row per batch size, its ITL the batch's mean decode step (1000 x batch / output throughput), read as
the console's decode step and throughput; a table with other columns first is no such report."""

from __future__ import annotations

import math

import pytest

from benchbook import ingest
from benchbook.analysis import one_batch
from benchbook.ingest import sglang_one_batch as o

# real: sgl-project/sglang PR 32570 (GLM-5.2-FP8 on 8x MI35x), the CI's six columns
REPORT = (
    "| batch size | input len | latency (s) | input throughput (tok/s) | output throughput (tok/s) | ITL (ms) |\n"
    "| ---------- | --------- | ----------- | ------------------------ | ------------------------- | -------- |\n"
    "| 1 | 8192 | 13.65 | 14632.70 | 78.20 | 12.79 |\n"
    "| 64 | 8192 | 63.66 | 15588.37 | 2182.70 | 29.32 |\n"
)


def test_the_reports_rows_are_mean_decode_steps(tmp_path):
    assert o.sniff(REPORT)
    p = o.parse(REPORT, "report.md")
    cell = p.table.set_index(["batch_size", "metric"])["value"]
    assert math.isclose(cell[(64, "decode_latency")], 0.02932) and cell[(64, "decode_throughput")] == 2182.70
    # the tool's own identity: ITL = 1000 x batch / output throughput
    assert math.isclose(1000 * 64 / cell[(64, "decode_throughput")], 1000 * cell[(64, "decode_latency")], rel_tol=1e-3)
    f = tmp_path / "report.md"
    f.write_text(REPORT)
    sw = one_batch.sweep(ingest.read(f, tool=o.NAME))
    assert list(sw["timed"]) == [one_batch.MEAN_STEP] * 2 and list(sw["variant"]) == ["input 8192"] * 2


@pytest.mark.parametrize(
    "header",
    [
        "| input len | batch size | latency (s) |\n",  # another table's columns: no report
        "| batch size | latency (s) | input len |\n",
    ],
)
def test_a_table_with_other_columns_first_is_no_report(header):
    assert not o.sniff(header + "| --- | --- | --- |\n| 1 | 2 | 3 |\n")
