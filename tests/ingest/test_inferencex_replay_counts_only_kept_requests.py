"""InferenceX's processor of AIPerf's trace replay (`utils/process_agentic_result.py` from 2026-05-15,
QPS statistics `p75_qps`/`p95_qps`) drops every request with an error and writes the one count left as
both `num_requests_total` and `num_requests_successful`: the requests sent, and so the failed ones, are
not in the file. The kv-cache-tester version before it (`median_qps`/`p99_qps`) counts every row as the
total, so there the total is the requests sent."""

from __future__ import annotations

import json
import math

from conftest import cell

from benchbook import config, ingest
from benchbook.ingest import inferencex as ix

FIX = config.FIXTURES_DIR / "inferencex"
#: The point of a run whose own AIPerf export counts 16 failed requests beside these 25.
CANCELLED = FIX / "kimik25_tp8_conc16_lmcache_fp4_vllm_b200_agentic_cancelled_run_point.json"
ROWS_TOTAL = FIX / "agg_dsr1_fp4_b200_tp4_ep4_agentic_users128_offloadoff.json"


def test_a_replay_point_leaves_the_requests_sent_unknown_and_says_why():
    p = ingest.read_parsed(CANCELLED, tool="inferencex")[0]
    t = p.table
    assert t["num_prompts"].isna().all()
    assert cell(t, "completed", "count")["value"] == 25
    assert not (t["metric"] == "failed").any()
    assert any("counts only the requests kept" in m for m in p.messages)


def test_a_kv_cache_tester_point_keeps_its_total_as_the_requests_sent():
    point = json.loads(ROWS_TOTAL.read_text())
    point = point[0] if isinstance(point, list) else point
    assert not ix.replay_counts_kept(point)
    p = ingest.read_parsed(ROWS_TOTAL, tool="inferencex")[0]
    assert set(p.table["num_prompts"]) == {271.0}


def test_the_rule_reads_the_processor_from_its_qps_statistics():
    replay = {"conc": 4, "num_requests_total": 9, "num_requests_successful": 9, "p75_qps": 1.0, "p95_qps": 2.0}
    legacy = {"conc": 4, "num_requests_total": 9, "num_requests_successful": 9, "median_qps": 1.0, "p99_qps": 2.0}
    assert ix.replay_counts_kept(replay) and not ix.replay_counts_kept(legacy)
    assert math.isnan(ix._sent(replay)) and ix._sent(legacy) == 9.0
