"""AIPerf's `OSL Mismatch Diff %` is signed by its definition (metrics/types/osl_mismatch_metrics.py):
(actual OSL - requested OSL) / requested OSL x 100, negative where the output stopped early, above 100
where it ran more than twice as long. Its values are kept under a signed unit, in the CSV and the JSON
alike, whatever their sign; an ordinary percentage beside them is still screened to 0-100 (synthetic
exports, values made up)."""

from __future__ import annotations

import json

from benchbook.ingest import aiperf as a

_CSV = (
    "Metric,avg,min,max,p50,p99,std\n"
    "Request Latency (ms),100.00,90.00,110.00,100.00,109.00,5.00\n"
    "OSL Mismatch Diff % (%),{diff},-98.10,150.00,-73.75,140.00,17.25\n"
    "\n"
    "Metric,Value\n"
    "Request Count,96.00\n"
    "Request Throughput (requests/sec),2.16\n"
    "OSL Mismatch Count,96.00\n"
)


def _osl(t):
    return t[t["metric"] == "osl_mismatch_diff_pct"]


def test_a_negative_or_above_100_mismatch_is_kept_as_a_signed_percentage():
    p = a.parse(_CSV.format(diff="-73.46"), "profile_export_aiperf.csv")
    osl = _osl(p.table)
    assert set(osl["unit"]) == {a.SIGNED_PERCENT_UNIT}
    assert dict(zip(osl["statistic"], osl["value"], strict=True))["mean"] == -73.46
    assert osl["value"].max() == 150.0  # more than twice the requested length
    assert not p.rejected["reason"].astype(str).str.contains("out of physical range").any()


def test_the_json_tag_is_the_csvs_metric_and_unit():
    obj = {
        "osl_mismatch_diff_pct": {"unit": "%", "avg": -12.5, "p50": -10.0},
        "request_count": {"unit": "requests", "avg": 10},
        "request_latency": {"unit": "ms", "avg": 100.0},
    }
    t = a.parse(json.dumps(obj), "profile_export_aiperf.json").table
    assert set(_osl(t)["unit"]) == {a.SIGNED_PERCENT_UNIT} and set(_osl(t)["value"]) == {-12.5, -10.0}


def test_an_unsigned_percentage_is_still_screened():
    text = _CSV.format(diff="-73.46").replace("Request Latency (ms)", "GPU Utilization (%)")
    p = a.parse(text, "profile_export_aiperf.csv")
    util = p.table[p.table["metric"] == "gpu_utilization"]
    assert set(util["unit"]) == {"%"} and util["value"].max() <= 100.0
