"""The prompts a run sent, counted in a sentence (issue #35 class 2/4): `1000 prompts`, `in 1000 requests`
and `num-prompts 1000` state them as a command's `--num-prompts` does, so an output that prints no failure
count still gives its failed requests (sent - completed), as vLLM's benchmark counts them; a count the
sentence says completed or failed, a rate, or the warmup's requests (sent before the measurement) is none."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import context


def _prompts(line: str) -> list:
    return [f.value for f in context.read([line]).get("prompts")]


@pytest.mark.parametrize(
    ("line", "n"),
    [
        ("benchmark_serving with a random dataset in 1000 requests (request-rate 10):", 1000),
        ("We sent 1,000 prompts at each rate.", 1000),
        ("run with num-prompts 500 and max-concurrency 8", 500),
    ],
)
def test_a_sentence_that_counts_the_prompts_sent_states_them(line, n):
    assert _prompts(line) == [n]


@pytest.mark.parametrize(
    "line",
    [
        "999 requests completed and 1 failed",  # an outcome
        "of 1000 requests completed, most were short",  # an outcome, after a preposition
        "it reaches 10 requests per second",  # a rate
        "with 100 or 1000 prompts",  # two counts offered: neither
        "I also added a warmup of 10 requests to eliminate cold-start noise",  # sent before the measurement
    ],
)
def test_a_count_completed_a_rate_two_counts_or_a_warmup_state_no_prompts(line):
    assert _prompts(line) == []


def test_a_sentence_above_the_block_gives_the_prompts_and_the_failed_request():
    path = config.FIXTURES_DIR / "vllm-bench-serve/rocm_vllm_issue375_dsr1_8x_mi300x_random_rate10_999_of_1000_cut.md"
    df = ingest.read(path)
    assert set(df["num_prompts"]) == {1000}
    assert "num_prompts 1000: read from line 4 (prose), not the table" in df.attrs["messages"]


def test_a_tools_measured_request_count_is_no_prompts_sent():
    df = ingest.read(config.FIXTURES_DIR / "genai-perf/issue393_qwen3_14b_console.txt")  # `Request count: 7`
    assert not any(m.startswith("num_prompts") for m in df.attrs["messages"])


def test_a_command_its_parser_set_aside_gives_no_prompts():
    # real: SGLang PR 14098, a command asking rate 24 and 1,200 prompts above a block printed at rate 8
    path = (
        config.FIXTURES_DIR
        / "sglang-bench-serving/sglang_pr14098_mindie_backend_sharegpt_1200_prompts_rate24_printed_8_cut.md"
    )
    df = ingest.read(path)
    assert df["num_prompts"].isna().all()
