"""The Zeus-measured CSV of Benchmarking-Energy-Consumption-LLMs: each row's GPU energy, time and output tokens in
the energy contract; the recomputable and placeholder columns set aside; a configuration named by what varies."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError, zeus_llm_csv

FIX = config.FIXTURES_DIR / "zeus-llm-csv"
LATER = FIX / "zeus_llama2_7b_quant_batch_metrics_output.csv"
EARLIER = FIX / "zeus_llama2_7b_gsm8k_suite5_avg_power_zero.csv"
HEAD = "Model,Context_Window,Dataset,Prompt_Length,Output_Length,Latency_sec,Memory_MB,Energy_J,Avg_Power_W,Input_Tokens,Output_Tokens,Energy_per_InputToken,Energy_per_OutputToken\n"


def test_only_its_own_files_are_taken_for_it():
    for path in (LATER, EARLIER):
        assert ingest.detect(path.read_text(encoding="utf-8")) == [zeus_llm_csv.NAME]
    others = [p for p in config.FIXTURES_DIR.rglob("*") if p.is_file() and p.parent != FIX]
    assert [p.name for p in others if zeus_llm_csv.sniff(ingest._load_lines(p))] == []


def test_each_row_keeps_its_gpu_energy_time_and_output_tokens_and_sets_the_rest_aside():
    (p,) = ingest.read_parsed(LATER)
    assert p.cells_read == len(p.table) + len(p.rejected)
    first = p.table[p.table["line"] == 2].set_index("metric")
    assert first.loc["energy", "value"] == pytest.approx(5001.76) and first.loc["energy", "scope"] == "gpu"
    assert (first.loc["duration", "value"], first.loc["output_tokens", "value"]) == (69.7979, 4096)
    assert set(first["precision"]) == {"fp16"} and set(first["batch_size"]) == {4}
    reasons = " ".join(p.rejected.loc[p.rejected["line"] == 2, "reason"])
    assert "recomputable" in reasons and "carbon intensity the script sets by hand" in reasons


def test_the_later_schema_names_its_length_sweeps_by_token_counts_and_numbers_a_rerun_baseline():
    runs = list(dict.fromkeys(ingest.read(LATER)["run"]))
    assert "fp16, alpaca, batch 4, 16,384 padded input tokens, 4,096 output tokens" in runs
    assert "fp16, alpaca, batch 4, 4,096 padded input tokens, 4,096 output tokens, row 2" in runs


def test_a_zero_average_power_is_the_scripts_fallback_and_a_non_zero_one_is_a_mean():
    (p,) = ingest.read_parsed(EARLIER)
    assert "mean_power" not in set(p.table["metric"])
    assert p.rejected["reason"].str.contains("fallback, not a measurement").sum() == 8
    row = "m,2048,gsm8k,1024,512,35.0,14303.3,2520.0,72.0,42,512,60.0,4.92\n"
    t = zeus_llm_csv.parse(HEAD + row, "t.csv").table
    assert t.loc[t["metric"] == "mean_power", "value"].tolist() == [72.0]


def test_a_csv_without_its_energy_column_is_refused_naming_the_file():
    with pytest.raises(ParseError, match="t.csv:1: expected the columns"):
        zeus_llm_csv.parse("Model,Latency_sec\nm,1.0\n", "t.csv")
    with pytest.raises(ParseError, match="t.csv:2: expected 13 cells"):
        zeus_llm_csv.parse(HEAD + "m,1\n", "t.csv")


def test_an_earlier_schema_row_is_named_by_the_window_and_the_lengths_that_vary():
    rows = (
        "m,2048,gsm8k,1024,512,35.0,14303.3,2520.0,0.0,42,512,60.0,4.92\n"
        "m,4096,gsm8k,2048,512,35.0,14303.3,2520.0,0.0,42,512,60.0,4.92\n"
    )
    runs = list(dict.fromkeys(zeus_llm_csv.parse(HEAD + rows, "t.csv").table["run"]))
    assert runs == ["context window 2048, prompt length 1024", "context window 4096, prompt length 2048"]


def test_a_byte_order_mark_before_the_header_is_no_part_of_its_first_column():
    row = "m,2048,gsm8k,1024,512,35.0,14303.3,2520.0,72.0,42,512,60.0,4.92\n"
    t = zeus_llm_csv.parse("\ufeff" + HEAD + row, "t.csv").table
    assert set(t["model"]) == {"m"} and t.loc[t["metric"] == "energy", "value"].tolist() == [2520.0]


def test_the_refusal_lists_the_columns_the_csv_needs():
    with pytest.raises(
        ParseError, match=r"expected the columns Model, Latency_sec, Energy_J \(the Zeus benchmark CSV\)"
    ):
        zeus_llm_csv.parse("Model,Latency_sec\nm,1.0\n", "t.csv")


def test_a_configuration_measured_twice_is_one_configuration_and_one_measured_once_is_none():
    row = "m,2048,gsm8k,1024,512,35.0,14303.3,2520.0,72.0,42,512,60.0,4.92\n"
    other = "m,2048,gsm8k,2048,512,35.0,14303.3,2520.0,72.0,42,512,60.0,4.92\n"
    t = zeus_llm_csv.parse(HEAD + row + row + other, "t.csv").table
    conf = t.drop_duplicates("line").set_index("line")["configuration"]
    assert conf[2] == conf[3] == "prompt length 1024" and conf.isna()[4]
