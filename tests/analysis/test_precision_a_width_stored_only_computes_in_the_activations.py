"""NVFP4 weights where the file says they are stored only (`W4A16_NVFP4`, or vLLM's warning on a GPU
without FP4 units: "Weight-only FP4 compression will be used leveraging the Marlin kernel") keep their
half byte per weight but compute in the activations' 16 bits: the compute roof is the 16-bit peak. A
name's NVFP4 with no such statement stays FP4 throughout."""

from __future__ import annotations

from benchbook.analysis import precision
from benchbook.ingest import context

MODEL = "org/Model-35B-A3B-NVFP4"
WARNING = (
    "- `Your GPU does not have native support for FP4 computation but FP4 quantization is being used. "
    "Weight-only FP4 compression will be used leveraging the Marlin kernel.`"
)


def test_vllms_marlin_fallback_line_states_fp4_weight_only():
    assert [f.value for f in context.read([WARNING]).get("precision")] == ["fp4 weight-only"]


def test_a_names_nvfp4_is_weight_only_where_the_file_says_so_and_fp4_where_it_does_not():
    only = precision.weights(MODEL, stated=("fp4 weight-only",))
    assert only.precision == "fp4 weight-only" and only.bytes_per_weight == 0.5
    assert precision.weights(MODEL, stated=("W4A16_NVFP4",)).precision == "fp4 weight-only"
    assert precision.weights(MODEL).precision == "fp4"
