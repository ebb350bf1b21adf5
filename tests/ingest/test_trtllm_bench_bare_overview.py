"""A trtllm-bench PERFORMANCE OVERVIEW pasted without its banner rows: each block of the overview's
own label lines is one report, named by the heading above it, where the text names trtllm-bench."""

from __future__ import annotations

import pytest
from conftest import cell

from benchbook import config, ingest
from benchbook.ingest import ParseError, trtllm_bench

NSYS = config.FIXTURES_DIR / "trtllm-bench" / "a6000_tinyllama_gemm_plugin_auto_vs_disable_nsys.md"

BLOCK = """Request Throughput (req/sec):                     141.2968
Total Output Throughput (tokens/sec):             18085.9891
Per GPU Output Throughput (tps/gpu):              18085.9891
"""


def test_two_bare_overviews_read_as_two_runs_named_by_their_headings():
    assert ingest.detect(NSYS.read_text()) == ["trtllm-bench"]
    t = ingest.read(NSYS)
    assert set(t["run"]) == {"auto", "disabled"}
    auto = t[t["run"] == "auto"]
    assert cell(auto, "output_throughput", "value")["value"] == pytest.approx(18085.9891)
    assert cell(auto, "duration", "value")["value"] == pytest.approx(21.2319049)
    assert set(t["model"]) == {"TinyLlama/TinyLlama-1.1B-Chat-v1.0"}


def test_bare_overview_lines_need_the_tool_named_and_three_lines():
    assert trtllm_bench.sniff("trtllm-bench --model m throughput --dataset d\n" + BLOCK)
    assert not trtllm_bench.sniff(BLOCK)  # the labels alone could be anyone's
    two = "trtllm-bench --model m throughput\n" + "\n".join(BLOCK.splitlines()[::2]) + "\n"
    assert not trtllm_bench.sniff(two)
    with pytest.raises(ParseError) as err:
        trtllm_bench.parse(two, "two.txt")
    assert err.value.line == 1 and "PERFORMANCE OVERVIEW" in err.value.message


def test_a_pull_requests_title_above_a_bare_overview_names_no_report():
    text = "# [PR] A faster MoE kernel\n\ntrtllm-bench --model m throughput\n" + BLOCK
    assert trtllm_bench.parse(text, "pr.md").table["run"].unique().tolist() == ["report 1"]
    two = "## baseline\n\ntrtllm-bench --model m throughput\n" + BLOCK + "\n## this PR\n\n" + BLOCK
    assert trtllm_bench.parse(two, "pr.md").table["run"].unique().tolist() == ["baseline", "this PR"]
