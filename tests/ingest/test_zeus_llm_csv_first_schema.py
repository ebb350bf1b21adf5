"""The first schema of the Zeus benchmark CSV (scripts/results/results_output.csv, May 2025) writes no
Energy_J: its `Energy_per_OutputToken` is the script's round(energy / output tokens, 4), so the energy is
that times `Output_Tokens`; `Batch_Number` numbers the batches of prompts of one configuration, each its
own window: rows of one configuration are its repeats (`configuration`), a configuration met once has none."""

from __future__ import annotations

import pytest

from benchbook import config, ingest

FIRST = config.FIXTURES_DIR / "zeus-llm-csv" / "zeus_llama2_7b_alpaca_gsm8k_batch_number_carbon_results_output.csv"
HEAD = (
    "Model,Dataset,Batch_Number,Latency_sec,Memory_MB,Input_Tokens,Output_Tokens,"
    "Energy_per_InputToken,Energy_per_OutputToken,Carbon_Emissions_g\n"
)


def test_the_energy_is_the_per_output_token_figure_times_the_output_tokens():
    (p,) = ingest.read_parsed(FIRST)
    assert p.cells_read == len(p.table) + len(p.rejected)
    row = p.table[p.table["line"] == 4].set_index("metric")  # 512 in, 2,048 out: 1.3195 J per output token
    assert row.loc["energy", "value"] == pytest.approx(1.3195 * 2048) and row.loc["energy", "scope"] == "gpu"
    reasons = " ".join(p.rejected.loc[p.rejected["line"] == 4, "reason"])
    assert "carbon intensity the script sets" in reasons and "repeats" in reasons


def test_rows_of_one_configuration_are_its_repeats_and_a_single_row_is_none(tmp_path):
    t = ingest.read(FIRST)
    gsm = t[t["run"].str.startswith("gsm8k, 1,024 padded input tokens, 512 output tokens")]
    assert gsm["run"].nunique() == 8 and set(gsm["configuration"]) == {
        "gsm8k, 1,024 padded input tokens, 512 output tokens"
    }
    f = tmp_path / "results_output.csv"
    f.write_text(
        HEAD + "m/x,alpaca,1,9.0,14030.2,512,512,1.2556,1.2556,0.08\n"
        "m/x,gsm8k,1,37.5,14576.2,1024,1024,2.6385,2.6385,0.34\n"
    )
    assert ingest.read(f)["configuration"].isna().all()
