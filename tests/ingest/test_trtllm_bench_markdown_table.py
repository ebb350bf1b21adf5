"""trtllm-bench reports whose PERFORMANCE OVERVIEW was pasted as a Markdown table, one column per run."""

from __future__ import annotations

import math

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError

FIX = config.FIXTURES_DIR / "trtllm-bench"
PR = FIX / "trtllm_pr9459_nemotron_nano_31b_a3_fp8_tp8_two_branches.md"
HEAD = """==========
= PYTORCH BACKEND
==========
Model:                  some/model
TP Size:                2

=====================
REQUEST DETAILS
=====================
Number of requests:             64

=====================
PERFORMANCE OVERVIEW {title}
=====================

-- | -- | --
Request Throughput (req/sec): |  1.50 | 2.00
Total Output Throughput (tokens/sec): | 100.0 | 120.0
"""


def _at(df, run, metric):
    hit = df[(df["run"] == run) & (df["metric"] == metric)]
    assert len(hit) == 1, (run, metric, len(hit))
    return hit.iloc[0]


def test_each_column_of_the_pull_requests_table_is_a_run_named_by_the_title():
    df = ingest.read(PR)
    assert list(dict.fromkeys(df["run"])) == ["main", "ep+tp branch"]
    assert _at(df, "main", "request_throughput")["value"] == 0.9765
    assert _at(df, "ep+tp branch", "request_throughput")["value"] == 0.9812
    assert _at(df, "ep+tp branch", "duration")["value"] == pytest.approx(260.9077)  # ms printed, s kept
    assert _at(df, "ep+tp branch", "e2el")["line"] == 42


def test_the_sections_printed_once_are_the_first_columns_numbers_and_both_runs_settings():
    df = ingest.read(PR)
    assert _at(df, "main", "completed")["value"] == 256
    assert not ((df["run"] == "ep+tp branch") & (df["metric"] == "completed")).any()
    assert df.groupby("run")["metadata"].agg(lambda m: all("tp=8" in x for x in m)).all()
    assert (df["request_rate"] == math.inf).all()  # one command, every request issued at once


def test_columns_the_title_does_not_name_are_numbered(tmp_path):
    p = tmp_path / "t.md"
    p.write_text(HEAD.format(title=""), encoding="utf-8")
    df = ingest.read(p)
    assert set(df["run"]) == {"column 1", "column 2"}
    assert _at(df, "column 2", "output_throughput")["value"] == 120.0


def test_a_row_with_another_number_of_values_is_refused_naming_its_line(tmp_path):
    p = tmp_path / "t.md"
    p.write_text(HEAD.format(title="( a / b )") + "Total Latency (ms): | 1000.0\n", encoding="utf-8")
    with pytest.raises(ParseError, match=r"t\.md:19: a PERFORMANCE OVERVIEW table row with 1 values where"):
        ingest.read(p)


def test_the_usual_overview_is_still_one_run(tmp_path):
    p = tmp_path / "t.md"
    text = HEAD.format(title="").replace("-- | -- | --\n", "").replace(": |  1.50 | 2.00", ": 1.50")
    p.write_text(text.replace(": | 100.0 | 120.0", ": 100.0"), encoding="utf-8")
    df = ingest.read(p)
    assert set(df["run"]) == {"report 1"} and _at(df, "report 1", "output_throughput")["value"] == 100.0
