"""TensorRT-LLM's static-batch lines in batch_saturation: each line one batch of a latency run (its
printed rate, the engine's precision, world_size GPUs), a point of the tensorrt-llm series; a run's
printed compute_cap that differs from the compute capability of the device the file names says the
device is not the run's (none is assumed), and one that agrees keeps it."""

from __future__ import annotations

import pytest

from benchbook import hardware, ingest
from benchbook.analysis import batch, roofline

LINE = (
    "[BENCHMARK] model_name llama_7b world_size 1 precision float16 batch_size {b} input_length 128 "
    "output_length 128 tokens_per_sec {t} latency(ms) {ms} compute_cap {cap} quantization QuantMode.FP8_QDQ\n"
)


def _sweep(tmp_path, head: str, cap: str):
    f = tmp_path / "log.md"
    f.write_text(head + LINE.format(b=1, t=100.0, ms=1280.0, cap=cap) + LINE.format(b=8, t=640.0, ms=1600.0, cap=cap))
    df = ingest.read(f)
    return f, batch.offline_runs(df), batch.sweep(df)


def test_each_line_is_a_batch_of_the_tensorrt_llm_series(tmp_path):
    _, runs, sw = _sweep(tmp_path, "", "sm89")
    assert runs["benchmark"].tolist() == ["latency", "latency"] and runs["output_tok_s"].tolist() == [100.0, 640.0]
    assert set(runs["precision"]) == {"fp8"} and set(runs["devices"]) == {1.0}
    assert set(sw["framework"]) == {"tensorrt-llm"} and sw["batch_size"].tolist() == [1, 8]
    assert sw["per_sequence_ms_per_token"].tolist() == pytest.approx([10.0, 12.5])


def test_a_compute_cap_of_another_architecture_is_not_the_named_device(tmp_path):
    f, _, sw = _sweep(tmp_path, "GPU : Nvidia L40S\n", "sm80")
    pk, found = batch.device("", sw, [f.read_text()])
    assert pk is None and found.device is None and found.architecture[1:] == ("sm89", "sm80", 2)
    assert roofline.said(found)["device_arch_cap_line"] == 2
    f, _, sw = _sweep(tmp_path, "GPU : Nvidia L40S\n", "sm89")
    pk, found = batch.device("", sw, [f.read_text()])
    assert pk is not None and pk.device == "L40S-48GB" and not found.architecture


def test_the_compute_capability_of_table_rows():
    assert hardware.compute_capability("L40S-48GB") == "sm89" and hardware.compute_capability("A10-24GB") == "sm86"
    assert hardware.compute_capability("RTX-4080") == "sm89"  # Ada, as the RTX 4090
    assert hardware.compute_capability("A100-SXM4-80GB") == "sm80" and hardware.compute_capability("MI300X") is None
