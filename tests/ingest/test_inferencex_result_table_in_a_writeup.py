"""InferenceX results a write-up retyped into a Markdown table: rows that spell a point's keys in words,
one run per column, read as the points process_result.py writes."""

from __future__ import annotations

import pytest
from conftest import cell

from benchbook import config, ingest
from benchbook.ingest import ParseError, inferencex

FIX = config.FIXTURES_DIR / "inferencex"
SWEEP = FIX / "inferencex_issue870_dsr1_fp8_h200_sglang_tp8_conc8_64_cut.md"
TWO = FIX / "inferencex_pr832_minimax_m25_fp8_h100_vllm_tp8ep8_vs_tp4ep4_conc4_bot_table.md"

TEXT = """An InferenceX run, 1k1k, TP=2.

| Metric | conc=4 | conc=8 |
|---|---:|---:|
| {t} | 100.0 | 150.0 |
| Mean TTFT{u} | 50.0 | 60.0 |
| Mean TPOT{u} | 10.0 | 12.0 |
"""


def test_each_concurrency_column_is_a_point_and_the_config_lines_tp_scales_its_rates():
    df = ingest.read(SWEEP)
    assert sorted(set(df["max_concurrency"])) == [8, 16, 32, 64]
    c64 = df[df["max_concurrency"] == 64]
    assert cell(c64, "output_throughput_per_gpu", "value")["value"] == pytest.approx(223.6)
    assert cell(c64, "output_throughput", "value")["value"] == pytest.approx(223.6 * 8)  # TP=8 on the Config line
    assert cell(c64, "e2el", "p99")["value"] == pytest.approx(37900.0)  # (s) in the label: seconds to ms
    assert cell(c64, "itl", "mean")["value"] == pytest.approx(344.8)


def test_a_columns_tp_wins_over_the_heading_and_units_beside_the_numbers_are_read():
    df = ingest.read(TWO)
    tp8 = df[df["metadata"].str.contains("tp=8")]
    tp4 = df[df["metadata"].str.contains("tp=4")]
    assert cell(tp8, "total_token_throughput", "value")["value"] == pytest.approx(107.4 * 8)
    assert cell(tp4, "total_token_throughput", "value")["value"] == pytest.approx(145.1 * 4)
    assert cell(tp4, "e2el", "mean")["value"] == pytest.approx(12400.0)  # `12.4 s`
    assert not ((df["metric"] == "ttft") & (df["statistic"] == "p99") & df["metadata"].str.contains("tp=8")).any()


def test_a_difference_column_is_no_run_and_its_numbers_are_set_aside():
    parsed = ingest.read_parsed(TWO)[0]
    assert set(parsed.rejected["line"]) == {20, 21, 22, 23, 24}
    assert set(parsed.table["max_concurrency"]) == {4}


def test_a_latency_with_no_unit_is_set_aside(tmp_path):
    p = tmp_path / "t.md"
    p.write_text(TEXT.format(t="Total tput/GPU (tok/s)", u=""), encoding="utf-8")
    parsed = ingest.read_parsed(p)[0]
    assert "ttft" not in set(parsed.table["metric"])
    assert parsed.rejected["reason"].str.contains("no unit").all() and len(parsed.rejected) == 4


def test_a_table_whose_rows_spell_no_key_of_a_point_is_not_read():
    text = TEXT.format(t="Avg Power (W)", u=" (ms)").replace("Mean TTFT", "TTFT").replace("Mean TPOT", "TPOT")
    assert not inferencex.sniff(text)
    assert inferencex.sniff(TEXT.format(t="Total tput/GPU (tok/s)", u=" (ms)"))


def test_a_table_needs_the_project_named_in_the_text():
    text = TEXT.format(t="Total tput/GPU (tok/s)", u=" (ms)")
    assert not inferencex.sniff(text.replace("An InferenceX run", "A run"))


def test_a_table_with_no_concurrency_is_refused_as_a_point_without_conc():
    text = TEXT.format(t="Total tput/GPU (tok/s)", u=" (ms)").replace("conc=4", "a").replace("conc=8", "b")
    with pytest.raises(ParseError, match="needs numbers conc and tput_per_gpu"):
        inferencex.parse(text, "t.md")
