"""scripts/compare-llama-bench.py tables: each build its own run (the name in its `t/s` header), each
rate the unweighted mean of that build's avg_ts (no spread), Speedup = compare / baseline checked, not
kept. The script shows its CPU column (cpu_info) whatever ran the layers, so that column alone decides
no mode; a printed backend still does."""

import pandas as pd
import pytest

from benchbook.analysis import bandwidth
from benchbook.ingest import llama_bench

HEADER = "| CPU | Model | Test | t/s master | t/s my/branch | Speedup |\n|:--|:--|:--|--:|--:|--:|\n"


def _read(text):
    return llama_bench.parse(text, "x.md")


def test_each_build_is_a_run_with_its_mean_and_no_spread():
    p = _read(HEADER + "| Apple M3 Max | llama 1B Q8_0 | tg128 | 169.28 | 170.57 | 1.01 |\n")
    t = p.table
    assert sorted(zip(t["build"], t["value"], strict=True)) == [("master", 169.28), ("my/branch", 170.57)]
    assert set(t["statistic"]) == {"mean"}
    assert set(t["metric"]) == {"tg_rate"}
    assert set(t["averaged_by"]) == {llama_bench.COMPARE_SCRIPT}
    assert set(t["cpu"]) == {"Apple M3 Max"}  # the CPU column is cpu_info, the run's CPU


def test_a_speedup_that_is_the_ratio_is_not_reported():
    p = _read(HEADER + "| Apple M3 Max | llama 1B Q8_0 | pp4096 | 3857.10 | 4108.20 | 1.07 |\n")
    assert not [m for m in p.messages if "Speedup" in m]


def test_a_speedup_that_is_not_the_ratio_is_reported_and_not_kept():
    p = _read(HEADER + "| Apple M3 Max | llama 1B Q8_0 | pp4096 | 3857.10 | 4108.20 | 1.20 |\n")
    assert [m for m in p.messages if "line 3: Speedup 1.20" in m]
    assert sorted(p.table["value"]) == [3857.10, 4108.20]


def test_number_of_parameters_is_a_count_read_as_billions():
    text = (
        "| Model | Num. of par. | Test | t/s a | t/s b | Speedup |\n|:--|--:|:--|--:|--:|--:|\n"
        "| llama 8B Q4_0 | 8030261248 | tg128 | 100.00 | 110.00 | 1.10 |\n"
    )
    assert _read(text).table["params_b"].iloc[0] == 8.030261248


def _modes(text):
    t = _read(text).table
    return {bandwidth.run_mode(r) for _, r in t.iterrows()}


def test_the_cpu_column_alone_decides_no_mode():
    assert _modes(HEADER + "| Accelerate, Apple M3 Max | llama 1B Q8_0 | tg128 | 169.28 | 170.57 | 1.01 |\n") == {
        "unknown"
    }


def test_a_printed_cpu_backend_still_makes_a_cpu_run():
    text = (
        "| CPU | Backends | Model | Test | t/s a | t/s b | Speedup |\n|:--|:--|:--|:--|--:|--:|--:|\n"
        "| AMD Ryzen 9 7950X | CPU | llama 8B Q4_0 | tg128 | 10.00 | 11.00 | 1.10 |\n"
    )
    assert _modes(text) == {"cpu"}


def test_printed_gpu_layers_make_a_gpu_run():
    text = (
        "| GPU | Model | GPU layers | Test | t/s a | t/s b | Speedup |\n|:--|:--|--:|:--|--:|--:|--:|\n"
        "| RTX 4090 | llama 8B Q4_0 | 99 | tg128 | 150.00 | 160.00 | 1.07 |\n"
    )
    assert _modes(text) == {"gpu"}


def test_a_plain_llama_bench_cpu_table_still_reads_as_cpu():
    text = (
        "| model | size | params | backend | threads | test | t/s |\n| --- | ---: | ---: | --- | ---: | --- | ---: |\n"
        "| llama 8B Q4_0 | 4.33 GiB | 8.03 B | CPU | 16 | tg128 | 10.12 ± 0.05 |\n"
    )
    t = _read(text).table
    assert t["averaged_by"].isna().all()
    row = t.iloc[0].copy()
    row["cpu"] = "AMD Ryzen 9 7950X"
    assert bandwidth.run_mode(row) == "cpu"
    assert bandwidth.run_mode(pd.Series({"cpu": "AMD Ryzen 9 7950X"})) == "cpu"


def test_the_compare_header_is_sniffed_as_llama_bench():
    assert llama_bench.sniff(HEADER)
    assert not llama_bench.sniff("| CPU | Model | Test | t/s master | Speedup |\n")


def test_the_printed_speedup_is_a_note_of_the_compared_rate_not_a_measurement():
    t = _read(HEADER + "| Apple M3 Max | llama 1B Q8_0 | tg128 | 169.28 | 170.57 | 1.01 |\n").table
    assert len(t) == 2
    note = t.loc[t["build"] == "my/branch", "note"].iloc[0]
    assert note == "Speedup over master as printed: 1.01 (ratio 1.008)"  # 170.57 / 169.28
    assert t.loc[t["build"] == "master", "note"].isna().all()


def test_a_baseline_printed_as_zero_gives_no_ratio_and_the_note_says_the_printed_speedup_alone():
    # the script prints t/s with two decimals: a baseline under 0.005 t/s reads 0.00, its Speedup is its own
    p = _read(HEADER + "| Apple M3 Max | llama 1B Q8_0 | tg128 | 0.00 | 170.57 | 42642.50 |\n")
    assert p.table.loc[p.table["build"] == "my/branch", "note"].iloc[0] == "Speedup over master as printed: 42642.50"
    assert not [m for m in p.messages if "Speedup" in m]


def test_a_column_of_no_setting_name_is_kept_as_printed():
    text = (
        "| CPU | Model | Split mode | Test | t/s master | t/s my/branch | Speedup |\n|:--|:--|:--|:--|--:|--:|--:|\n"
        "| Apple M3 Max | llama 1B Q8_0 | layer | tg128 | 169.28 | 170.57 | 1.01 |\n"
    )
    assert set(_read(text).table["extra_settings"]) == {"Split mode=layer"}
    assert (
        _read(HEADER + "| Apple M3 Max | llama 1B Q8_0 | tg128 | 169.28 | 170.57 | 1.01 |\n")
        .table["extra_settings"]
        .isna()
        .all()
    )


def test_a_row_short_of_the_headers_cells_rejects_its_numbers_with_the_row_as_printed():
    row = "| Apple M3 Max | llama 1B Q8_0 | tg128 | 169.28 | 1.01 |"
    p = _read(HEADER + row + "\n")
    assert p.table.empty
    assert p.rejected[["line", "text"]].values.tolist() == [[3, row], [3, row]]  # tg128's 128 and 169.28


def test_something_other_than_text_is_refused_naming_the_source():
    with pytest.raises(llama_bench.ParseError, match="x.md: expected text"):
        llama_bench.parse(b"| model |", "x.md")
