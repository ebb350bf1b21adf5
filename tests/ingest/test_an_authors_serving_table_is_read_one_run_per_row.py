"""An authors' own markdown table of a serving benchmark (an SGLang cookbook pull request's concurrency
sweep) is read one run per row, each number under its header's own words: a bare `Throughput (tok/s)`
is neither output nor total throughput, a `TTFT (ms)` that names no statistic is neither a mean nor a
median. A table with no load column, or with one serving metric, is not such a table, and a table whose
rows its settings cannot tell apart is refused naming its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchbook import ingest
from benchbook.ingest import serving_table

FIXTURES = Path(__file__).parents[1] / "fixtures" / "sglang-bench-serving"

HEAD = "# MI300X results\n\n- SGLang: 0.5.13.post1\n\n"


def _read(tmp_path, text: str):
    p = tmp_path / "pr.md"
    p.write_text(text, encoding="utf-8")
    return ingest.read(p)


def test_each_row_is_one_run_with_its_parallelism_and_the_headers_words():
    df = ingest.read(FIXTURES / "sglang_pr31044_minimax_m27_mi300x_fp8_kv_tp_ep_concurrency_table.md")
    assert set(df["tool"]) == {"sglang-bench-serving"}
    assert sorted(df["max_concurrency"].unique()) == [1, 16, 64, 256, 1024, 4096]
    row = df[df["line"] == 23].set_index("metric")
    assert row.loc["ttft", "statistic"] == "value" and row.loc["ttft", "value"] == 18251
    assert row.loc["throughput", "value"] == 8344 and row.loc["throughput_per_gpu", "value"] == 1043
    assert "output_throughput" not in set(df["metric"]) and "total_token_throughput" not in set(df["metric"])
    assert row.loc["tpot", "note"] == "as the table names it: TPOT (ms)"
    assert set(df[df["line"] == 18]["metadata"]) == {"tp=2; ep=2"}
    assert df[df["line"] == 23]["run"].iloc[0] == "High-throughput, c=4096"
    assert df["request_rate"].isna().all()  # the table states none: unknown, not the tool's default


def test_a_header_naming_a_statistic_or_a_kind_keeps_it_and_seconds_become_ms(tmp_path):
    df = _read(
        tmp_path,
        HEAD + "| QPS | Mean TTFT (s) | P99 ITL (ms) | Output throughput (tok/s) |\n|---|---|---|---|\n"
        "| 1 | 0.25 | 30 | 100 |\n| 4 | 0.5 | 41 | 380 |\n",
    )
    got = {(m, s): v for m, s, v in df[df["line"] == 7][["metric", "statistic", "value"]].itertuples(index=False)}
    assert got == {("ttft", "mean"): 250.0, ("itl", "p99"): 30.0, ("output_throughput", "value"): 100.0}
    assert sorted(df["request_rate"].unique()) == [1, 4]


@pytest.mark.parametrize(
    "table",
    [
        # no load column: the rows are runs of what load, the table does not say
        "| Model | TTFT (ms) | TPOT (ms) |\n|---|---|---|\n| a | 120 | 20 |\n| b | 130 | 25 |\n",
        # one serving metric beside the load: no table of serving results
        "| Concurrency | TTFT (ms) | Accuracy |\n|---|---|---|\n| 1 | 120 | 0.9 |\n| 8 | 300 | 0.9 |\n",
        # metrics without their units
        "| Concurrency | TTFT | TPOT |\n|---|---|---|\n| 1 | 120 | 20 |\n| 8 | 300 | 25 |\n",
    ],
)
def test_a_table_without_a_load_or_two_metrics_with_units_is_not_read(tmp_path, table):
    assert serving_table.tables((HEAD + table).split("\n")) == []
    with pytest.raises(ingest.ParseError) as exc:
        _read(tmp_path, HEAD + table)
    assert "pr.md:5: no known tool output found: a table of" in str(exc.value)


def test_rows_the_table_does_not_tell_apart_are_refused_naming_its_line(tmp_path):
    table = "| Concurrency | TTFT (ms) | TPOT (ms) |\n|---|---|---|\n| 8 | 120 | 20 |\n| 8 | 300 | 25 |\n"
    with pytest.raises(ingest.ParseError) as exc:
        _read(tmp_path, HEAD + table)
    assert "rows 7 and 8" in str(exc.value) and "cannot be told apart" in str(exc.value)


def test_a_file_naming_vllm_beside_sglang_is_not_read_as_sglangs(tmp_path):
    table = "| Concurrency | TTFT (ms) | TPOT (ms) |\n|---|---|---|\n| 1 | 120 | 20 |\n| 8 | 300 | 25 |\n"
    with pytest.raises(ingest.ParseError):
        _read(tmp_path, HEAD + "vLLM 0.7.2 against SGLang.\n\n" + table)


def test_a_file_naming_vllm_alone_is_read_by_the_vllm_reader(tmp_path):
    table = "| Max concurrency | TTFT (ms) | Output throughput (tok/s) |\n|---|---|---|\n| 1 | 40 | 90 |\n| 8 | 95 | 610 |\n"
    df = _read(tmp_path, "# Results\n\nMeasured with `vllm bench serve`.\n\n" + table)
    assert set(df["tool"]) == {"vllm-bench-serve"} and set(df["format"]) == {serving_table.FORMAT}
    assert sorted(df["max_concurrency"].unique()) == [1, 8]


def test_a_file_naming_another_engine_beside_sglang_is_not_read(tmp_path):
    table = "| Concurrency | TTFT (ms) | TPOT (ms) |\n|---|---|---|\n| 1 | 120 | 20 |\n| 8 | 300 | 25 |\n"
    with pytest.raises(ingest.ParseError):
        _read(tmp_path, HEAD + "SGLang against TensorRT-LLM.\n\n" + table)
