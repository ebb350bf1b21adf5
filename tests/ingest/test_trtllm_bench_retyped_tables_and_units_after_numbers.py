"""trtllm-bench numbers a write-up retyped: a Markdown table whose rows are the report's own labels (one run
per value column), and the overview's label lines with the unit moved after the number."""

from __future__ import annotations

import pytest
from conftest import cell

from benchbook import config, ingest
from benchbook.ingest import ParseError, trtllm_bench

FIX = config.FIXTURES_DIR / "trtllm-bench"
AB = FIX / "tokenspeed_phase5_k25_nvfp4_eagle3_b300_tp4_ep4_ab_tables.md"
BULLETS = FIX / "trtllm_pr3822_nemotron_nano_8b_h100_pcie_fp16_test1_cut.md"

TABLE = """We ran `trtllm-bench throughput` twice.

| Metric | a | b |
|---|---:|---:|
| {r} | 1.5 | 2.0 |
| {o} | 150.0 | 200.0 |
| Total Latency (ms) | 1000.0 | 800.0 |
"""
LABELS = {"r": "Request Throughput (req/sec)", "o": "Total Output Throughput (tokens/sec)"}


def _run(df, run):
    return df[df["run"] == run]


def test_each_value_column_of_a_table_of_the_reports_labels_is_a_run():
    df = ingest.read(AB)
    assert set(df["run"]) == {"base (TRTLLM)", "ts (TOKENSPEED_MLA)"}
    base, ts = _run(df, "base (TRTLLM)"), _run(df, "ts (TOKENSPEED_MLA)")
    assert cell(base, "total_token_throughput", "value")["value"] == pytest.approx(1065.7961)
    assert cell(ts, "per_user_output_throughput", "mean")["value"] == pytest.approx(303.5911)
    assert cell(ts, "duration", "value")["value"] == pytest.approx(59.00275)  # ms printed, s kept


def test_a_later_table_names_its_runs_by_the_start_of_the_first_tables_names():
    """`base` / `ts` under `base (TRTLLM)` / `ts (TOKENSPEED_MLA)`: the same two runs, not four."""
    df = ingest.read(AB)
    assert cell(_run(df, "ts (TOKENSPEED_MLA)"), "e2el", "p50")["value"] == pytest.approx(3216.22)
    assert cell(_run(df, "base (TRTLLM)"), "spec_decode_draft_tokens", "p99")["value"] == 3054
    assert cell(_run(df, "ts (TOKENSPEED_MLA)"), "spec_decode_acceptance_rate", "min")["value"] == pytest.approx(0.18)


def test_a_difference_column_is_no_run_and_its_numbers_are_set_aside():
    parsed = ingest.read_parsed(AB)[0]
    assert set(parsed.rejected["line"]) == set(range(56, 62))
    assert parsed.rejected["reason"].str.contains("no run's").all()


def test_statistic_rows_are_the_latency_block_only_under_a_heading_naming_it(tmp_path):
    rows = "| Pct | a |\n|---|---:|\n| P50 | 10.0 |\n| P90 | 12.0 |\n| P99 | 13.0 |\n"
    text = TABLE.format(**LABELS)
    p = tmp_path / "named.md"
    p.write_text(text + "\n### Per-request latency breakdown (ms)\n\n" + rows, encoding="utf-8")
    assert cell(_run(ingest.read(p), "a"), "e2el", "p90")["value"] == 12.0
    p.write_text(text + "\n### Per-request TTFT (ms)\n\n" + rows, encoding="utf-8")
    assert "e2el" not in set(ingest.read(p)["metric"])


def test_a_table_whose_rows_name_no_label_of_the_report_is_not_read():
    """The same shape with the labels cut to their words (a TL;DR table, units in the cells) stays unread."""
    cut = TABLE.format(r="Request Throughput", o="Total Output Throughput").replace("Total Latency (ms)", "Wall")
    assert not trtllm_bench.sniff(cut)
    with pytest.raises(ParseError, match="no trtllm-bench report found"):
        trtllm_bench.parse(cut, "cut.md")


def test_a_table_needs_the_tool_named_in_the_text():
    text = TABLE.format(**LABELS)
    assert trtllm_bench.sniff(text)
    assert not trtllm_bench.sniff(text.replace("`trtllm-bench throughput`", "the benchmark"))


def test_a_label_with_its_unit_after_the_number_is_the_reports_line():
    df = ingest.read(BULLETS)
    assert cell(df, "request_throughput", "value")["value"] == pytest.approx(81.86)
    assert cell(df, "total_token_throughput", "value")["line"] == 32
    assert cell(df, "e2el", "mean")["value"] == pytest.approx(5895.24)


def test_a_unit_after_the_number_that_is_not_the_labels_own_is_no_report():
    assert trtllm_bench._restated("* **Request Throughput:** 81.86 req/sec") == "Request Throughput (req/sec): 81.86"
    assert trtllm_bench._restated("* **Request Throughput:** 81.86 tokens/sec").endswith("tokens/sec")
    assert trtllm_bench._restated("* **Queue Time:** 81.86 ms").endswith("81.86 ms")


ROWS = FIX / "trtllm_pr4446_nemotron_ultra_253b_fp8_tp8_cpp_summary_cut.md"
SHMOO = FIX / "trtllm_pr4499_nemotron_super_49b_4gpu_cpp_bf16_fp8_summary_cut.md"
ROW_TABLE = """Runs of `trtllm-bench`.

| ID | Con. | {a} | {b} | {c} |
|---|---|---|---|---|
| C1 | 4 | 0.5 | 1 000.5 | 2 000 |
"""


def test_a_table_with_a_run_a_row_is_read_by_its_headers_shortened_labels():
    df = ingest.read(ROWS)
    assert list(dict.fromkeys(df["run"])) == ["C1", "C2", "C3", "C4"]
    c3 = _run(df, "C3")
    assert set(c3["max_concurrency"]) == {250}
    assert cell(c3, "e2el", "mean")["value"] == 388037  # `388 037`: a space between thousands
    assert cell(c3, "output_throughput_per_gpu", "value")["value"] == pytest.approx(28.29)  # `TPS/GPU`


def test_a_settings_table_above_sets_every_row_and_a_cut_last_row_is_set_aside():
    parsed = ingest.read_parsed(SHMOO)[0]
    df = parsed.table
    assert set(df["max_concurrency"]) == {1} and set(df["num_prompts"]) == {4}  # `| Concurrency | 1 |`
    fp8 = _run(df, "5 k × 500 FP8")
    assert cell(fp8, "total_token_throughput", "value")["value"] == pytest.approx(1046.14)  # `Token TPS` beside Output
    assert cell(fp8, "duration", "value")["value"] == pytest.approx(21.03)  # `Total Latency (ms)`, kept in s
    assert parsed.rejected["line"].tolist() == [35] and "cuts short" in parsed.rejected["reason"].iloc[0]


def test_token_tps_alone_may_be_the_old_output_rate_and_is_not_read():
    head = ["Req/s", "Token TPS (tok/s)"]
    assert trtllm_bench._header_label("Token TPS (tok/s)", head) is None
    assert trtllm_bench._header_label("Token TPS (tok/s)", [*head, "Output TPS (tok/s)"]) == (
        "total token throughput (tokens/sec)"
    )


def test_a_row_table_whose_headers_name_no_label_of_the_report_is_not_read():
    read = ROW_TABLE.format(a="Req/s", b="Output TPS (tok/s)", c="Avg Latency (ms)")
    assert trtllm_bench.sniff(read)
    assert cell(trtllm_bench.parse(read, "t.md").table, "output_throughput", "value")["value"] == 1000.5
    other = ROW_TABLE.format(a="Req/s", b="Score (pts)", c="Accuracy (%)")
    assert not trtllm_bench.sniff(other)


def test_draft_statistics_say_the_run_used_speculative_decoding_in_every_table_of_it():
    """The tool prints DECODING STATISTICS only with a draft length above 0: a run whose copy holds them
    ran speculative decoding, stated on all its numbers, not only the draft table's."""
    df = ingest.read(AB)
    assert df["metadata"].str.contains("speculative=").all()
    assert not ingest.read(BULLETS)["metadata"].fillna("").str.contains("speculative").any()
