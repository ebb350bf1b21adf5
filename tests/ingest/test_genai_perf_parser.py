"""genai-perf parser: real GenAI-Perf JSON, CSV and console tables of three versions (2024 to 2025),
the serving contract, the rows that change across versions, failed runs, bad input."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import cell

from benchbook import config, ingest
from benchbook.ingest import ParseError, core, vllm_serve
from benchbook.ingest import genai_perf as g

FIX = config.FIXTURES_DIR / "genai-perf"
JSON = FIX / "issue298_c100_streaming_profile_export_genai_perf.json"
CSV = FIX / "issue393_c144_profile_export_genai_perf.csv"
CONSOLE = FIX / "issue393_qwen3_14b_console.txt"
CONSOLE_2024 = FIX / "triton_openai_frontend_llama31_8b_console.txt"
ALL = [JSON, CSV, CONSOLE, CONSOLE_2024]
TOOL = "genai-perf"


def parsed(path):
    return g.parse(path.read_text(encoding="utf-8"), path.name)


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_detected_as_genai_perf_only(path):
    assert ingest.detect(path.read_text(encoding="utf-8")) == [TOOL]


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_every_number_kept_or_rejected(path):
    p = parsed(path)
    assert p.cells_read == len(p.table) + len(p.rejected) > 0
    assert set(r.split(" is not")[0] for r in p.rejected["reason"]) <= {f"percentile {q}" for q in ("p25", "p75")}


def test_json_values_lines_and_settings():
    p = parsed(JSON)
    t = p.table
    row = cell(t, "ttft", "mean")
    assert (row["value"], row["unit"], row["line"]) == (184.63779366666665, "ms", 21)
    assert cell(t, "tpot", "p99")["value"] == 2.2631232999999997  # GenAI-Perf "inter_token_latency"
    assert cell(t, "e2el", "max")["value"] == 5922.384083999999
    assert tuple(cell(t, "output_throughput", "value")[["value", "unit"]]) == (44190.56002502682, "tok/s")
    assert tuple(cell(t, "request_throughput", "value")[["value", "unit"]]) == (17.222547659562533, "req/s")
    assert cell(t, "output_token_throughput_per_user", "mean")["unit"] == "tok/s/user"
    assert set(t["model"]) == {"ensemble"} and set(t["max_concurrency"]) == {100}
    assert t["num_prompts"].isna().all()  # request_count 0: the run lasted the measurement interval
    assert t["request_rate"].isna().all()
    assert "streaming=True" in t["metadata"].iat[0]
    assert p.cells_read == 62 and len(p.rejected) == 0  # p25 and p75 of six metrics keep their ranks
    assert (t["statistic"] == "p25").sum() == (t["statistic"] == "p75").sum() == 6


def test_csv_quoted_thousands_and_once_per_run_section():
    p = parsed(CSV)
    t = p.table
    assert cell(t, "ttft", "mean")["value"] == 32688.40  # written "32,688.40"
    assert cell(t, "e2el", "max")["value"] == 102848.43
    assert (cell(t, "e2el", "mean")["line"], cell(t, "completed", "count")["line"]) == (4, 12)
    assert cell(t, "completed", "count")[["value", "unit"]].tolist() == [353.0, "req"]
    assert cell(t, "request_throughput", "value")["unit"] == "req/s"
    assert cell(t, "output_throughput", "value")[["value", "unit"]].tolist() == [410.43, "tok/s"]
    assert p.cells_read == 57


def test_console_after_perf_analyzer_lines():
    p = parsed(CONSOLE)
    t = p.table
    row = cell(t, "ttft", "mean")
    assert (row["value"], row["line"]) == (1193.02, 35)
    assert cell(t, "input_sequence_length", "mean")["value"] == 3999.86
    assert cell(t, "completed", "count")["value"] == 7
    assert set(t["model"]) == {"Qwen/Qwen3-14B"} and set(t["max_concurrency"]) == {1}
    assert set(t["run"]) == {"c=1"}
    assert "perf_analyzer's own lines" in p.messages[0]
    assert 0.194439 not in set(t["value"])  # perf_analyzer's infer/sec is not a GenAI-Perf number


def test_2024_console_lower_case_labels_without_units():
    t = parsed(CONSOLE_2024).table
    assert cell(t, "ttft", "p99")["value"] == 76.13
    assert cell(t, "output_sequence_length", "mean")[["value", "unit"]].tolist() == [15.96, "tok"]
    assert cell(t, "output_throughput", "value")["unit"] == "tok/s"  # "(per sec)" of tokens
    assert cell(t, "request_throughput", "value")["unit"] == "req/s"  # "(per sec)" of requests
    assert set(t["model"]) == {"llama-3.1-8b-instruct"} and set(t["max_concurrency"]) == {1}
    assert "completed" not in set(t["metric"])  # this version printed no request count


def test_serving_contract():
    assert TOOL in ingest.SERVING_TOOLS
    assert ingest.tools()[TOOL].settings == ingest.tools()["vllm-bench-serve"].settings
    vllm_units = {m: d.split(":")[0] for m, d in vllm_serve.METRICS.items()}
    for path in ALL:
        t = parsed(path).table
        for metric, unit in t.groupby("metric")["unit"].first().items():
            if metric in vllm_units:
                assert unit == vllm_units[metric], (path.name, metric)


TABLE = (
    "                NVIDIA GenAI-Perf | LLM Metrics\n"
    "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━┳━━━━━━┳━━━━━━┳━━━━━━┓\n"
    "┃                        Statistic ┃  avg ┃  min ┃  max ┃  p75 ┃\n"
    "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━╇━━━━━━╇━━━━━━╇━━━━━━┩\n"
    "│          Inter token latency (ms) │ 11.… │ 10.… │ 12.00│ 11.… │\n"
    "│ Output Token Throughput Per User │ 55.67│ 55.61│ 55.71│ 55.69│\n"
    "│                (tokens/sec/user) │      │      │      │      │\n"
    "│     Request Count (count) │ {count} │  N/A │  N/A │  N/A │\n"
    "└──────────────────────────────────┴──────┴──────┴──────┴──────┘\n"
)


def test_console_wrapped_label_and_cut_cells():
    """Synthetic, in the layout of GenAI-Perf's own console test (cells cut to `11.…` by a narrow
    terminal) and of the ai-dynamo README's wrapped "(tokens/sec/user)" label."""
    p = g.parse(TABLE.format(count="7.00"), "t.txt")
    t = p.table
    assert cell(t, "output_token_throughput_per_user", "mean")[["value", "unit", "line"]].tolist() == [
        55.67,
        "tok/s/user",
        6,
    ]
    assert cell(t, "tpot", "max")["value"] == 12.0
    assert list(p.rejected["reason"]).count("cut short by the console width") == 3
    assert p.cells_read == len(t) + len(p.rejected) == 9
    assert p.messages == []


def test_every_request_failed_is_reported_not_divided():
    """Synthetic: a request count of 0 is said; 7 is not (the rule the other way)."""
    p = g.parse(TABLE.format(count="0.00"), "t.txt")
    assert cell(p.table, "completed", "count")["value"] == 0
    assert p.messages == ["t.txt: " + g.ALL_FAILED + " (request count 0.0)"]
    csv = "Metric,avg,min,max,p99,p95,p90,p75,p50,p25\n\nMetric,Value\nRequest Throughput (per sec),0.00\n"
    assert g.parse(csv, "f.csv").messages == ["f.csv: " + g.ALL_FAILED + " (request count not printed)"]


def test_unknown_csv_section_is_rejected_not_read():
    text = CSV.read_text() + '\nMetric,GPU,avg,min,max\nGPU Power Usage (W),0,"1,350.50",300.00,400.00\n'
    p = g.parse(text, "x.csv")
    kinds = p.rejected["reason"].str.split(" \\(").str[0].value_counts()
    assert kinds["table not read"] == 4 and p.cells_read == 61  # the GPU index 0 too: nothing read there
    assert 1350.5 not in set(p.table["value"])


def test_aiperf_exports_stay_aiperf():
    for name in ("example_run1_profile_export_aiperf.json", "example_run1_profile_export_aiperf.csv"):
        assert ingest.detect((config.FIXTURES_DIR / "aiperf" / name).read_bytes().decode()) == ["aiperf"]


@pytest.mark.parametrize("text", ["", "{", "[]", '{"a": 1}', "hello\n", "Metric,avg,min,max,p99,p90\nx,fast\n"])
def test_bad_input_raises_parse_error_or_rejects(text):
    try:
        p = g.parse(text, "bad")
    except ParseError:
        return
    assert len(p.table) == 0 and len(p.rejected) == p.cells_read > 0


def test_cli_writes_the_printed_numbers(tmp_path):
    from typer.testing import CliRunner

    from benchbook.cli import app

    out = tmp_path / "out.csv"
    res = CliRunner().invoke(app, ["ingest", str(CONSOLE), "-o", str(out)])
    assert res.exit_code == 0, res.output
    df = pd.read_csv(out)
    assert 1193.02 in set(df["value"]) and set(df["tool"]) == {TOOL}


def test_serving_saturation_reads_every_form():
    """One run per file, with its load and throughput (an export with no duration is still a run)."""
    from benchbook.analysis import serving

    r, _ = serving.load([CONSOLE, JSON, CSV, CONSOLE_2024])
    assert list(r["output_throughput"]) == [44.63, 44190.56002502682, 410.43, 45.84]
    assert list(r["max_concurrency"].fillna(-1)) == [1, 100, -1, 1]
    assert r["ttft_mean"].tolist() == [1193.02, 184.63779366666665, 32688.40, 71.66]


def _runs(path):
    t = ingest.read(path, tool=TOOL)
    return t.groupby("run", sort=False)[["model", "max_concurrency", "request_rate"]].first()


def test_each_table_is_its_own_run_with_the_command_nearest_above_it():
    # perf_analyzer's tutorial: four servers, four `genai-perf profile` commands, four tables
    runs = _runs(FIX / "perf_analyzer_docs_tutorial.md")
    assert list(runs.index) == ["c=1", "c=1 #2", "c=1 #3", "c=1 #4"]
    assert list(runs["model"]) == ["gpt2", "gpt2", "HuggingFaceH4/zephyr-7b-beta", "gpt2"]
    t = ingest.read(FIX / "perf_analyzer_docs_tutorial.md", tool=TOOL)
    out = t[t["metric"] == "output_throughput"].set_index("run")["value"]
    assert len(out) == 4 and out.is_unique  # each server's own throughput, none set aside as a conflict


def test_a_command_without_a_load_option_ran_at_genai_perfs_default_concurrency_of_one():
    runs = _runs(FIX / "perf_analyzer_docs_dynamo.md")  # `-m` on a continuation line of a wrapped command
    assert set(runs["model"]) == {"deepseek-ai/DeepSeek-R1-Distill-Llama-8B"}
    assert set(runs["max_concurrency"]) == {1}
    lora = _runs(FIX / "perf_analyzer_docs_lora.md")  # only the third command sets --concurrency=128
    assert list(lora["max_concurrency"]) == [1, 1, 128]
    assert lora["model"].iloc[0] == "adapter1, adapter2"  # `-m` takes several models
    assert set(_runs(FIX / "perf_analyzer_docs_multi_turn.md")["max_concurrency"]) == {2}  # --session-concurrency


def test_a_table_with_no_command_above_it_keeps_its_load_unknown(tmp_path):
    table = (FIX / "perf_analyzer_docs_huggingface_tgi.md").read_text(encoding="utf-8")
    console = table[table.index("                                        NVIDIA GenAI-Perf") :]
    p = tmp_path / "console.txt"
    p.write_text(console)
    runs = _runs(p)
    assert runs["max_concurrency"].isna().all() and runs["model"].isna().all()  # no command: not looked up
    p.write_text("genai-perf profile -m m --request-rate 4\n" + console)
    runs = _runs(p)
    assert runs["max_concurrency"].isna().all() and set(runs["request_rate"]) == {4}  # a rate, not the default


def test_tables_whose_commands_aim_at_different_servers_are_different_deployments():
    t = ingest.read(FIX / "perf_analyzer_docs_tutorial.md", tool=TOOL)
    meta = t.groupby("run", sort=False)["metadata"].first()
    assert [m.split("deployment=")[1] for m in meta] == [
        "backend tensorrtllm",
        "backend vllm",
        "endpoint-type chat",
        "endpoint-type completions",
    ]
    # the command is kept whole: its --goodput states the SLOs behind the tool's goodput row
    goodput = ingest.read(FIX / "perf_analyzer_docs_goodput.md", tool=TOOL)
    assert "--goodput time_to_first_token:75 inter_token_latency:19.75" in goodput["metadata"].iloc[0]
    # one command, one server: no deployment to tell apart
    single = ingest.read(FIX / "perf_analyzer_docs_multi_turn.md", tool=TOOL)
    assert not single["metadata"].str.contains("deployment=").any()


def test_the_csv_export_quoted_below_other_text_is_read_from_its_header_to_the_fence():
    """A write-up or a log that quotes profile_export_genai_perf.csv: the export starts at its header
    line (`Metric,avg,min,max,p99,...`, csv_exporter.py) wherever it stands and ends at the closing
    fence; its cells keep the lines of the page, and the text around it is not read."""
    export = CSV.read_text().replace("\r\n", "\n")
    prose = "# Results\n\nWe ran 3 nodes, 8 GPUs each, at 144 users:\n\n```\n"
    text = prose + export + "```\n\nThe p99 of 2,000 ms was 5 times the median.\n"
    assert ingest.detect(text) == ["genai-perf"]
    quoted = g.parse(text, "quoted.md").table
    whole = g.parse(export, "whole.csv").table
    shift = prose.count("\n")
    assert list(quoted["value"]) == list(whole["value"])
    assert list(quoted["line"]) == [ln + shift for ln in whole["line"]]
    # the header named in a sentence, not alone on its line, is no export
    assert "genai-perf" not in ingest.detect("The columns are Metric,avg,min,max,p99,p90 in the CSV.\n1,2\n")


def test_the_cloudai_page_quoting_the_export_is_read():
    path = FIX / "cloudai_dynamo_llama31_405b_fp8_prefill_node_profile_csv.md"
    t = ingest.read(path)
    assert cell(t, "ttft", "p99")["value"] == 3457.97 and cell(t, "ttft", "p99")["line"] == 71
    assert cell(t, "completed", "count")["value"] == 40.0


def test_the_csv_export_records_no_load_so_none_is_said_absent():
    """GenAI-Perf runs at a concurrency (default 1) or a request rate, and its CSV export writes the
    metrics alone: the CSV form carries neither setting (nor the model), the JSON export's
    `input_config` does, and the console's command line may."""
    assert ingest.carries("genai-perf", "csv", "max_concurrency") is False
    assert ingest.carries("genai-perf", "csv", "request_rate") is False
    assert ingest.carries("genai-perf", "csv", "ttft") is True
    assert ingest.carries("genai-perf", "json", "max_concurrency") is None  # declares nothing: may be stated
    assert set(ingest.read(CSV)["format"]) == {"csv"}


LEGACY = FIX / "ai_on_eks_triton_trtllm_llama32_1b_c20_osl5_legacy_console.md"
#: The legacy console's table with the rows and lines of another layout changed, as each test says.
LEGACY_TABLE = """\
                                  LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┓
┃              Statistic ┃    avg ┃    min ┃    max ┃    p99 ┃    p90 ┃    p75 ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━┩
│   Request latency (ms) │  39.07 │  34.59 │  61.88 │  44.13 │  43.30 │  42.79 │
└────────────────────────┴────────┴────────┴────────┴────────┴────────┴────────┘
"""


def test_the_legacy_console_reads_its_table_and_the_throughput_lines_after_it():
    p = parsed(LEGACY)
    t = p.table
    assert ingest.detect(LEGACY.read_text(encoding="utf-8")) == [TOOL]
    assert p.cells_read == len(t) == 20 and p.rejected.empty
    assert cell(t, "e2el", "p75")[["value", "unit", "line"]].tolist() == [42.79, "ms", 36]
    assert cell(t, "output_throughput", "value")[["value", "unit", "line"]].tolist() == [2548.18, "tok/s", 40]
    assert cell(t, "request_throughput", "value")[["value", "unit", "line"]].tolist() == [509.64, "req/s", 41]
    assert set(t["model"]) == {"ensemble"} and set(t["run"]) == {"c=20"}
    assert "ttft" not in set(t["metric"])  # not streamed: GenAI-Perf left TTFT (= request latency) out


def test_a_per_sec_line_not_right_after_the_legacy_table_is_not_read():
    text = LEGACY_TABLE + "\nsome other log line\nRequest throughput (per sec): 9.99\n"
    t = g.parse(text, "x").table
    assert set(t["metric"]) == {"e2el"} and 9.99 not in set(t["value"])


def test_a_bare_llm_metrics_line_without_the_statistic_header_is_not_genai_perf():
    prose = "LLM Metrics\n\n| Statistic | avg |\n|---|---|\n| Request latency (ms) | 39.07 |\n"
    assert "genai-perf" not in ingest.detect(prose)
    other_header = LEGACY_TABLE.replace("┃              Statistic ┃", "┃                 Metric ┃")
    assert "genai-perf" not in ingest.detect(other_header)


def test_a_table_pasted_without_its_title_is_read_from_its_statistic_header():
    # ai-dynamo/dynamo#2552 pastes from the `┃ Statistic ┃ avg ┃` row on, and the copy ends before └
    bare = "\n".join(LEGACY_TABLE.splitlines()[2:]) + "\n"
    assert ingest.detect(bare) == [TOOL]
    assert cell(g.parse(bare, "x").table, "e2el", "p75")["value"] == 42.79
    cut = "\n".join(LEGACY_TABLE.splitlines()[2:-1]) + "\n"  # the last row is the copy's last line
    p = g.parse(cut, "cut")  # closed by its border, each of its cells is whole (`_closed_row`): read
    assert cell(p.table, "e2el", "p75")["value"] == 42.79 and not len(p.rejected)
    inside = cut.rstrip("\n").rsplit("\u2502", 2)[0] + "\n"  # the copy stops inside the row's last cell
    p = g.parse(inside, "cut")
    assert p.table.empty and p.rejected["reason"].str.startswith(core.COPY_ENDS).all()
    # the other way: an AIPerf header (`┃ Metric ┃ avg ┃`) is not GenAI-Perf's
    assert TOOL not in ingest.detect(bare.replace("Statistic", "   Metric"))
