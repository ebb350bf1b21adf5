"""GuideLLM 0.2 console tables (Benchmarks Info / Benchmarks Stats), read for `guidellm`: the
strategies as load settings, request latency read as seconds whatever its header says, GuideLLM's
ITL kept as TPOT and its 0.2 TPOT set aside, incomplete + errored counted as failed, and the
all-zero rows of benchmarks where nothing completed set aside."""

from __future__ import annotations

import math

import pytest
from conftest import cell

from benchbook import config, ingest
from benchbook.ingest import ParseError
from benchbook.ingest import guidellm as g

FIX = config.FIXTURES_DIR / "guidellm"
SWEEP = FIX / "deepseek_v25_sweep_no_ib_console_v02.txt"
STATS = FIX / "qwen25_1p5b_ollama_concurrent_stats_v02.txt"


def parsed(path):
    return ingest.read_parsed(path, tool="guidellm")[0]


def val(df, metric, statistic, run=None):
    """The value of the one row of `metric` at `statistic` (of `run`, when given)."""
    return cell(df if run is None else df[df["run"] == run], metric, statistic)["value"]


@pytest.mark.parametrize("path", [SWEEP, STATS], ids=lambda p: p.name)
def test_detected_as_guidellm_only(path):
    assert ingest.detect(path.read_text()) == ["guidellm"]


def test_sweep_strategies_as_load_settings():
    t = parsed(SWEEP).table
    runs = list(dict.fromkeys(t["run"]))
    assert runs[:3] == ["synchronous", "throughput", "constant@0.99"] and len(runs) == 10
    first = t.drop_duplicates("run").set_index("run")
    assert first.loc["synchronous", "max_concurrency"] == 1.0 and first.loc["synchronous", "request_rate"] == math.inf
    assert (
        math.isnan(first.loc["throughput", "max_concurrency"]) and first.loc["throughput", "request_rate"] == math.inf
    )
    assert first.loc["constant@0.99", "request_rate"] == 0.99
    assert set(t["model"]) == {"deepseek-ai/DeepSeek-V2.5"}
    assert set(t["dataset"]) == {"prompt_tokens=256,output_tokens=128"}


def test_request_latency_is_seconds_even_under_an_ms_header():
    """0.2.1 prints `Req Latency (ms)` over values in seconds: 25.01 for 128 tokens at 195 ms each."""
    t = parsed(SWEEP).table
    assert val(t, run="synchronous", metric="e2el", statistic="mean") == 25010.0
    assert val(parsed(STATS).table, run="concurrent@8", metric="e2el", statistic="mean") == 5480.0


def test_itl_is_tpot_and_the_02_tpot_is_set_aside():
    p = parsed(SWEEP)
    assert val(p.table, run="synchronous", metric="tpot", statistic="mean") == 194.7
    assert "normalized_time_per_output_token" not in set(p.table["metric"])
    tpot = p.rejected[p.rejected["text"].str.contains("TPOT")]
    assert len(tpot) == 10 * 3 and tpot["reason"].str.contains("no tidy name").all()


def test_counts_and_failed_requests():
    t = parsed(SWEEP).table
    assert val(t, run="throughput", metric="completed", statistic="count") == 224
    assert val(t, run="throughput", metric="failed", statistic="count") == 512  # incomplete + errored
    assert t.loc[t["metric"] == "completed", "value"].sum() == 304
    assert t.loc[t["metric"] == "failed", "value"].sum() == 1483
    text = SWEEP.read_text().replace("|   224|  512|    0|", "|   224|  512|    7|")
    assert val(g.parse(text, "x.txt").table, run="throughput", metric="failed", statistic="count") == 519


def test_benchmarks_where_nothing_completed():
    """constant@5.71 and above: 0 completed; GuideLLM's 0.0 latencies are empty distributions."""
    p = parsed(SWEEP)
    t = p.table[p.table["run"] == "constant@5.71"]
    assert set(t["metric"]) >= {"completed", "failed", "request_throughput"}
    assert not {"e2el", "ttft", "tpot", "concurrency", "input_sequence_length"} & set(t["metric"])
    assert val(p.table, run="constant@5.71", metric="request_throughput", statistic="value") == 0.0
    assert any("constant@5.71: no request completed" in m for m in p.messages)


def test_stats_table_alone():
    t = parsed(STATS).table
    assert "completed" not in set(t["metric"]) and t["model"].isna().all()
    assert val(t, run="concurrent@8", metric="concurrency", statistic="mean") == 2.42
    assert t.drop_duplicates("run").set_index("run").loc["concurrent@8", "max_concurrency"] == 8.0


@pytest.mark.parametrize("path", [SWEEP, STATS], ids=lambda p: p.name)
def test_every_cell_is_kept_or_rejected(path):
    p = parsed(path)
    assert p.cells_read == len(p.table) + len(p.rejected) and p.cells_read > 0


def test_a_table_without_its_rule_is_one_sentence_naming_the_file():
    lines = STATS.read_text().splitlines()
    broken = "\n".join(line for line in lines if not line.startswith("----"))
    with pytest.raises(ParseError) as err:
        g.parse(broken, "run.log")
    assert str(err.value).startswith("run.log:5: ") and "\n" not in str(err.value)


WRAPPED = (
    "Benchmarks Info:\n" + "=" * 80 + "\n"
    "      Benchmark| Start Time| End Time| Duration (s)|  Comp|  Inc| Err|  Comp|   \n"
    "Inc|   Err\n"
    "---------------|-----------|---------|-------------|------|-----|----|------|---\n"
    "---|------\n"
    "    synchronous|   20:46:40| 20:51:40|        300.0|   231|    1|   0| 956.8|   \n"
)


def test_a_table_wrapped_at_a_narrow_terminal_is_refused_naming_its_rule():
    assert ingest.detect(WRAPPED) == ["guidellm"]
    with pytest.raises(ParseError, match=r":5: GuideLLM 0.2's table captured at a terminal narrower than its rows"):
        g.parse(WRAPPED, "t.txt")
    # the other way: a whole console (the rule on one line) is read as before
    assert parsed(SWEEP).table.size
    assert g.guidellm_console_v02.wrapped(SWEEP.read_text(encoding="utf-8").splitlines()) is None
