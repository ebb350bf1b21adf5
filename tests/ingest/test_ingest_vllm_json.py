"""vllm-bench-serve JSON edge cases: list offsets, log lines that look like JSON, NaN, bad arrays."""

from __future__ import annotations

import json
import math

import pytest

from benchbook import config
from benchbook.ingest import ParseError
from benchbook.ingest import vllm_serve as v

FIX = config.FIXTURES_DIR / "vllm-bench-serve"


def _row(t, run, metric, statistic):
    hit = t[(t["run"] == run) & (t["metric"] == metric) & (t["statistic"] == statistic)]
    assert len(hit) == 1, (run, metric, statistic, len(hit))
    return hit.iloc[0]


def test_pretty_printed_list_gives_each_object_its_own_lines():
    objs = [json.loads(x) for x in (FIX / "llmd_results.jsonl").read_text().splitlines()[:2]]
    text = json.dumps(objs, indent=2)
    t = v.parse(text, "list.json").table
    lines = text.split("\n")
    for k, obj in enumerate(objs):
        row = _row(t, f"json {k + 1}", "duration", "value")
        assert row["value"] == obj["duration"]
        assert lines[row["line"] - 1] == f'    "duration": {obj["duration"]},'
    first, second = (_row(t, f"json {k}", "duration", "value")["line"] for k in (1, 2))
    assert second > first + len(objs[0])  # the second object's key, not the first's


def test_log_line_in_brackets_above_a_text_block():
    text = (FIX / "dgx_spark_08_sharegpt.md").read_text()
    plain = v.parse(text, "plain.md").table
    logged = "[2025-05-01 10:00:00] starting benchmark\n" + text
    assert v.sniff(logged)
    t = v.parse(logged, "logged.md").table
    assert len(t) == len(plain) > 0
    assert list(t["value"].fillna(-1)) == list(plain["value"].fillna(-1))
    assert list(t["line"]) == [x + 1 for x in plain["line"]]


def test_json_nan_has_a_note():
    obj = json.loads((FIX / "llmd_results.jsonl").read_text().splitlines()[0])
    text = json.dumps(obj).replace('"mean_ttft_ms": ' + json.dumps(obj["mean_ttft_ms"]), '"mean_ttft_ms": NaN')
    assert "NaN" in text
    row = _row(v.parse(text, "nan.json").table, "json 1", "ttft", "mean")
    assert math.isnan(row["value"]) and row["note"] == "source wrote NaN"


def test_deeply_nested_json_is_a_parse_error():
    with pytest.raises(ParseError, match="nested too deeply"):
        v.parse("[" * 100000 + "]" * 100000, "deep.json")
    assert not v.sniff("[" * 100000 + "]" * 100000)


def _detailed(tmp_path, **change):
    obj = json.loads((FIX / "synthetic_save_detailed.json").read_text())
    obj.update(change)
    f = tmp_path / "detailed.json"
    f.write_text(json.dumps(obj, indent=1))
    return f, obj


def test_requests_string_in_ttfts_is_a_parse_error(tmp_path):
    obj = json.loads((FIX / "synthetic_save_detailed.json").read_text())
    f, _ = _detailed(tmp_path, ttfts=["0.1"] + obj["ttfts"][1:])
    with pytest.raises(ParseError, match=r"ttfts\[0\] is '0.1', not a number") as e:
        v.requests(f)
    assert e.value.source == "detailed.json"
    assert f.read_text().split("\n")[e.value.line - 1].startswith(' "ttfts"')


def test_requests_null_in_itls_is_a_parse_error(tmp_path):
    obj = json.loads((FIX / "synthetic_save_detailed.json").read_text())
    itls = obj["itls"]
    itls[1] = [None] + itls[1][1:]
    f, _ = _detailed(tmp_path, itls=itls)
    with pytest.raises(ParseError, match=r"itls\[1\]\[0\] is None, not a number") as e:
        v.requests(f)
    assert f.read_text().split("\n")[e.value.line - 1].startswith(' "itls"')


def test_a_latency_key_without_ms_is_read_as_seconds_and_one_with_ms_as_printed():
    """InferenceX's copy of the script saves `median_ttft` in seconds (it prints `Median TTFT (s):`);
    vLLM's own `median_ttft_ms` is in ms. Both reach the table in ms, once."""
    base = {"duration": 10.0, "completed": 8, "request_throughput": 0.8, "max_concurrency": 4}
    seconds = v.parse(json.dumps({**base, "median_ttft": 0.25, "p99_e2el": 4.5}), "s.json").table
    assert _row(seconds, "json 1", "ttft", "median")["value"] == pytest.approx(250.0)
    assert _row(seconds, "json 1", "e2el", "p99")["value"] == pytest.approx(4500.0)
    assert _row(seconds, "json 1", "ttft", "median")["unit"] == "ms"
    ms = v.parse(json.dumps({**base, "median_ttft_ms": 0.25}), "ms.json").table
    assert _row(ms, "json 1", "ttft", "median")["value"] == pytest.approx(0.25)


def test_the_token_position_results_keep_their_median_and_p99_latencies():
    parsed = v.parse((FIX / "token_position_slo_glm5_fp8_vllm_tp8_isl1024_osl128_conc8.json").read_text(), "f.json")
    t = parsed.table
    assert parsed.rejected.empty
    got = {(m, s): x for m, s, x in zip(t["metric"], t["statistic"], t["value"], strict=True)}
    assert got[("ttft", "median")] == pytest.approx(263.14436737447977)
    assert got[("tpot", "p99")] == pytest.approx(33.09713848873855)
