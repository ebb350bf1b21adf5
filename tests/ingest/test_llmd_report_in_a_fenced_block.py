"""A report quoted in a Markdown guide's fenced block (llm-d's guides put it in a ```yaml fence inside a
`<details>`, indented two spaces) is read as CommonMark reads the fence: up to its own indent taken off
each content line, every line keeping its number; a fence that holds no report is not one."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import llmd_report as lr

FIX = config.FIXTURES_DIR / "llm-d-benchmark-report"
GUIDE = FIX / "llmd_inference_scheduling_guide_qwen3_32b_8x2_rate10_stage2_report_and_k8s_comparison.md"
BARE = FIX / "llmd_precise_prefix_cache_qwen3_32b_stage2_benchmark_report.yaml"


def quoted(report: str, indent: str) -> str:
    body = "\n".join(indent + x if x else x for x in report.split("\n"))
    return f"# A guide\n\n<details>\n\n{indent}```yaml\n{body}\n{indent}```\n\n</details>\n| a | table |\n"


@pytest.mark.parametrize("indent", ["", "  "])
def test_a_fenced_report_reads_as_the_bare_one_with_its_lines_moved(indent):
    report = BARE.read_text(encoding="utf-8")
    text = quoted(report, indent)
    assert lr.sniff(text) and ingest.detect(text) == [lr.NAME]
    bare, fenced = lr.parse(report, "r.yaml").table, lr.parse(text, "g.md").table
    assert list(fenced["value"]) == list(bare["value"])
    assert list(fenced["line"]) == [n + 5 for n in bare["line"]]  # the fence opens on line 5


def test_a_fenced_block_that_holds_no_report_is_not_one():
    text = quoted("metrics:\n  latency:\n    mean: 1.0\nother: 2\n", "  ")  # no scenario: not a report
    assert not lr.sniff(text)


def test_the_guide_is_this_tool_only_and_reads_its_stage():
    assert ingest.detect(GUIDE.read_text(encoding="utf-8")) == [lr.NAME]
    t = ingest.read_parsed(GUIDE, tool=lr.NAME)[0].table
    assert set(t["run"]) == {"stage 2"} and set(t["request_rate"]) == {10.0} and set(t["model"]) == {"Qwen/Qwen3-32B"}
    got = t[(t["metric"] == "output_throughput")]["value"]
    assert list(got) == pytest.approx([4023.797460896292])
