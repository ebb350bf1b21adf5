"""optimum-benchmark's markdown report (its trackers' `to_markdown_text` tables under `# target:` /
`## section:` headings) with no energy table is refused naming its first target's line: it measured no
energy, what this reader takes; one with an energy table is not this refusal."""

from benchbook.ingest import optimum_benchmark

REPORT = [
    "# load_model:",
    "",
    "## latency:",
    "",
    "| metric | value        | unit   |",
    "| :----- | -----------: |------: |",
    "| mean   |     2201.577750 | s |",
    "# decode:",
    "",
    "## throughput:",
    "",
    "| metric     |     value   |   unit |",
    "| :--------- | --------:   | -----: |",
    "| throughput | 5.45 | tokens/s |",
]


def test_a_report_without_energy_is_refused_at_its_first_target():
    line, why = optimum_benchmark.refuses("\n".join(["some prose", *REPORT]))
    assert line == 2 and "no energy table" in why and "to_markdown_text" in why


def test_a_report_with_energy_or_no_target_heading_is_not_this_refusal():
    assert optimum_benchmark.refuses("\n".join([*REPORT, "## energy:", "| cpu | 0.1 | kWh |"])) is None
    assert optimum_benchmark.refuses("\n".join(REPORT[2:7])) is None
