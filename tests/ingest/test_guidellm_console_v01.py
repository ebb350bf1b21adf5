"""GuideLLM 0.1's console report (rich box tables, guidellm/core/report.py), read for `guidellm`: each
header's percentile list names its cell's values, a wrapped header or cell is joined, the panel's borders
are not cells, the pooled decode gaps are `itl`, the asynchronous modes state no cap, a benchmark with no
completed request has its zeros set aside, and a row cut short is refused naming its line."""

from __future__ import annotations

import math

import pytest
from conftest import cell

from benchbook import config, ingest
from benchbook.ingest import ParseError
from benchbook.ingest import guidellm as g

FIX = config.FIXTURES_DIR / "guidellm"
CUT = FIX / "guidellm_pr79_v01_asynchronous_2rps_latency_percentiles_cut.md"
SWEEP = FIX / "optimum_neuron_benchmark_guide_inf2_48xlarge_llama31_8b_tp8_dp3_guidellm010_sweep.md"

#: A report of one benchmark with nothing completed and one at a rate, printed without the outer panels.
SYNTHETIC = """\
Backend(type=openai_server, target=http://localhost:8000/v1, model=org/m)
Data(type=emulated, source=prompt_tokens=64,generated_tokens=32, tokenizer=org/m)
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━┓
┃ Benchmark                 ┃ Requests Completed ┃ Request Failed ┃ Duration   ┃ Start Time ┃ End Time ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━┩
│ synchronous               │ 0/3                │ 3/3            │ 0.00 sec   │ N/A        │ N/A      │
│ asynchronous@4.00 req/sec │ 40/40              │ 0/40           │ 10.00 sec  │ 10:00:00   │ 10:00:10 │
└───────────────────────────┴────────────────────┴────────────────┴────────────┴────────────┴──────────┘
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃ Benchmark                 ┃ Requests per Second ┃ Request Latency ┃ Time to First Token ┃ Inter Token Latency ┃ Output Token Throughput ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━┩
│ synchronous               │ 0.00 req/sec        │ 0.00 sec        │ 0.00 ms             │ 0.00 ms             │ 0.00 tokens/sec         │
│ asynchronous@4.00 req/sec │ 4.00 req/sec        │ 1.50 sec        │ 120.00 ms           │ 20.00 ms            │ 128.00 tokens/sec       │
└───────────────────────────┴─────────────────────┴─────────────────┴─────────────────────┴─────────────────────┴─────────────────────────┘
"""


def parsed(path):
    return ingest.read_parsed(path, tool="guidellm")[0]


def val(df, metric, statistic, run=None):
    return cell(df if run is None else df[df["run"] == run], metric, statistic)["value"]


@pytest.mark.parametrize("path", [CUT, SWEEP], ids=lambda p: p.name)
def test_detected_as_guidellm_only(path):
    assert ingest.detect(path.read_text()) == ["guidellm"]


def test_a_header_percentile_list_names_each_value_and_a_wrapped_cell_is_joined():
    t = parsed(CUT).table
    assert val(t, "e2el", "p1") == pytest.approx(8500.0)  # printed in seconds
    assert val(t, "e2el", "median") == pytest.approx(20200.0)
    # the TTFT cell wraps after its fifth value: the last two are on the next line
    assert val(t, "ttft", "p95") == pytest.approx(23781.6) and val(t, "ttft", "p99") == pytest.approx(24736.2)
    assert set(t["line"]) == {9}


def test_pooled_decode_gaps_are_itl_not_tpot():
    t = parsed(CUT).table
    assert val(t, "itl", "p99") == pytest.approx(73.6)
    assert "tpot" not in set(t["metric"])


def test_asynchronous_is_a_rate_with_no_cap_stated_and_synchronous_one_in_flight():
    t = parsed(SWEEP).table.drop_duplicates("run").set_index("run")
    assert t.loc["asynchronous@0.85 req/sec", "request_rate"] == 0.85
    assert math.isnan(t.loc["asynchronous@0.85 req/sec", "max_concurrency"])
    assert t.loc["synchronous", "max_concurrency"] == 1 and math.isinf(t.loc["synchronous", "request_rate"])
    assert math.isinf(t.loc["throughput", "request_rate"]) and math.isnan(t.loc["throughput", "max_concurrency"])
    assert not ingest.carries("guidellm", g.guidellm_console_v01.FORMAT, "max_concurrency")


def test_counts_summary_and_settings_of_a_whole_report():
    t = parsed(SWEEP).table
    assert val(t, "completed", "count", "throughput") == 55 and val(t, "failed", "count", "throughput") == 0
    assert val(t, "request_throughput", "value", "asynchronous@0.85 req/sec") == pytest.approx(0.77)
    assert val(t, "output_throughput", "value", "throughput") == pytest.approx(249.64)
    assert val(t, "e2el", "mean", "throughput") == pytest.approx(43780.0)
    assert val(t, "duration", "value", "synchronous") == pytest.approx(113.56)
    assert val(t, "output_sequence_length", "p99", "synchronous") == pytest.approx(443.1)
    assert set(t["model"]) == {"meta-llama/Meta-Llama-3.1-8B-Instruct"}


def test_times_of_day_are_set_aside():
    rej = parsed(SWEEP).rejected
    assert len(rej) == 6 and rej["reason"].str.contains("time of day").all()


def test_a_benchmark_with_nothing_completed_has_its_zeros_set_aside_and_the_other_is_read():
    p = g.parse(SYNTHETIC, "x.txt")
    t = p.table
    sync = t[t["run"] == "synchronous"]
    assert set(sync["metric"]) == {"completed", "failed", "duration", "request_throughput", "output_throughput"}
    assert val(t, "failed", "count", "synchronous") == 3
    assert val(t, "e2el", "mean", "asynchronous@4.00 req/sec") == pytest.approx(1500.0)
    assert val(t, "ttft", "mean", "asynchronous@4.00 req/sec") == pytest.approx(120.0)
    assert t["dataset"].iloc[0] == "emulated: prompt_tokens=64,generated_tokens=32"
    assert any("synchronous: no request completed" in m for m in p.messages)


def test_a_row_cut_short_is_refused_naming_its_line():
    lines = SYNTHETIC.splitlines()
    lines[5] = lines[5][:40]
    with pytest.raises(ParseError, match=r"x\.txt:6: a row of \d+ cells under a header of 6"):
        g.parse("\n".join(lines), "x.txt")


def test_a_box_table_of_another_layout_is_not_guidellm_01():
    other = SYNTHETIC.replace("Requests Completed", "Requests Done      ").replace(
        "Requests per Second", "Req Rate           "
    )
    other = other.replace("Output Token Throughput", "Out Rate               ")
    assert not g.guidellm_console_v01.sniff(other)
    assert g.guidellm_console_v01.sniff(SYNTHETIC)


def test_a_report_panel_with_its_settings_and_no_table_is_refused_naming_its_line():
    # real: guidellm PR 73's copy ends at the panel's `Limits(...)` line, above its four tables
    from benchbook.ingest import guidellm_console_v01 as v01

    head = (
        "╭─ GuideLLM Benchmarks Report (stdout) ─╮\n"
        "│ ╭─ Benchmark Report 1 ─╮ │\n"
        "│ │ Backend(type=openai_server, target=http://localhost:8080/v1, model=m.gguf) │ │\n"
        "│ │ Rate(type=constant, rate=(8.0,)) │ │\n"
    )
    assert v01.refuses(head) == (2, v01.NO_TABLE)
    # the other way: a report with its tables is read, not refused
    assert v01.refuses((FIX / "guidellm_pr79_v01_asynchronous_2rps_latency_percentiles_cut.md").read_text()) is None
