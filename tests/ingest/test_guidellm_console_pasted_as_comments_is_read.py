"""GuideLLM 0.2's console summary kept under its command in a shell script, every line behind `# ` (and `#`
alone on its empty lines), is the tool's output all the same: it is read without that prefix, line for line,
as vLLM's serving block pasted as comments is. A summary with no such prefix is read as before, and a
markdown heading `# ...` above it strips nothing from it."""

from __future__ import annotations

from pathlib import Path

from benchbook.ingest import guidellm

FIXTURE = Path("tests/fixtures/guidellm/guidellm_script_comment_qwen3_0p6b_concurrent5_60s_five_incomplete_cut.sh")


def _run(text: str) -> dict:
    table = guidellm.parse(text, "x").table
    return {(m, s): v for m, s, v in zip(table["metric"], table["statistic"], table["value"], strict=True)}


def test_a_summary_pasted_as_comments_is_read():
    assert guidellm.sniff(FIXTURE.read_text())
    got = _run(FIXTURE.read_text())
    assert got[("completed", "count")] == 10 and got[("incomplete", "count")] == 5
    assert got[("request_throughput", "value")] == 0.26


def test_the_same_summary_uncommented_reads_the_same():
    bare = "\n".join(
        line[2:] if line.startswith("# ") else line.lstrip("#") for line in FIXTURE.read_text().splitlines()
    )
    assert _run(bare) == _run(FIXTURE.read_text())


def test_a_markdown_heading_above_a_bare_summary_strips_nothing():
    bare = "\n".join(
        line[2:] if line.startswith("# ") else line.lstrip("#") for line in FIXTURE.read_text().splitlines()
    )
    assert _run("# Results\n\n" + bare)[("completed", "count")] == 10
