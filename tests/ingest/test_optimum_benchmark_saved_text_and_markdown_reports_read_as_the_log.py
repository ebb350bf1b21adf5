"""optimum-benchmark saves its report beside the JSON in two more forms (`cli.py`: `save_text` writes
`benchmark_report.txt`, `to_plain_text()`; `save_markdown` writes `benchmark_report.md`,
`to_markdown_text()`): the lines its console log prints without the logger's prefix, and the same
measurements as `# target:` / `## measurement:` headings over `| metric | value | unit |` tables. Both
are read as the log is (the same numbers, each on its own line); a text with `+ word:` lines whose next
heading is no measurement of a target, or markdown headings over no such table, is not this report."""

from __future__ import annotations

import pytest

from benchbook.ingest import ParseError, optimum_benchmark, optimum_benchmark_log

PLAIN = (
    "+ prefill:\n\t+ energy:\n\t\t+ cpu: 0.004879 (kWh)\n\t\t+ gpu: 0.074682 (kWh)\n\t\t+ ram: 0.002168 (kWh)\n"
    "\t\t+ total: 0.081729 (kWh)\n\t+ efficiency:\n\t\t+ efficiency: 12235.492042 (samples/kWh)\n"
)
MARKDOWN = (
    "# prefill:\n\n## energy:\n\n| metric     |     value |   unit |\n| :--------- | --------: | -----: |\n"
    "| cpu        |   0.004879 | kWh |\n| gpu        |   0.074682 | kWh |\n| ram        |   0.002168 | kWh |\n"
    "| total      | 0.081729 | kWh |\n## efficiency:\n\n| metric     |     value |   unit |\n"
    "| :--------- | --------: | -----: |\n| efficiency | 12235.492042 | samples/kWh |\n"
)
LOG = "".join(f"[MAIN-PROCESS][2025-01-01 00:00:00,000][report][INFO] - {s}\n" for s in PLAIN.splitlines())


def _values(text: str, source: str) -> dict:
    p = optimum_benchmark.parse(text, source)
    return {(r.interval, r.scope, r.metric): r.value for r in p.table.itertuples()}


@pytest.mark.parametrize(("text", "form"), [(PLAIN, "text"), (MARKDOWN, "markdown")])
def test_a_saved_report_is_claimed_and_reads_as_the_logged_one(text, form):
    assert optimum_benchmark_log.saved_form(text) == form and optimum_benchmark.sniff(text)
    assert _values(text, "report") == _values(LOG, "log")
    assert _values(text, "r")[("prefill", "gpu", "energy")] == pytest.approx(0.074682 * 3.6e6)


def test_each_value_keeps_its_own_line():
    lines = {(r.scope, r.metric): r.line for r in optimum_benchmark.parse(MARKDOWN, "r").table.itertuples()}
    assert lines[("gpu", "energy")] == 8 and lines[("gpu+cpu+ram", "requests_per_joule")] == 15


def test_a_saved_report_without_energy_measured_none():
    latency = "# decode:\n\n## latency:\n\n| metric | value | unit |\n| :-- | --: | --: |\n| mean | 0.5 | s |\n"
    with pytest.raises(ParseError, match="saved report has no energy section"):
        optimum_benchmark.parse(latency.replace("# decode:", "+ decode:").replace("## latency:", "\t+ latency:"), "r")
    assert optimum_benchmark_log.saved_form(latency) == "markdown"


def test_plus_lines_or_headings_that_are_no_target_and_measurement_are_not_this_report():
    assert optimum_benchmark_log.saved_form("+ added:\n\t+ fixed:\n\t\t+ a: 1 (s)\n") is None
    assert optimum_benchmark_log.saved_form("# Results:\n\n## Setup:\n\n| gpu | 1 | kWh |\n") is None
    assert optimum_benchmark_log.saved_form("+ prefill:\n+ decode:\n") is None
