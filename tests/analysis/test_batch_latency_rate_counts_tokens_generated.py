"""Asked is not produced: vLLM bench latency asks every sequence for exactly --output-len tokens
(SamplingParams(ignore_eos=True, max_tokens=output_len)) and prints only the time. Where the input
states the tokens a run generated (`output_len = 2017` under a run that asked for 4000), its rate
counts those and the page says both; where it states only the asked count, the page says the rate
assumes every asked token was generated."""

from __future__ import annotations

import pandas as pd

from benchbook import config, ingest
from benchbook.analysis import bandwidth, batch
from benchbook.ingest import vllm_offline

NOTES = config.FIXTURES_DIR / "vllm-bench-offline" / "llama2_70b_tp2_benchmark_latency_batch_sweep_2023_notes.md"


def run_text(asked: int, said: str = "") -> str:
    return (
        f"python benchmarks/benchmark_latency.py --model m --batch-size 2 --output-len {asked}\n"
        + "```\n"
        + f"Namespace(model='m', input_len=32, output_len={asked}, batch_size=2)\n"
        + said
        + "Avg latency: 100.0 seconds\n"
        + "```\n"
    )


def runs_of(text: str) -> pd.DataFrame:
    p = vllm_offline.parse(text, "x.md")
    return batch.offline_runs(p.table.assign(tool=p.tool, source="x.md"))


def test_a_stated_count_that_differs_is_the_one_the_rate_counts():
    p = vllm_offline.parse(run_text(4000, "output_len = 2017\n"), "x.md")
    made = p.table[p.table["metric"] == "generated_len"]
    assert made[["line", "value"]].values.tolist() == [[4, 2017.0]]
    assert p.cells_read == len(p.table) + len(p.rejected) == 2  # the count is a number kept
    (r,) = runs_of(run_text(4000, "output_len = 2017\n")).to_dict("records")
    assert (r["asked_len"], r["output_len"], r["generated_line"]) == (4000, 2017, 4)
    assert r["output_tok_s"] == 2 * 2017 / 100.0


def test_with_only_the_asked_count_the_rate_counts_the_asked_tokens():
    r = runs_of(run_text(4000))
    assert r["output_tok_s"].tolist() == [2 * 4000 / 100.0] and r["generated_line"].isna().all()


def test_the_namespace_and_command_are_no_statement_of_tokens_generated():
    p = vllm_offline.parse(run_text(4000), "x.md")
    assert "generated_len" not in set(p.table["metric"])


def test_the_2023_notes_rate_the_4000_token_run_on_its_2017_tokens():
    df = ingest.read_all([NOTES])[0]
    r = batch.offline_runs(df).set_index("run")
    assert (r.loc["latency 3", "asked_len"], r.loc["latency 3", "output_len"]) == (4000, 2017)
    assert round(r.loc["latency 3", "output_tok_s"], 1) == 28.9  # not 2 x 4000 / 139.35 = 57.4
    sw = batch.offline_sweep(batch.offline_runs(df))
    assert set(sw["variant"]) == {"--output-len 128", "--output-len 4000"}  # series named by what was asked
    lat = bandwidth.latency_runs(df).set_index("run")
    assert (lat.loc["latency 3", "asked_len"], lat.loc["latency 3", "output_len"]) == (4000, 2017)
