"""InferenceX's first agentic writer (utils/process_agentic_result.py, April 2026): `users` and `ttlt`."""

from __future__ import annotations

import json

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError, UnknownFormat

FILE = config.FIXTURES_DIR / "inferencex" / "agg_dsr1_fp4_b200_tp4_ep4_agentic_users32_offloadon.json"


def _one(df, metric, statistic):
    hit = df[(df["metric"] == metric) & (df["statistic"] == statistic)]
    assert len(hit) == 1, (metric, statistic, len(hit))
    return hit.iloc[0]


def test_users_is_the_concurrency_and_ttlt_the_request_latency():
    df = ingest.read(FILE)
    assert set(df["tool"]) == {"inferencex"} and set(df["max_concurrency"]) == {32.0}
    e2el = _one(df, "e2el", "mean")
    assert e2el["value"] == pytest.approx(214824.10933722312) and e2el["line"] == 27  # seconds in the file
    assert _one(df, "completed", "count")["value"] == 201 and set(df["num_prompts"]) == {201.0}
    assert "kv_offloading=on" in df["metadata"].iloc[0]


def test_a_number_set_aside_is_named_as_the_file_writes_it():
    df = ingest.read(FILE)
    assert (50, "theoretical_infinite_cache_hit_rate: 0.819371") in [
        (r["line"], r["text"]) for r in df.attrs["rejected"]
    ]


def test_a_later_schema_point_keeps_its_own_names(tmp_path):
    """A point with `conc` is the later schema: its `users`, if any, is no concurrency."""
    point = json.loads(FILE.read_text(encoding="utf-8"))
    point = {"conc": 8, **point}
    p = tmp_path / "later.json"
    p.write_text(json.dumps(point, indent=2), encoding="utf-8")
    df = ingest.read(p)
    assert set(df["max_concurrency"]) == {8.0}
    assert "e2el" not in set(df["metric"])  # ttlt is not a later-schema name: set aside
    assert any(r["text"].startswith("mean_ttlt") for r in df.attrs["rejected"])


def test_users_without_ttlt_is_not_claimed(tmp_path):
    p = tmp_path / "users.json"
    p.write_text(json.dumps({"hw": "b200", "users": 4, "tput_per_gpu": 10.0}), encoding="utf-8")
    with pytest.raises(UnknownFormat):
        ingest.read(p)


def test_a_first_schema_point_without_per_gpu_throughput_is_refused_naming_the_line(tmp_path):
    point = {k: v for k, v in json.loads(FILE.read_text(encoding="utf-8")).items() if k != "tput_per_gpu"}
    p = tmp_path / "cut.json"
    p.write_text(json.dumps(point, indent=2), encoding="utf-8")
    with pytest.raises(ParseError, match=r"cut\.json:2: the point: an InferenceX result needs numbers conc and"):
        ingest.read(p, tool="inferencex")
