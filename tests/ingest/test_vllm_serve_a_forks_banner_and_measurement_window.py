"""A fork of `vllm bench serve` (Moreh vLLM 0.11.0rc2) prints its banner with no space between the rules and the
title (`=====Serving Benchmark Result=====`) and a measurement window (`Warm-up Time:` / `Cool-down Time:`, its
`--warmup-time` / `--cooldown-time`): the requests of the warm-up and cool-down are left out of every count it
prints, so the `--num-prompts` of the command is not the denominator of its `Successful requests` (and the
prompts not counted are no failures). A block with no window, or a window of 0 s, keeps its command's count;
a banner that is only rules and text of another kind stays no banner."""

from __future__ import annotations

import math

import pytest

from benchbook import ingest
from benchbook.ingest.vllm_serve import HEADER_RE


def text(banner: str, warmup: str | None) -> str:
    rows = [
        banner,
        f"{'Successful requests:':<40} 4333",
        f"{'Maximum request concurrency:':<40} 10800",
    ]
    if warmup is not None:
        rows += [f"{'Warm-up Time:':<40} {warmup}", f"{'Cool-down Time:':<40} {warmup}"]
    rows += [
        f"{'Benchmark duration (s):':<40} 115.83",
        f"{'Output token throughput (tok/s):':<40} 66194.80",
        f"{'Mean TTFT (ms):':<40} 1677.87",
        "=" * 50,
    ]
    return (
        "```\nvllm bench serve --model org/m --num-prompts 32400 --max-concurrency 10800\n```\n\n```\n"
        + "\n".join(rows)
        + "\n```\n"
    )


def read(tmp_path, banner: str, warmup: str | None):
    p = tmp_path / "w.md"
    p.write_text(text(banner, warmup), encoding="utf-8")
    return ingest.read(p, tool="vllm-bench-serve")


@pytest.mark.parametrize(
    "banner",
    ["=============Serving Benchmark Result=============", "============ Serving Benchmark Result ============"],
)
def test_a_banner_with_or_without_spaces_opens_the_block(banner):
    assert HEADER_RE.match(banner)


@pytest.mark.parametrize(
    "line",
    ["=====Serving Benchmark Result ======", "Serving Benchmark Result", "===== Serving Benchmark Results ====="],
)
def test_a_banner_with_one_gap_or_no_rules_is_none(line):
    assert not HEADER_RE.match(line)


def test_a_window_leaves_the_prompts_sent_unknown(tmp_path):
    df = read(tmp_path, "=============Serving Benchmark Result=============", "120.0")
    assert math.isnan(df["num_prompts"].iloc[0])
    assert (df.loc[df["metric"] == "completed", "value"] == 4333).all()


def test_no_window_keeps_the_commands_prompts(tmp_path):
    assert read(tmp_path, "============ Serving Benchmark Result ============", None)["num_prompts"].iloc[0] == 32400


def test_a_window_of_zero_keeps_the_commands_prompts(tmp_path):
    assert read(tmp_path, "=============Serving Benchmark Result=============", "0.0")["num_prompts"].iloc[0] == 32400
