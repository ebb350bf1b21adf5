"""aiperf console table ('NVIDIA AIPerf | LLM Metrics'): real tables from AIPerf's docs, wrapped and
cut labels, the command line beside the table, the serving contract, what the console carries, and
malformed tables (one sentence naming the file and line)."""

from __future__ import annotations

import math

import pytest
from conftest import cell
from typer.testing import CliRunner

from benchbook import config, ingest
from benchbook.cli import app
from benchbook.ingest import ParseError, core
from benchbook.ingest import aiperf as a
from benchbook.ingest import aiperf_console as ac

FIX = config.FIXTURES_DIR / "aiperf"
SINGLE = FIX / "aiperf_docs_custom_dataset_single_turn_console.txt"
LLAVA = FIX / "aiperf_docs_llava_onevision_console.txt"
C100 = FIX / "aiperf_docs_benchmarking_qwen3_0.6b_8xh200_c100_console.txt"
TRACE = FIX / "aiperf_docs_benchmarking_qwen3_0.6b_8xh200_mooncake_trace_console.txt"
GOODPUT = FIX / "aiperf_docs_benchmarking_qwen3_0.6b_8xh200_goodput_console.txt"
CONSOLES = sorted(FIX.glob("*_console.txt"))


def parsed(path):
    return ingest.read_parsed(path, tool="aiperf")[0]


@pytest.mark.parametrize("path", CONSOLES, ids=lambda p: p.name)
def test_console_tables_are_aiperf_only_and_every_number_is_counted(path):
    assert ingest.detect(path.read_bytes().decode()) == ["aiperf"]
    p = parsed(path)
    assert p.cells_read == len(p.table) + len(p.rejected)


def test_wrapped_labels_map_to_the_serving_contract():
    t = parsed(SINGLE).table
    assert (cell(t, "ttft", "mean")["value"], cell(t, "ttft", "mean")["line"]) == (19.99, 7)
    assert cell(t, "tpot", "p50")["value"] == 3.50  # AIPerf "Inter Token Latency" is per-request TPOT
    assert cell(t, "e2el", "max")["value"] == 7319.35  # "Request Latency", thousands separator read
    assert cell(t, "output_token_throughput_per_user", "mean")["unit"] == "tok/s/user"
    assert cell(t, "output_sequence_length", "p90")["value"] == 1268.10
    assert (cell(t, "output_throughput", "value")["value"], cell(t, "output_throughput", "value")["unit"]) == (
        527.06,
        "tok/s",
    )
    assert cell(t, "request_throughput", "value")["value"] == 0.63
    assert (cell(t, "completed", "count")["value"], cell(t, "completed", "count")["unit"]) == (10, "req")
    assert cell(t, "duration", "value")["value"] == 15.81
    assert "itl" not in set(t["metric"])  # the console has no Inter Chunk Latency row


def test_settings_from_aiperfs_own_cli_command_under_the_table():
    t = parsed(SINGLE).table
    assert set(t["model"]) == {"Qwen/Qwen3-0.6B"} and set(t["max_concurrency"]) == {2}
    assert t["num_prompts"].isna().all() and t["request_rate"].isna().all()
    assert set(t["format"]) == {"console"}
    assert "--custom-dataset-type 'single_turn' --streaming" in t["metadata"].iat[0]


def test_settings_from_the_shell_command_above_the_table():
    t = parsed(C100).table
    assert set(t["model"]) == {"qwen3-0.6b"}
    assert (set(t["max_concurrency"]), set(t["num_prompts"])) == ({100}, {1000})
    assert "--isl 1000 --osl 500" in t["metadata"].iat[0]


def test_a_unit_cut_by_the_console_width_is_completed_and_said():
    t = parsed(LLAVA).table
    row = cell(t, "output_token_throughput_per_user", "mean")
    assert (row["value"], row["unit"]) == (5.31, "tok/s/user")
    assert "cut by the console width" in row["note"]
    assert cell(t, "image_latency", "p50")["unit"] == "ms/image"


def test_failed_count_from_a_success_rate_line_only_beside_a_request_count():
    t = parsed(TRACE).table
    assert (cell(t, "completed", "count")["value"], cell(t, "failed", "count")["value"]) == (1690, 75)
    g = parsed(GOODPUT)
    assert "failed" not in set(g.table["metric"]) and "completed" not in set(g.table["metric"])
    assert g.rejected["reason"].str.contains("without the table's Request Count").any()
    assert cell(g.table, "request_goodput", "value")["value"] == 7.43


def test_a_trace_replay_records_no_request_rate_and_a_bare_table_no_setting():
    assert set(parsed(TRACE).table["format"]) == {ac.TRACE}
    assert ingest.carries("aiperf", ac.TRACE, "request_rate") is False
    assert ingest.carries("aiperf", "console", "max_concurrency") is True
    assert ingest.carries("aiperf", "console", "failed") is False  # no page may call a console run failure-free
    bare = SINGLE.read_text(encoding="utf-8").split("CLI Command:")[0]
    p = a.parse(bare, "bare.txt")
    assert set(p.table["format"]) == {ac.BARE} and p.table["model"].isna().all()
    assert ingest.carries("aiperf", ac.BARE, "max_concurrency") is False
    assert any("no `aiperf profile` command line" in m for m in p.messages)


TABLE = SINGLE.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "text,line,says",
    [
        ("NVIDIA AIPerf | LLM Metrics\n\n\n\n┃ Metric ┃ avg ┃\n", 1, "without its table header"),
        (TABLE.replace("┃      std ┃", "┃    p12.5 ┃"), 5, "unknown columns"),
        (TABLE.replace("│     3.81 │     2.01 │", "│     3.81 │"), 9, "values under 7 statistics"),
        (TABLE.replace("└", "x", 1), 30, "without its bottom rule"),
        (TABLE.replace("│ Request Latency (ms) │", "│                      │"), 13, "without a metric name"),
    ],
    ids=["no-header", "unknown-column", "short-row", "stray-line", "no-label"],
)
def test_a_malformed_table_is_one_sentence_naming_file_and_line(text, line, says):
    with pytest.raises(ParseError) as e:
        a.parse(text, "bad.txt")
    assert e.value.line == line and says in e.value.message
    assert str(e.value).startswith(f"bad.txt:{line}: ")


def test_cli_on_a_malformed_table_exits_non_zero_with_one_sentence(tmp_path):
    bad = tmp_path / "aiperf_console.txt"
    bad.write_text(TABLE.replace("│     3.81 │     2.01 │", "│     3.81 │"), encoding="utf-8")
    res = CliRunner().invoke(app, ["ingest", str(bad), "-o", str(tmp_path / "out.csv")])
    assert res.exit_code != 0
    assert "aiperf_console.txt:9" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "out.csv").exists()  # nothing half-written


def test_option_reading_is_quote_and_equals_tolerant():
    s = ac.settings("aiperf profile --model='m/x' --request-rate 2.5 --concurrency=8")
    assert (s["model"], s["request_rate"], s["max_concurrency"]) == ("m/x", 2.5, 8.0)
    assert math.isnan(ac.settings(None)["max_concurrency"])


FAILED = FIX / "nvda_ci_quick_reference_failed_all_timeout_console.txt"


def test_error_summary_gives_the_failed_count_and_an_empty_table_says_all_failed():
    p = parsed(FAILED)
    row = cell(p.table, "failed", "count")
    assert (row["value"], row["line"], row["note"]) == (5, 20, "the Error Summary at line 16: 5 x TimeoutError")
    assert set(p.table["metric"]) == {"failed"}
    assert (set(p.table["max_concurrency"]), set(p.table["num_prompts"])) == ({1}, {5})
    assert any(a.ALL_FAILED in m for m in p.messages)


def test_error_summary_rows_are_summed_beside_a_filled_table():
    errors = (
        "      NVIDIA AIPerf | Error Summary\n"
        "┃ Code ┃         Type ┃ Message ┃ Count ┃\n"
        "│  499 │ Cancelled    │         │     3 │\n"
        "│  N/A │ TimeoutError │         │ 1,200 │\n"
        "└──────┴──────────────┴─────────┴───────┘\n"
    )
    p = a.parse(errors + TABLE, "mixed.txt")
    assert cell(p.table, "failed", "count")["value"] == 1203
    assert cell(p.table, "completed", "count")["value"] == 10
    assert p.cells_read == len(p.table) + len(p.rejected)
    assert not any(a.ALL_FAILED in m for m in p.messages)
    with pytest.raises(ParseError) as e:
        a.parse(errors.replace("│     3 │", "│  many │") + TABLE, "bad.txt")
    assert e.value.line == 3 and "without a count" in e.value.message


def test_the_default_cap_aiperf_logs_is_read_and_grouped_tables_are_not():
    cmd = "$ aiperf profile --model m --url u --request-count 10\nNo concurrency value provided, setting to 1\n"
    t = a.parse(cmd + TABLE.split("CLI Command:")[0], "default.txt").table
    assert set(t["max_concurrency"]) == {1} and set(t["num_prompts"]) == {10}
    t = a.parse("$ aiperf profile --model m --request-rate 4\n" + TABLE.split("CLI Command:")[0], "rate.txt").table
    assert t["max_concurrency"].isna().all() and set(t["request_rate"]) == {4}
    grouped = TABLE.replace("NVIDIA AIPerf | LLM Metrics", "NVIDIA AIPerf | LLM Metrics: Spec Decode")
    assert ingest.detect(grouped) != ["aiperf"]


def test_a_command_with_no_rate_and_no_concurrency_ran_at_aiperfs_default_concurrency_of_one():
    t = ingest.read(FIX / "aiperf_docs_goodput_console.md", tool="aiperf")
    assert set(t["max_concurrency"]) == {1} and t["request_rate"].isna().all()
    # a rate is not a cap, a trace replays its schedule, and a table with no command states neither
    assert math.isnan(ac.settings("aiperf profile -m m --request-rate 4")["max_concurrency"])
    assert math.isnan(ac.settings("aiperf profile -m m --fixed-schedule --input-file t.jsonl")["max_concurrency"])
    assert math.isnan(ac.settings(None)["max_concurrency"])
    assert ac.settings("aiperf profile -m m --concurrency 8")["max_concurrency"] == 8


def test_a_table_cut_where_the_copy_ends_reads_its_rows_and_sets_the_last_line_aside_naming_it():
    # ai-dynamo/aiperf#339: the paste ends inside its third row, before the bottom rule (└───)
    cut = TABLE.split("└")[0].rstrip("\n") + "\n"
    last = len(cut.rstrip("\n").split("\n"))
    p = a.parse(cut, "cut.txt")
    assert set(p.rejected["line"]) == {last} and p.rejected["reason"].str.startswith(core.COPY_ENDS).all()
    assert len(p.table) and p.table["line"].max() < last and p.cells_read == len(p.table) + len(p.rejected)
    # the other way: the same short row with a line after it, or a table that goes on, is refused
    with pytest.raises(ParseError, match="values under 7 statistics"):
        a.parse(TABLE.replace("│     3.81 │     2.01 │", "│     3.81 │"), "bad.txt")
