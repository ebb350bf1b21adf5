"""tritonbench's A/B report (`run.py --side-a=... --side-b=...`, utils/ab_test.py) prints per backend the mean
percent change of each metric over the input shapes, no kernel time of its own: refused in one sentence naming
the first summary line, not "no known tool output"; an operator table is read as before."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import tritonbench

SUMMARY = (
    "A/B Test Results: flex_attention\n"
    "Test Scope: 8 input shapes, 3 backends\n"
    "Performance Summary\n\n"
    "eager:\n"
    "  latency     :  +8.9% avg [-4.5% to +25.9%]\n"
    "  tflops      :  -7.1% avg [-20.6% to +4.8%]\n"
)
DETAIL = (
    "Detailed Comparison\n\nMetric: latency\n"
    "Backend        x_val               Config A    Config B    Difference  \n"
    "eager          (8, 16, 1024, 64)   0.052       0.056        +7.7%\n"
)
TABLE = config.FIXTURES_DIR / "tritonbench" / "pytorch_benchmark_pr2443_flex_latency.txt"


def test_a_summary_is_refused_naming_its_first_summary_line(tmp_path):
    f = tmp_path / "ab.md"
    f.write_text(SUMMARY)
    with pytest.raises(ingest.ParseError) as err:
        ingest.read(f)
    assert not isinstance(err.value, ingest.UnknownFormat) and err.value.line == 6
    assert "mean change in percent from side A to side B" in err.value.message


def test_a_report_with_its_detailed_comparison_is_refused_as_a_comparison():
    line, why = tritonbench.refuses(SUMMARY + DETAIL)
    assert line == 6 and "a comparison of two configurations" in why and "no kernel time" not in why


def test_an_operator_table_refuses_nothing_and_is_read():
    assert tritonbench.refuses(TABLE.read_text()) is None
    assert "latency" in set(ingest.read(TABLE)["metric"])
