"""A fixed-batch writer's InferenceX rows (DeepSeek-V4 on B300, `disagg: false`, MTP): `observed_tokens_per_step`
(its README: total decode tokens / total decode iterations, per request) is the acceptance length, and a point not
disaggregated whose prefill and decode GPU counts agree spans that many GPUs (one instance does both), so its
per-GPU rates scale to the run's; disaggregated, or with counts that differ, the GPUs stay unknown."""

from __future__ import annotations

import json

import pytest

from benchbook import ingest

POINT = {
    "conc": 16,
    "disagg": False,
    "framework": "trt",
    "hw": "b300",
    "is_multinode": False,
    "isl": 8192,
    "osl": 1025,
    "mean_tpot": 0.0073518437053064585,
    "model": "deepseek-ai/DeepSeek-V4-Pro",
    "num_decode_gpu": 8,
    "num_prefill_gpu": 8,
    "observed_tokens_per_step": 3.001953125,
    "output_tput_per_gpu": 272.04060371365455,
    "precision": "fp4",
    "spec_decoding": "mtp",
    "tput_per_gpu": 272.04060371365455,
}


def _values(tmp_path, **change):
    path = tmp_path / "agg_bmk.json"
    path.write_text(json.dumps([{**POINT, **change}], indent=2), encoding="utf-8")
    df = ingest.read(path)
    return {m: v for m, v in zip(df["metric"], df["value"], strict=True)}


def test_tokens_per_step_is_the_acceptance_length_and_one_instance_spans_its_gpus(tmp_path):
    v = _values(tmp_path)
    assert v["spec_decode_acceptance_length"] == pytest.approx(3.001953125)
    assert v["output_throughput"] == pytest.approx(272.04060371365455 * 8)


@pytest.mark.parametrize("change", [{"disagg": True}, {"num_prefill_gpu": 4}])
def test_a_disaggregated_point_or_counts_that_differ_leave_the_gpus_unknown(tmp_path, change):
    v = _values(tmp_path, **change)
    assert "output_throughput" not in v and v["output_throughput_per_gpu"] == pytest.approx(272.04060371365455)


def test_a_point_without_tokens_per_step_has_no_acceptance_length(tmp_path):
    v = _values(tmp_path, observed_tokens_per_step=None)
    assert "spec_decode_acceptance_length" not in v
