"""The page says which token count each vLLM bench latency rate counts: both the asked and the
generated count where the input states fewer generated, else that the rate assumes every asked token
was generated."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import batch
from benchbook.ingest import vllm_offline
from benchbook.presentation import batch as show


def run_text(asked: int, said: str = "") -> str:
    """One bench latency run of batch 2 asking for `asked` tokens, `said` a line of the writer's above its result."""
    return (
        f"python benchmarks/benchmark_latency.py --model m --batch-size 2 --output-len {asked}\n```\n"
        f"Namespace(model='m', input_len=32, output_len={asked}, batch_size=2)\n{said}"
        "Avg latency: 100.0 seconds\n```\n"
    )


def runs_of(text: str) -> pd.DataFrame:
    p = vllm_offline.parse(text, "x.md")
    return batch.offline_runs(p.table.assign(tool=p.tool, source="x.md"))


def test_a_short_run_is_said_with_both_counts_and_its_rate_on_those_generated():
    said = show.tokens_sentence(runs_of(run_text(4000, "output_len = 2017\n")))
    assert "asked for 4000 new tokens per sequence (--output-len) and generated 2017 (line 4)" in said
    assert "2 x 2017 / 100.00 s = 40.3 tok/s, not the 80.0 tok/s" in said
    assert "assumes" not in said


def test_a_run_with_only_its_asked_count_is_said_to_assume_them_all_generated():
    said = show.tokens_sentence(runs_of(run_text(4000)))
    assert said.startswith("Each vLLM bench latency rate here is batch x --output-len / mean latency: it assumes")
    assert "asked for 4000" not in said
    # a stated count equal to the asked one is neither short nor assumed
    assert show.tokens_sentence(runs_of(run_text(128, "output_len = 128\n"))) == ""
