"""Known-answer tests for the batch and power analyses and claims, written against the survivors of a
random mutation sample (issue 19): offline runs of each tool, one series' rows, the flat top, the
sweet spot, the energy runner-up at exactly two limits, and the evidence the claims carry."""

from __future__ import annotations

import math
import os
import tempfile

import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import batch, peaks, power
from benchbook.claims import batch as batch_claims
from benchbook.claims import power as power_claims

VLLM = config.FIXTURES_DIR / "vllm-bench-offline" / "young_tw_llama31_70b_rocm.md"
MLPERF = config.FIXTURES_DIR / "mlperf-loadgen" / "amd_mi300x_llama2_70b_offline_summary.txt"
TRTLLM = config.FIXTURES_DIR / "trtllm-bench" / "trtllm_bench_0.17_throughput_engine.txt"
VLLM_MODEL = "meta-llama/Llama-3.1-70B-Instruct"
VLLM_LATENCY_S = 5.2564156893700105  # `Avg latency` of the fixture's `bench latency` run (batch 8, 128 new tokens)


def _llama_rates() -> pd.DataFrame:
    """A synthetic rate table: pp512 at four limits (flat from 300 W to 250 W, then falling), tg128 at two."""
    spec = [("pp512", "pp_rate", w, m, 5.0) for w, m in ((300, 1000.0), (250, 995.0), (200, 900.0), (150, 600.0))]
    spec += [("tg128", "tg_rate", w, m, 0.5) for w, m in ((300, 50.0), (200, 40.0))]
    rows = []
    for i, (test, metric, w, mean, std) in enumerate(spec):
        for stat, v in (("mean", mean), ("std", std)):
            rows.append(
                dict(model="m", test=test, metric=metric, power_limit_w=float(w), statistic=stat, value=v, line=i + 1)
            )
    df = pd.DataFrame(rows).assign(n_depth=0)
    return power.rate_table(df)


def _hf_sweep() -> pd.DataFrame:
    """A synthetic bigcode sweep of a 7B fp16 model: batch 1 at 40 tok/s (2.5 s per generate of 100 tokens),
    batch 64 at 1280 tok/s (5.0 s)."""
    rows = []
    for bs, thr, lat in ((1, 40.0, 2.5), (64, 1280.0, 5.0)):
        for metric, v in (("throughput", thr), ("latency", lat)):
            rows.append(
                dict(tool="hf-batch-sweep", source="s.md", line=bs, model="m", framework="fw", gpu="H100",
                     batch_size=bs, dtype="fp16", metric=metric, statistic="value", value=v, unit="")
            )  # fmt: skip
    return pd.DataFrame(rows)


def test_metadata_is_split_at_semicolons_only():
    got = batch._metadata("quantization=FP8; max_batch_size=4096; scheduling_policy=Guaranteed No Evict")
    assert got == {"quantization": "FP8", "max_batch_size": "4096", "scheduling_policy": "Guaranteed No Evict"}
    assert batch._metadata(float("nan")) == {}


def test_offline_runs_of_each_tool_from_the_fixtures():
    runs = batch.offline_runs(ingest.read_all([VLLM, MLPERF, TRTLLM])[0])
    assert sorted(runs["tool"]) == ["mlperf-loadgen", "trtllm-bench", "vllm-bench-offline", "vllm-bench-offline"]
    lat = runs[runs["benchmark"] == "latency"].iloc[0]
    assert lat["model"] == VLLM_MODEL and lat["batch_size"] == 8 and lat["output_len"] == 128
    assert lat["output_tok_s"] == pytest.approx(8 * 128 / VLLM_LATENCY_S)
    thr = runs[(runs["tool"] == "vllm-bench-offline") & (runs["benchmark"] == "throughput")].iloc[0]
    assert thr["model"] == VLLM_MODEL and thr["output_tok_s"] == 1369.41
    ml = runs[runs["tool"] == "mlperf-loadgen"].iloc[0]
    assert ml["benchmark"] == "Offline" and ml["output_tok_s"] == 23514.8  # "Tokens per second: 23514.8"
    trt = runs[runs["tool"] == "trtllm-bench"].iloc[0]
    assert trt["max_batch_size"] == 4096 and trt["precision"] == "fp8"  # Max Runtime Batch Size, Quantization


def test_offline_sweep_point_of_the_latency_run():
    w = batch.offline_sweep(batch.offline_runs(ingest.read(VLLM)))
    assert len(w) == 1
    p = w.iloc[0]
    assert p["batch_size"] == 8 and p["framework"] == "vllm"
    assert p["tool_ms_per_token"] == pytest.approx(1000.0 * VLLM_LATENCY_S / (8 * 128))  # 1000 / aggregate tok/s
    assert p["per_sequence_ms_per_token"] == pytest.approx(VLLM_LATENCY_S / 128 * 1000.0)


def test_conflicts_of_an_input_without_a_sweep_is_an_empty_table_the_claim_reads():
    conf = batch.conflicts(ingest.read(VLLM))
    assert conf.empty and list(conf.columns) == ["model", "framework", "gpu", "dtype", "batch_size", "metric"] + [
        "values",
        "lines",
    ]
    c = batch_claims.conflicts(conf, 0)
    assert c.evidence["count"] == 0 and c.status == "withheld"


def test_rows_of_keeps_one_series_measured_rows_only():
    sw = pd.DataFrame(
        {
            "model": ["m", "m", "m", "m"],
            "framework": ["a", "a", "a", "b"],
            "gpu": ["g"] * 4,
            "dtype": ["fp16"] * 4,
            "batch_size": [4, 1, 8, 2],
            "has_result": [True, True, False, True],
        }
    )
    assert batch.rows_of(sw, ("m", "a", "g", "fp16"))["batch_size"].tolist() == [1, 4]
    assert batch.rows_of(sw, ("m", "b", "g", "fp16"))["batch_size"].tolist() == [2]
    assert batch.rows_of(sw, None).empty


def test_flat_top_has_power_and_retention_on_known_rates():
    t = _llama_rates()
    assert power.flat_top(t, "pp512", 0.01)["power_limit_w"].tolist() == [300.0, 250.0]  # 0.5 % then 9.5 %
    assert power.flat_top(t, None, 0.01).empty  # no test quoted: no rows
    assert power.has_power(t)
    assert not power.has_power(t[t["power_limit_w"] == 300.0])  # two tests but one limit
    assert not power.has_power(t.iloc[0:0])
    assert power.retained_at(t, "pp512", 200.0) == pytest.approx(0.9)  # 900 / 1000
    assert power.retained_at(t, "pp512", 100.0) is None


def test_quoted_tests_none_where_a_kind_is_missing():
    t = _llama_rates()
    assert power.quoted_tests(t) == {"pp": "pp512", "tg": "tg128"}
    assert power.quoted_tests(t[t["metric"] == "pp_rate"]) == {"pp": "pp512", "tg": None}


def test_sweet_spot_columns_on_known_rates():
    s = power.sweet_spot(_llama_rates(), 0.95).set_index("test")
    pp = s.loc["pp512"]
    assert (pp["peak"], pp["peak_limit_w"], pp["sweet_limit_w"]) == (1000.0, 300.0, 250.0)  # 995 >= 950 > 900
    assert pp["drop"] == pytest.approx(0.4) and pp["n_limits"] == 4
    assert s.loc["tg128", "peak_limit_w"] == 300.0


def test_load_measured_reads_the_table_and_names_a_file_without_power():
    with tempfile.TemporaryDirectory() as tmp:
        good, bad = os.path.join(tmp, "draw.csv"), os.path.join(tmp, "nodraw.csv")
        with open(good, "w", encoding="utf-8") as fh:
            fh.write("power_limit_w,power_w\n300,287.5\n200,199.0\n")
        with open(bad, "w", encoding="utf-8") as fh:
            fh.write("power_limit_w\n300\n")
        m = power.load_measured(good)
        assert m["power_w"].tolist() == [287.5, 199.0]
        with pytest.raises(ValueError, match=r"nodraw\.csv: .*missing \['power_w'\]"):
            power.load_measured(bad)


def test_energy_runner_up_is_compared_with_exactly_two_limits():
    t = power.energy(_llama_rates())
    claims = {c.id: c for c in power_claims.build(t, power.quoted_tests(t), 0.95, None)}
    ev = claims["energy_runner_up_tg"].evidence
    # tg128: 300 W / 50 tok/s = 6.0 J/tok, 200 W / 40 tok/s = 5.0 J/tok: the cheapest is 200 W, the runner-up 300 W
    assert (ev["a"], ev["b"]) == (pytest.approx(5.0), pytest.approx(6.0))
    assert (ev["a_limit_w"], ev["b_limit_w"]) == (200.0, 300.0)


def test_claims_without_a_series_count_zero_points():
    c = power_claims.sweet_spot(power.sweet_spot(_llama_rates(), 0.95), None, "pp", 0.95)
    assert c.evidence["n_points"] == 0 and c.reason.startswith("0 points")
    k = batch_claims.knee(None)
    assert k.evidence["n_points"] == 0 and k.status == "withheld"


def test_bound_and_compute_evidence_of_a_7b_fp16_sweep():
    pk = peaks.choose("H100-SXM5-80GB", [], "A100-SXM4-80GB", 0.0, 0.0)
    rl = batch.step_roofline(batch.sweep(_hf_sweep()), {"m": 7.0}, pk)
    reg = batch.regimes(rl, ("m", "fw", "H100", "fp16"))
    small = batch_claims.bound("small", reg["small"], pk, 0.5).evidence
    assert small["weight_gb"] == pytest.approx(14.0)  # 7e9 weights x 2 bytes
    assert small["step_ms"] == pytest.approx(25.0) and small["batch_size"] == 1  # 2.5 s / 100 tokens
    large = batch_claims.compute(reg["large"], pk).evidence
    assert large["batch_size"] == 64
    assert large["achieved"] == pytest.approx(2 * 7e9 * 1280.0 / 1e12)


def test_latency_flat_claim_carries_its_rule():
    g = pd.DataFrame({"batch_size": [1, 2, 4, 8], "latency_s": [2.0, 2.1, 2.15, 3.0]})
    c = batch_claims.latency_flat(batch.flat_range(g))
    assert c.evidence["xs"] == [1, 2, 4] and c.status == "shown"
    assert isinstance(c.rule, str) and f"{batch_claims.FLAT_TOLERANCE:.0%}" in c.rule
    assert not math.isnan(c.evidence["high"])
