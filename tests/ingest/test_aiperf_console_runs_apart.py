"""Several AIPerf LLM Metrics tables in one log, each its own run: the `CLI Command:` AIPerf prints under a
table is that table's (not a shell command for the next run further down), a shell `aiperf profile` above a
table is that table's, words a publisher put before the centred title name the run, and tables with neither
command nor name are told apart by their order (as GenAI-Perf's are)."""

from __future__ import annotations

from benchbook import config, ingest
from benchbook.ingest import aiperf as a

FIX = config.FIXTURES_DIR / "aiperf"
AUDIO = FIX / "aiperf_docs_audio_qwen2_audio_7b_synthetic_c4_and_input_file_two_runs.md"
TITLED = FIX / "gemma4_hack_base_12b_it_bf16_vs_awq4bit_two_titled_runs_ja.md"


def _settings(table):
    by = table.groupby(["run", "metadata"], dropna=False, sort=False)
    return [(run, g["max_concurrency"].iat[0], g["num_prompts"].iat[0]) for (run, _), g in by]


def test_each_cli_command_under_a_table_is_that_tables_run():
    t = ingest.read_parsed(AUDIO, tool="aiperf")[0].table
    assert [s[1:] for s in _settings(t)] == [(4.0, 20.0), (1.0, 3.0)]  # not the later command's 1 and 3 for both


def test_a_shell_command_above_each_table_is_its_own_where_no_cli_command_is_printed():
    text = AUDIO.read_text(encoding="utf-8")
    bare = "\n".join(
        line for line in text.split("\n") if not line.startswith(("CLI Command:", "--audio-format", "'inputs"))
    )
    t = a.parse(bare, "shell_only.md").table
    assert [s[1:] for s in _settings(t)] == [(4.0, 20.0), (1.0, 3.0)]


def test_words_before_the_centred_title_name_the_run():
    t = ingest.read_parsed(TITLED, tool="aiperf")[0].table
    assert list(dict.fromkeys(t["run"])) == ["vLLM gemma4 12B it", "vLLM+Awq+4bit"]
    assert t.loc[t["run"].eq("vLLM+Awq+4bit") & t["metric"].eq("output_throughput"), "value"].tolist() == [361.21]


def test_tables_with_neither_command_nor_name_are_numbered_in_order():
    text = TITLED.read_text(encoding="utf-8")
    plain = text.replace("vLLM gemma4 12B it NVIDIA", "NVIDIA").replace("vLLM+Awq+4bit  NVIDIA", "NVIDIA")
    p = a.parse(plain, "plain.md")
    assert list(dict.fromkeys(p.table["run"])) == ["aiperf", "aiperf #2"]
    assert len(p.rejected) == 0  # two runs, not one run's conflicting rows
