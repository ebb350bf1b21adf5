"""Offline throughput (vLLM bench throughput/latency, MLPerf Offline) in batch_saturation: one point per
run, a batch only where the run set one, the compute against a named device's peak, no knee from one point."""

from __future__ import annotations

import math

import pytest

from benchbook import config, ingest
from benchbook.analysis import batch, peaks
from benchbook.claims import batch as batch_claims
from benchbook.presentation import batch as show

VLLM = config.FIXTURES_DIR / "vllm-bench-offline" / "young_tw_llama31_70b_rocm.md"
OFFLINE = config.FIXTURES_DIR / "mlperf-loadgen" / "amd_mi300x_llama2_70b_offline_summary.txt"
SERVER = config.FIXTURES_DIR / "mlperf-loadgen" / "amd_mi300x_llama2_70b_server_summary.txt"
MODEL = "meta-llama/Llama-3.1-70B-Instruct"


def table(path):
    return ingest.read_all([path])[0]


def test_vllm_runs_throughput_and_latency():
    r = batch.offline_runs(table(VLLM)).set_index("benchmark")
    thr, lat = r.loc["throughput"], r.loc["latency"]
    assert (thr["output_tok_s"], thr["total_tok_s"]) == (1369.41, 2735.5)
    assert math.isnan(thr["batch_size"])  # the engine batches as it goes: no batch setting
    assert (lat["batch_size"], lat["output_len"], lat["latency_s"]) == (8, 128, 5.2564156893700105)
    assert lat["output_tok_s"] == 8 * 128 / 5.2564156893700105


def test_mlperf_offline_only():
    r = batch.offline_runs(table(OFFLINE))
    assert list(r["output_tok_s"]) == [23514.8] and r["model"].tolist() == [""]
    assert batch.offline_runs(table(SERVER)).empty  # a Server run is a serving run, not offline throughput


def test_latency_run_is_one_batch_point_with_its_new_tokens():
    sw = batch.sweep(table(VLLM))
    assert len(sw) == 1 and sw["batch_size"].iat[0] == 8 and sw["new_tokens"].iat[0] == 128
    assert sw["per_sequence_ms_per_token"].iat[0] == pytest.approx(5.2564156893700105 / 128 * 1000)
    pk = peaks.choose("MI300X", [], "A100-SXM4-80GB", 0.0, 0.0)
    rl = batch.step_roofline(sw, {MODEL: 70.55}, pk)
    assert rl["step_s"].iat[0] == pytest.approx(5.2564156893700105 / 128)  # not / 100, the bigcode tool's
    knee = batch.knee(sw).iloc[0]
    assert knee["n_points"] == 1 and not batch_claims.knee(knee).shown  # one batch setting: no knee


def test_hf_sweep_keeps_its_100_new_tokens():
    hf = config.FIXTURES_DIR / "hf-batch-sweep" / "readme_0253839c_bloom.md"
    sw = batch.sweep(table(hf))
    assert set(sw["new_tokens"]) == {100.0} and "vllm" not in set(sw["framework"])


def test_compute_fraction_only_against_a_named_device():
    r = batch.offline_runs(table(VLLM))
    named = peaks.choose("MI300X", [], "A100-SXM4-80GB", 0.0, 0.0)
    pts = batch.offline_points(r, {MODEL: 70.55}, named)
    assert len(pts) == 1 and pts["tokens_counted"].iat[0] == "prompt + output tokens"
    assert pts["achieved_tflops"].iat[0] == pytest.approx(2 * 70.55e9 * 2735.5 / 1e12)
    assert pts["compute_fraction"].iat[0] == pytest.approx(pts["achieved_tflops"].iat[0] / named.peak_tflops("bf16"))
    assumed = peaks.choose("", [], "A100-SXM4-80GB", 0.0, 0.0)
    assert math.isnan(batch.offline_points(r, {MODEL: 70.55}, assumed)["compute_fraction"].iat[0])
    assert "only assumed" in show.offline_sentence(batch.offline_points(r, {MODEL: 70.55}, assumed), assumed)


def test_beyond_one_device_is_not_a_result():
    """MLPerf's 8-GPU system against one GPU's peak: said as not a result, not as a fraction."""
    r = batch.offline_runs(table(OFFLINE))
    pk = peaks.choose("MI300X", [], "A100-SXM4-80GB", 0.0, 0.0)
    pts = batch.offline_points(r, {"": 68.98}, pk)
    assert pts["compute_fraction"].iat[0] > 1
    assert pts["tokens_counted"].iat[0].startswith("output tokens only")
    assert "not a result" in show.offline_sentence(pts, pk)
    unknown = batch.offline_points(r, {}, pk)  # no model size: no compute at all
    assert "pass params_b" in show.offline_sentence(unknown, pk)
