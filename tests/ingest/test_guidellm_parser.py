"""guidellm parser: llm-d's published GuideLLM 0.5+ console summaries, spanned header cells,
GuideLLM's ITL read as TPOT, text statistics set aside, the profile's rates as settings."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError
from benchbook.ingest import guidellm as g

FIX = config.FIXTURES_DIR / "guidellm"
QWEN = FIX / "llmd_benchmark_guide_qwen3_32b_rate_comparison_console.txt"
LLAMA = FIX / "llmd_benchmark_run_llama31_8b_sanity_random_console.txt"
TOOL = "guidellm"


def parsed(path):
    return ingest.read_parsed(path, tool=TOOL)[0]


def cell(df, run, metric, statistic):
    hit = df[(df["run"] == run) & (df["metric"] == metric) & (df["statistic"] == statistic)]
    assert len(hit) == 1, (run, metric, statistic, len(hit))
    return hit.iloc[0]


#: The Server Throughput Statistics table alone (vllm-project/guidellm#617).
THROUGHPUT_ALONE = FIX / "guidellm_pr617_server_throughput_statistics_concurrent_25_mean_only.md"


@pytest.mark.parametrize("path", [QWEN, LLAMA, THROUGHPUT_ALONE], ids=lambda p: p.name)
def test_detected_as_guidellm_only(path):
    assert ingest.detect(path.read_text()) == [TOOL]


def test_spans_give_each_column_its_group():
    assert g._spans("| Benchmark | Timings |||| Input Tokens ||") == [
        "Benchmark",
        *["Timings"] * 4,
        *["Input Tokens"] * 2,
    ]


def test_two_benchmarks_with_their_rates_and_model():
    t = parsed(QWEN).table
    assert list(dict.fromkeys(t["run"])) == ["constant 1 req/s", "constant 5 req/s"]
    assert set(t["request_rate"]) == {1.0, 5.0} and t["max_concurrency"].isna().all()
    assert set(t["model"]) == {"Qwen/Qwen3-32B"}
    r5 = "constant 5 req/s"
    assert cell(t, r5, "duration", "value")["value"] == 30.0
    assert cell(t, r5, "total_generated_tokens", "count")["value"] == 7450
    assert cell(t, r5, "ttft", "p95")["value"] == 14.4
    assert cell(t, r5, "tpot", "median")["value"] == 2.2  # GuideLLM's ITL column
    assert cell(t, r5, "normalized_time_per_output_token", "p95")["value"] == 2.6  # GuideLLM's TPOT column
    assert cell(t, r5, "e2el", "median")["value"] == 100.0  # 0.1 s
    assert cell(t, r5, "request_throughput", "value")["value"] == 5.0
    assert cell(t, r5, "concurrency", "mean")["value"] == 0.6
    assert cell(t, r5, "output_throughput", "value")["value"] == 270.7
    assert "itl" not in set(t["metric"])  # no pooled chunk gap is printed


def test_counting_and_reasons():
    p = parsed(QWEN)
    assert p.cells_read == len(p.table) + len(p.rejected)
    kinds = p.rejected["reason"].map(ingest.reason_kind).value_counts()
    assert kinds["text statistics"] == 40  # words, characters, the text table's rates: 10 per row per part
    assert kinds["duplicate row"] == 8  # token counts printed in two tables, kept once
    assert p.rejected["line"].min() > 40  # the setup lines hold no cell


def test_errored_tokens_are_said():
    text = LLAMA.read_text().replace("| 1468.0 | 0.0 | 0.0 |", "| 1468.0 | 0.0 | 12.0 |")
    p = g.parse(text, "x.txt")
    assert any("12 errored input tokens" in m for m in p.messages)


def test_tables_without_numbers_or_tables_refused():
    with pytest.raises(ParseError):
        g.parse("✔ Setup complete, starting benchmarks...\n", "x.txt")


def test_concurrent_and_synchronous_send_at_once():
    """A concurrent stream (and the synchronous one) sends its next request as soon as one completes:
    rate unlimited, the streams as the cap; never a rate left empty for the chapter to assume."""
    text = QWEN.read_text().replace("constant", "concurrent")
    first = g.parse(text, "x.txt").table.drop_duplicates("run").set_index("run")
    assert first.loc["concurrent 5 streams", "max_concurrency"] == 5.0
    assert first.loc["concurrent 5 streams", "request_rate"] == float("inf")
    sync = g.parse(
        QWEN.read_text().replace("'constant'", "'synchronous'").replace("| constant ", "| synchronous "), "x"
    )
    row = sync.table.drop_duplicates("run").iloc[0]
    assert row["max_concurrency"] == 1.0 and row["request_rate"] == float("inf")


def test_the_run_summarys_times_of_day_are_rejected_and_a_latency_in_seconds_keeps_its_printed_value():
    # a 0.4+ console: Start / End are clocks (10:13:04), Request Latency is printed in seconds
    path = FIX / "openshift_workshop_llama31_8b_fp8_concurrent_32_64_env_job.md"
    (p,) = ingest.read_parsed(path)
    clocks = p.rejected[p.rejected["reason"] == g.CLOCK]
    assert sorted(clocks["text"].str.split(": ").str[-1]) == ["10:13:04", "10:13:34", "10:13:45", "10:14:15"]
    t = p.table
    e2el = t[(t["metric"] == "e2el") & (t["statistic"] == "median")].set_index("run")
    assert e2el.loc["concurrent", "value"] == 20400.0 and e2el.loc["concurrent", "note"] == "converted from 20.4 s"
    # a number that is no clock (a duration of 30.0 s) is kept, not rejected as one
    assert (t["metric"] == "duration").sum() == 2 and not clocks["text"].str.contains("30.0").any()


def test_a_kind_of_table_printed_again_starts_the_next_guidellm_run():
    """GuideLLM's console prints each kind of table once per `guidellm benchmark` run: a second
    Request Latency table is another run (its own series), never a repeat of the first's benchmarks;
    one run printing all its kinds (and the two stacked parts of Text Metrics) stays one run."""
    text = QWEN.read_text()
    start = text.index("ℹ Request Latency Statistics")
    end = text.index("ℹ", start + 1)
    latency = text[start:end]
    twice = text + "\n" + latency.replace("| constant  ", "| synchronous")
    t = g.parse(twice, "twice.txt").table
    assert len(t) > len(parsed(QWEN).table) and not t.attrs.get("rejected")
    first, second = (t[t["metadata"].str.contains(f"GuideLLM run {n} ")] for n in (1, 2))
    assert set(first["request_rate"]) == {1.0, 5.0}  # the profile line's rates are the first run's
    assert set(second["run"]) == {"run 2: synchronous", "run 2: synchronous #2"}
    assert set(second["max_concurrency"]) == {1.0}
    once = parsed(QWEN).table
    assert once["metadata"].isna().all() and not once["run"].str.startswith("run ").any()


def test_a_constant_benchmark_whose_rate_the_file_does_not_print_keeps_it_unknown():
    path = FIX / "prod_llm_notes_qwen35_4b_rtx4090_l4_four_latency_tables.md"
    t = parsed(path).table
    assert t["metadata"].nunique() == 4 and len(t) == 320
    constant = t[t["run"].str.contains("constant")]
    assert constant["request_rate"].isna().all() and set(constant["format"]) == {g.UNRATED}
    assert ingest.carries(TOOL, g.UNRATED, "request_rate") is False
    sync = t[t["run"].str.endswith("synchronous")]
    assert set(sync["format"]) == {g.FORMAT} and set(sync["max_concurrency"]) == {1.0}
    # the first table's title is a Markdown list item (`- ℹ ...`) and is read
    assert cell(t, "run 1: synchronous", "e2el", "median")["line"] == 53


def _tables_of(path) -> str:
    """The console tables of a file (from the Run Summary title on), without its setup lines."""
    lines = path.read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if "Run Summary Info" in line)
    return "\n".join(lines[first:])


def test_each_run_under_its_own_heading_is_named_by_it():
    """A write-up that pastes two runs' tables under two headings holds two runs of the same
    strategy, each named with its heading, never one run with conflicting rows; no heading, no name."""
    tables = _tables_of(LLAMA)
    second = tables.replace(
        "| constant  | 1.0 | 1.0  | 0.0   | 0.4  | 50.9  | 52.4  | 3.4   | 49.7 ",
        "| constant  | 2.0 | 2.0  | 0.0   | 0.4  | 50.9  | 52.4  | 3.4   | 99.7 ",
    )
    assert second != tables
    p = g.parse(f"## GB10\n\n{tables}\n\n## GH200\n\n{second}\n", "two.md")
    t = p.table
    first, other = (t[t["metadata"].str.contains(f"GuideLLM run {n} ")] for n in (1, 2))
    assert first["metadata"].str.endswith("under GB10)").all() and other["metadata"].str.endswith("under GH200)").all()
    assert cell(t, "run 1: constant", "output_throughput", "value")["value"] == 49.7
    assert cell(t, "run 2: constant", "output_throughput", "value")["value"] == 99.7
    assert not p.rejected["reason"].str.startswith("conflicting rows").any()
    bare = g.parse(f"{tables}\n\n{second}\n", "bare.md").table
    assert not bare["metadata"].str.contains("under").any()


def test_a_concurrent_benchmark_whose_streams_the_file_does_not_print_is_capped_at_an_unknown_cap():
    """GuideLLM's `concurrent` strategy holds a fixed number of streams (the profile line's `rate=[...]`);
    tables without that line leave the streams unknown: capped all the same, never "no cap"."""
    path = FIX / "rhaii_cpu_4vcpu_qwen25_1p5b_concurrent_2_4_readme_section.md"
    runs = parsed(path).table.drop_duplicates("run")
    assert list(runs["run"]) == ["concurrent", "concurrent #2"] and set(runs["format"]) == {g.UNSTREAMED}
    assert runs["max_concurrency"].isna().all() and set(runs["request_rate"]) == {float("inf")}
    assert ingest.carries(TOOL, g.UNSTREAMED, "max_concurrency") is False
    # the other way: the profile line gives each benchmark's streams, the cap is known
    profile = "strategy_type='concurrent' rate=[2.0, 4.0] strategy_types=['concurrent', 'concurrent']\n"
    known = g.parse(profile + path.read_text(), "x.md").table.drop_duplicates("run")
    assert list(known["max_concurrency"]) == [2.0, 4.0] and set(known["format"]) == {g.FORMAT}


_THROUGHPUT = (
    "ℹ {title}\n"
    "|============|=======|======|=========|\n"
    "| Benchmark  | Requests             |||\n"
    "| Strategy   | Concurrency || Per Sec |\n"
    "|            | Mdn   | Mean | Mean    |\n"
    "|------------|-------|------|---------|\n"
    "| concurrent | 25.0  | 25.0 | 2.3     |\n"
    "|============|=======|======|=========|\n"
)


def test_the_server_throughput_table_pasted_alone_is_read_and_a_table_of_another_tool_is_not():
    alone = _THROUGHPUT.format(title="Server Throughput Statistics (All Requests)")
    assert ingest.detect(alone) == [TOOL]
    t = g.parse(alone, "alone.md").table
    assert cell(t, "concurrent", "request_throughput", "value")["value"] == 2.3
    # the same frame under a title of no console table of GuideLLM's is not its output
    assert TOOL not in ingest.detect(_THROUGHPUT.format(title="Disk Statistics"))
