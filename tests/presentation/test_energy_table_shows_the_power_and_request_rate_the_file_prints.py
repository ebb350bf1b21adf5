"""The energy table states the mean power and the request rate a file prints beside its energy (ML.ENERGY
v3's `avg_power_watts`, v2's `Requests per second`, the requests a server completed per second, not the
rate offered), and has no such column for a file without them."""

from __future__ import annotations

from test_energy_itl_percentiles import _display  # an ML.ENERGY fixture's energy table, as a page shows it


def test_the_requests_served_per_second_are_a_column_beside_the_energy_per_request():
    t = _display("tgi_llama2_70b_8gpu_rate10.00.json")
    assert round(float(t["requests / s"].iloc[0]), 2) == 3.24  # served, against the 10 req/s offered
    assert "mean power (W)" not in t  # v2 prints no power


def test_the_mean_power_of_each_configuration_is_a_column():
    t = _display("Qwen__Qwen3-235B-A22B-Thinking-2507-FP8__gpqa.json")
    row = t[t["configuration"] == "8x H100 (EP 8), max_num_seqs 128"].iloc[0]
    assert round(float(row["mean power (W)"])) == 3918
    assert "requests / s" not in t  # v3 prints tokens per second, no request rate


def test_a_file_without_power_or_request_rate_has_neither_column():
    t = _display("A100_chat_benchmark.csv")
    assert "mean power (W)" not in t and "requests / s" not in t
