"""AIPerf prints its Spec Decode (and GPU telemetry, server metrics) tables beside a run's LLM Metrics: they
hold no request throughput or latency. A copy of one of them alone is refused in one sentence naming the
table's title line, not as "no known tool output"; beside an LLM Metrics table nothing is refused."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.ingest import aiperf_console

SPEC = """Reading the output:

                 NVIDIA AIPerf: Spec Decode
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━┳━━━━━━┓
┃                    Metric ┃  avg ┃  min ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━╇━━━━━━┩
│ Acceptance Length (ratio) │ 3.21 │ 1.00 │
└───────────────────────────┴──────┴──────┘
"""
LLM = """            NVIDIA AIPerf | LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━┳━━━━━━━━┓
┃               Metric ┃     avg ┃    min ┃
┡━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━╇━━━━━━━━┩
│ Request Latency (ms) │ 1234.56 │ 987.34 │
└──────────────────────┴─────────┴────────┘
"""


def test_a_spec_decode_table_alone_is_refused_naming_its_title(tmp_path):
    f = tmp_path / "spec.md"
    f.write_text(SPEC)
    with pytest.raises(ingest.ParseError) as err:
        ingest.read(f)
    assert not isinstance(err.value, ingest.UnknownFormat) and err.value.line == 3
    assert "'Spec Decode' table without the LLM Metrics table" in err.value.message


def test_beside_an_llm_metrics_table_nothing_is_refused_and_the_run_is_read(tmp_path):
    assert aiperf_console.refuses(LLM + "\n" + SPEC) is None
    f = tmp_path / "both.md"
    f.write_text(LLM + "\n" + SPEC)
    assert "e2el" in set(ingest.read(f)["metric"])


def test_a_file_with_no_aiperf_table_is_refused_by_nothing():
    assert aiperf_console.refuses("NVIDIA AIPerf is a load generator.\nSee its README.\n") is None
