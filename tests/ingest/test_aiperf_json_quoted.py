"""AIPerf's JSON export quoted in a fenced block of a write-up: read where the block is AIPerf's (its
schema's markers, or top-level metric dicts with AIPerf's request count unit `requests`; GenAI-Perf's
alike export writes `count`); where the copy ends inside the block, the whole members above the cut are
read, the cut line is rejected naming it, and the format carries nothing (no absence is claimed)."""

from __future__ import annotations

import json

import pytest

from benchbook import config, ingest
from benchbook.ingest import aiperf

FIX = config.FIXTURES_DIR / "aiperf"
CUT = FIX / "aiperf_issue340_profile_export_aiperf_json_excerpt_cut.md"

EXPORT = {
    "request_throughput": {"unit": "requests/sec", "avg": 2.5},
    "request_latency": {"unit": "ms", "avg": 400.0, "p50": 390.0, "p99": 480.0},
    "request_count": {"unit": "requests", "avg": 50.0},
}


def _quoted(obj: dict, close: bool = True) -> str:
    body = json.dumps(obj, indent=2)
    return "# A run\n\nThe export:\n\n```json\n" + body + ("\n```\n\nDone.\n" if close else "\n")


def test_the_cut_excerpt_is_aiperf_only():
    assert ingest.detect(CUT.read_text()) == ["aiperf"]


def test_whole_members_above_the_cut_are_read_and_the_cut_line_rejected():
    p = ingest.read_parsed(CUT, tool="aiperf")[0]
    t = p.table.set_index(["metric", "statistic"])
    assert t.loc[("request_throughput", "value"), "value"] == pytest.approx(0.14968841618235815)
    assert t.loc[("completed", "count"), "value"] == 80
    assert t.loc[("e2el", "p99"), "value"] == pytest.approx(6686.540937939999)
    # the metric the copy ends inside: its statistics above the cut are whole
    assert t.loc[("time_to_second_token", "p99"), "value"] == pytest.approx(6.50701575)
    assert ("time_to_second_token", "min") not in t.index
    assert p.rejected["line"].tolist() == [60] and p.rejected["reason"].str.contains("copy ends").all()
    assert set(p.table["format"]) == {aiperf.QUOTED_CUT}
    assert not ingest.carries("aiperf", aiperf.QUOTED_CUT, "failed")


def test_a_whole_quoted_export_keeps_its_lines_and_is_not_called_cut():
    p = aiperf.parse(_quoted(EXPORT), "x.md")
    assert set(p.table["format"]) == {aiperf.JSON_BARE} and p.rejected.empty
    e2el = p.table[(p.table["metric"] == "e2el") & (p.table["statistic"] == "p99")]
    assert e2el["value"].item() == 480.0 and e2el["line"].item() == 15  # its line in the write-up


def test_genai_perfs_alike_export_is_not_aiperfs():
    genai = {**EXPORT, "request_count": {"unit": "count", "avg": 50.0}}
    assert "aiperf" not in ingest.detect(_quoted(genai))
    assert "aiperf" in ingest.detect(_quoted(EXPORT))


def test_a_closed_block_that_is_not_json_is_not_read():
    broken = _quoted(EXPORT).replace('"avg": 400.0,', '"avg": 400.0')
    assert aiperf._fenced(broken) is None
    # the same text with the fence left open where the file ends: a cut copy, read above the cut
    cut = _quoted(EXPORT, close=False).rsplit("\n", 3)[0] + "\n"
    assert aiperf._fenced(cut) is not None
