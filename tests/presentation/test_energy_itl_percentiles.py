"""The energy table states the inter-token latency percentiles a file prints beside its energy
(ML.ENERGY v3: median, p90, p95, p99 per configuration), and has no such column for a file without them."""

from __future__ import annotations

from benchbook import config
from benchbook.analysis import energy
from benchbook.presentation import energy as show

FIX = config.PROJ_ROOT / "tests" / "fixtures" / "ml-energy"


def _display(name: str):
    _, rows = energy.read([FIX / name])
    return show.energy_display(energy.runs(rows))


def test_the_itl_percentiles_of_each_configuration_are_columns_of_the_table():
    t = _display("Qwen__Qwen3-Coder-480B-A35B-Instruct-FP8__sourcegraph-fim.json")
    cols = ["median ITL (ms)", "p90 ITL (ms)", "p95 ITL (ms)", "p99 ITL (ms)"]
    assert all(c in t for c in cols)
    row = t[t["configuration"] == "4x B200 (EP 4, DP 4), max_num_seqs 8"].iloc[0]
    assert [round(row[c], 1) for c in cols] == [36.2, 37.1, 41.4, 184.1]


def test_a_file_without_itl_has_no_itl_column():
    t = _display("A100_chat_benchmark.csv")
    assert not [c for c in t if "ITL" in c]


def test_the_page_says_the_itl_ranges_where_the_file_prints_them_and_nothing_where_it_does_not():
    _, rows = energy.read([FIX / "Qwen__Qwen3-Coder-480B-A35B-Instruct-FP8__sourcegraph-fim.json"])
    text = show.itl_sentence(energy.runs(rows))
    assert "16 configurations: median 25.8 to 412 ms, p99 184 to 2,345 ms" in text
    assert "with its p90 and p95" in text
    _, rows = energy.read([FIX / "A100_chat_benchmark.csv"])
    assert show.itl_sentence(energy.runs(rows)) == ""


def test_a_repeated_configuration_is_counted_once_and_its_runs_are_said():
    # gpqa's task file runs gpt-oss-20b on 1 x H100 at max_num_seqs 96 twice: 186 configurations in 187 runs
    _, rows = energy.read([FIX / "tasks_gpqa.json"])
    assert "beside the energy of 186 configurations in 187 runs:" in show.itl_sentence(energy.runs(rows))
    # one run per configuration: no run count
    _, rows = energy.read([FIX / "Qwen__Qwen3-Coder-480B-A35B-Instruct-FP8__sourcegraph-fim.json"])
    assert " runs:" not in show.itl_sentence(energy.runs(rows))
