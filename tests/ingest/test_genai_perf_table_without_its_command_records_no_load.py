"""A GenAI-Perf console table prints metrics alone: its load (a concurrency, 1 by default, or a request rate)
is known only from the command or the perf_analyzer line above it. A table with neither is its own format,
which records no request rate or cap (`Tool.carries`), so a page leaves its load unknown and never takes it
as an all-at-once run (GenAI-Perf has none); a table under its command keeps the command's load."""

from __future__ import annotations

import pandas as pd

from benchbook import ingest
from benchbook.analysis import serving
from benchbook.ingest import genai_perf as g

TABLE = (
    "                NVIDIA GenAI-Perf | LLM Metrics\n"
    "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┓\n"
    "┃                         Statistic ┃    avg ┃    min ┃    max ┃\n"
    "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━┩\n"
    "│          Time to first token (ms) │  16.26 │  12.39 │  17.25 │\n"
    "│              Request latency (ms) │ 499.20 │ 451.01 │ 554.61 │\n"
    "│ Output token throughput (per sec) │ 520.87 │    N/A │    N/A │\n"
    "│      Request throughput (per sec) │   1.99 │    N/A │    N/A │\n"
    "└───────────────────────────────────┴────────┴────────┴────────┘\n"
)


def _runs(text: str) -> pd.DataFrame:
    return serving.runs(g.parse(text, "t.txt").table.assign(source="t.txt"))


def test_a_table_with_no_command_above_records_no_load():
    t = g.parse(TABLE, "t.txt").table
    assert set(t["format"]) == {g.BARE}
    assert ingest.carries("genai-perf", g.BARE, "request_rate") is False
    assert ingest.carries("genai-perf", g.BARE, "max_concurrency") is False
    r = _runs(TABLE)
    assert not r["rate_assumed"].any() and r["request_rate"].isna().all()


def test_a_table_under_its_command_keeps_the_commands_load():
    text = "genai-perf profile -m org/m-8b --concurrency 4 --streaming\n\n" + TABLE
    t = g.parse(text, "t.txt").table
    assert set(t["format"]) == {"text"} and set(t["max_concurrency"]) == {4.0}
    assert ingest.carries("genai-perf", "text", "request_rate") is None  # the command may state it


def test_a_command_with_no_load_option_ran_at_genai_perfs_default_concurrency():
    text = "genai-perf profile -m org/m-8b --streaming\n\n" + TABLE
    t = g.parse(text, "t.txt").table
    assert set(t["format"]) == {"text"} and set(t["max_concurrency"]) == {1.0}
