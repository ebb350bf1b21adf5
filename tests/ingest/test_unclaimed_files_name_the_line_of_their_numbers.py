"""A file no tool claims is refused naming the first table of measurements it holds (else the first
figure), so that the user sees what was found and where; a file with neither names nothing."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from benchbook import ingest, report
from benchbook.cli import app
from benchbook.ingest import unclaimed

RETYPED = """# Serving results

- **Num prompts:** 10
- Target: 30 to 60 tokens/sec per user

| RR | Throughput (req/s) | TTFT Mean (ms) | TPOT Mean (ms) | Completed |
|---|---:|---:|---:|---:|
| 5.0 | 0.10 | 4235.45 | 728.55 | 10 |
| 6.0 | 0.12 | 4400.10 | 731.00 | 10 |
"""

SIDEWAYS = """| Metric | Concurrency 16 | Concurrency 32 |
| --- | --- | --- |
| **Mean Time To First Token (TTFT)** | **7,513.46 ms** | **13,144.97 ms** |
| **Request Throughput** | **0.70 req/s** | **0.85 req/s** |
"""

PROSE = """# Seeing similar latency for output len=1 and output len=128

Our own latency script with an output length of 128 gives 462ms on 4 A10G.
"""


def _refusal(tmp_path, text: str, name: str = "notes.md") -> ingest.UnknownFormat:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    with pytest.raises(ingest.UnknownFormat) as exc:
        ingest.read_parsed(p)
    return exc.value


def test_a_retyped_table_is_named_by_its_header_with_its_measured_columns(tmp_path):
    exc = _refusal(tmp_path, RETYPED)
    assert exc.line == 6  # the table, not the target in the list above it
    assert exc.sign.startswith("a table of Throughput (req/s), TTFT Mean (ms), TPOT Mean (ms) (2 rows of numbers)")
    assert str(exc).startswith("notes.md:6: no known tool output found: a table of")


def test_a_table_written_sideways_is_named_by_its_rows(tmp_path):
    exc = _refusal(tmp_path, SIDEWAYS)
    assert exc.line == 1
    assert "a row each for Mean Time To First Token (TTFT), Request Throughput" in exc.sign


def test_a_figure_in_prose_is_named_where_no_table_is(tmp_path):
    exc = _refusal(tmp_path, PROSE)
    assert exc.line == 3  # not the heading's `len=1`
    assert "a figure in text (462ms)" in exc.sign


def test_one_setting_in_a_card_of_facts_is_no_table_of_measurements():
    card = ["| field | value |", "|---|---|", "| Model | Qwen3 |", "| Power limit | 220 W/GPU |"]
    assert unclaimed.sign(card) == (4, "a figure in text (220 W)")
    card.append("| Power draw | 180 W |")
    assert unclaimed.sign(card)[1].startswith("a table with a row each for Power limit, Power draw")


def test_a_file_with_no_measurement_names_nothing(tmp_path):
    exc = _refusal(tmp_path, "| fruit | count |\n|---|---|\n| apples | 3 |\n\nkubectl get pods -n dynamo -w\n")
    assert exc.line == 1 and exc.sign is None
    assert "looked for:" in exc.message


def test_the_cli_and_the_report_say_what_was_seen_and_where(tmp_path):
    p = tmp_path / "notes.md"
    p.write_text(RETYPED, encoding="utf-8")
    res = CliRunner().invoke(app, ["ingest", str(p)])
    assert res.exit_code == 2
    assert res.output.splitlines()[0].startswith("error: notes.md:6: no known tool output found: a table of Throughput")
    assert report.read_inputs([p])[0].problem.startswith("6: no known tool output found: a table of Throughput")


def test_a_command_s_options_are_settings_not_a_figure():
    # a command line (`--fail-on-regression ttft:p99 --tolerance 0.05`) states settings: the figure after it is named
    lines = ["benchbook compare a.json b.json --fail-on-regression ttft:p99 --tolerance 0.05", "TTFT p99: 412 ms"]
    assert unclaimed.sign(lines) == (2, "a figure in text (412 ms)")
    # the other way: the same figure with no option on its line is named where it stands
    assert unclaimed.sign(["TTFT p99: 412 ms"]) == (1, "a figure in text (412 ms)")


def test_a_bare_number_under_a_label_of_a_measured_quantity_is_named_by_its_line():
    printed = "Even with bfloat16:\n```\n-----Time SDPA-----\n27.270353698730467\n-----Time Flex-----\n38.01\n```\n"
    assert unclaimed.sign(printed.splitlines()) == (4, "a number printed under `Time SDPA`, with no unit")


def test_a_bare_number_under_other_words_names_nothing():
    assert unclaimed.sign(["Issue number", "27"]) is None


COMPARE = """I confirm that `flash-attn` is actually the fastest:

[------------------- FlashAttention -------------------]
                                   |  torch sdpa  |  flash
1 threads: ---------------------------------------------
      [torch.float16, 12, 64, 256, 64]  |      98.7    |   120.6

      [torch.float16, 16, 64, 256, 64]  |     128.5    |   121.9
"""


def test_a_torch_benchmark_compare_table_is_named_by_its_title_with_its_unit_where_the_file_keeps_it():
    # torch.utils.benchmark.Compare prints its unit only under the rows; a blank line parts groups of rows
    assert unclaimed.sign(COMPARE.splitlines()) == (
        3,
        "a torch.utils.benchmark Compare table `FlashAttention` (2 rows, its unit line not in the file)",
    )
    whole = COMPARE + "\nTimes are in microseconds (us).\n"
    assert unclaimed.sign(whole.splitlines())[1].endswith("(2 rows, times in microseconds)")
    # the other way: a bracketed rule with no `N threads:` line under it is no Compare table
    assert unclaimed.sign(["[---- FlashAttention ----]", "flash is fast"]) is None


CAPTIONED = """## Perf
Shape: `B=2, H=32, D=128, bf16`. Times are mean µs (positive % = flex faster).

### Dense
| S | Flex | Flash |
|---:|---:|---:|
| 512 | 20.8 | 23.4 |
| 1024 | 38.4 | 37.8 |
"""


def test_a_table_whose_caption_names_its_unit_is_named_by_its_header():
    assert unclaimed.sign(CAPTIONED.splitlines()) == (5, "a table of numbers in µs, as line 2 says (2 rows of numbers)")
    # the other way: the same table under words that name no quantity is not a table of measurements
    uncaptioned = CAPTIONED.replace("Times are mean µs", "Flex against flash")
    assert unclaimed.sign(uncaptioned.splitlines()) is None


def test_seconds_glued_to_a_decimal_are_a_figure_and_a_device_s_plural_is_not():
    # SpecForge pull request 97: a script prints `Time: 0.316s` under `Testing sequence length: 128`
    seen = unclaimed.sign(["GPU: NVIDIA B200", "Testing sequence length: 128", "  Time: 0.316s"])
    assert seen == (3, "a figure in text (0.316s)")
    assert unclaimed.sign(["We ran it on two A100s and 8 H100s."]) is None


HEADLESS = """[turn 0, continued]
| llama 7B Q8_0   |   6.67 GiB |  Metal,BLAS |  1 |           pp1 |         23.74 ± 0.11 |         23.75 ± 0.10 |  1.00   |
| llama 7B Q8_0   |   6.67 GiB |  Metal,BLAS |  1 |           pp2 |         26.14 ± 0.02 |         37.02 ± 0.12 |  1.42   |
"""


def test_pipe_rows_of_numbers_under_no_header_are_named_by_their_first_line():
    assert unclaimed.sign(HEADLESS.splitlines()) == (
        2,
        "2 rows of a table of numbers whose header the file does not hold",
    )
    # the other way: one such row alone is a line of a card, no table
    assert unclaimed.sign(HEADLESS.splitlines()[:2]) is None
