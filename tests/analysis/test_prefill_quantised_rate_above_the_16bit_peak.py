"""llama.cpp multiplies quantised weights by int8-quantised activations for a prompt on CUDA, ROCm, Vulkan
and SYCL (MMQ, `mul_mmq`), so a quantised model's prompt rate may exceed the GPU's 16-bit peak: such a rate
is measured against the int8 peak, not called "not a result". An F16 model, a Metal run, a rate within the
16-bit peak, or one above the int8 peak too, keep the 16-bit peak (the last is then beyond physics)."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook import ingest
from benchbook.analysis import prefill
from benchbook.claims import bandwidth as claims

HEAD = "| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |\n"


def _points(tmp_path, model="llama 8B Q4_0", backend="Vulkan", ts="4753.45 ± 23.50", gpu="RTX-3090"):
    path = tmp_path / "t.md"
    path.write_text(HEAD + f"| {model} | 4.33 GiB | 8.03 B | {backend} | 99 | pp512 | {ts} |\n", encoding="utf-8")
    return prefill.points(prefill.prompt_rows(ingest.read(path, tool="llama-bench")), gpu=gpu)


def test_a_quantised_rate_above_the_16bit_peak_is_a_share_of_the_int8_peak(tmp_path):
    p = _points(tmp_path).iloc[0]  # 2 x 8.03e9 x 4753.45 = 76.3 TFLOP/s > the 3090's 71
    assert p["peak_precision"] == "int8" and p["peak_tflops"] == 284
    assert p["share"] == pytest.approx(76.34 / 284, rel=1e-3)
    assert claims.prefill(p, "pp_1").status == "shown"


@pytest.mark.parametrize(
    ("model", "backend", "ts"),
    [
        ("llama 8B F16", "Vulkan", "4753.45 ± 23.50"),  # no quantised weights: no int8 kernel
        ("llama 8B Q4_0", "Metal", "4753.45 ± 23.50"),  # Metal dequantises to 16 bits
        ("llama 8B Q4_0", "Vulkan", "2178.92 ± 2.51"),  # within the 16-bit peak: nothing to explain
    ],
)
def test_otherwise_the_16bit_peak_stays(tmp_path, model, backend, ts):
    p = _points(tmp_path, model=model, backend=backend, ts=ts).iloc[0]
    assert p["peak_precision"] == "16-bit" and p["peak_tflops"] == 71


def test_a_rate_above_the_int8_peak_too_is_still_beyond_physics(tmp_path):
    p = _points(tmp_path, ts="20000.00 ± 1.00").iloc[0]  # 321 TFLOP/s
    assert p["peak_precision"] == "16-bit" and claims.prefill(p, "pp_1").status == "implausible"


def test_a_quantised_file_name_counts_as_quantised():
    row = {"model": "llama 8B", "mode": "gpu", "backend": "CUDA"}
    assert prefill.int8_kernels(pd.Series({**row, "model_file": "Llama-3-8B-Q4_K_M.gguf"}))
    assert not prefill.int8_kernels(pd.Series({**row, "model_file": "llama-3-8b-f16.gguf"}))


def test_a_model_llama_cpp_does_not_size_stays_beyond_physics(tmp_path):
    # `laguna ?B`: a type llama.cpp does not know (an MoE counted whole), so nothing says it is dense
    p = _points(tmp_path, model="laguna ?B Q8_0").iloc[0]
    assert p["peak_precision"] == "16-bit" and claims.prefill(p, "pp_1").status == "implausible"


def test_a_run_over_several_listed_gpus_stays_beyond_physics(tmp_path):
    path = tmp_path / "t.md"
    listing = "ggml_vulkan: Found 2 Vulkan devices:\nggml_vulkan: 0 = NVIDIA GeForce RTX 3090 (NVIDIA)\nggml_vulkan: 1 = NVIDIA GeForce RTX 3090 (NVIDIA)\n"
    row = "| llama 8B Q4_0 | 4.33 GiB | 8.03 B | Vulkan | 99 | pp512 | 4753.45 ± 23.50 |\n"
    path.write_text(listing + HEAD + row, encoding="utf-8")
    p = prefill.points(prefill.prompt_rows(ingest.read(path, tool="llama-bench")), gpu="RTX-3090").iloc[0]
    assert p["peak_precision"] == "16-bit"
