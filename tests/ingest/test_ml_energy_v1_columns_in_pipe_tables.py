"""The ML.ENERGY leaderboard's v1 columns re-typed as Markdown pipe tables (`model | throughput |
response_length | latency | energy`, leaderboard-v2 pull request 20) are its v1 numbers: read per table,
the GPU from the heading above, the condition from the line right above each header. A pipe table that
lacks one of the v1 columns is not claimed."""

from __future__ import annotations

from benchbook import config
from benchbook.ingest import ml_energy

PR20 = config.FIXTURES_DIR / "ml-energy" / "leaderboard_v2_pr20_llama_vs_llama2_a100_v100_author_tables_excerpt.md"

NO_ENERGY = """**for A100**

model | throughput | response_length | latency
-- | -- | -- | --
metaai/llama-7B | 27.47 | 60.65 | 1.99
"""


def test_each_table_is_read_with_the_gpu_of_its_heading_and_its_condition():
    text = PR20.read_text(encoding="utf-8")
    assert ml_energy.sniff(text)
    t = ml_energy.parse(text, PR20.name).table
    energy = t[t["metric"] == "energy_per_request"].set_index("run")["value"]
    assert round(energy["metaai/llama-13B (V100, previous(using original fastchat in benchmark))"], 2) == 772.40
    assert round(energy["metaai/Llama-2-7b-chat-hf (A100, using modified run_reference)"], 2) == 1828.77
    assert set(t["device"]) == {"A100", "V100"} and t["device_count"].isna().all()
    latency = t[(t["metric"] == "e2el") & (t["model"] == "metaai/llama-7B") & (t["device"] == "A100")]["value"]
    assert round(latency.iloc[0]) == 1986  # printed in s, kept in ms


def test_a_pipe_table_without_the_energy_column_is_not_claimed():
    assert not ml_energy.sniff(NO_ENERGY)
