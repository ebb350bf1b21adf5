"""Weight bits from a quantized checkpoint's name (issue #35 class 3): GPTQ quantizes to 2, 3, 4 or 8 bits
(AutoGPTQ's `bits`), and a checkpoint's name says which (`GPTQ-Int8`, `gptq-8bit`); bitsandbytes' `8bit` and
`w8a16` are 8-bit too. A width the name writes gives the bytes per weight the roofline uses; only a bare GPTQ
or AWQ (AutoAWQ's `w_bit` is 4) is read as int4."""

from __future__ import annotations

import pytest

from benchbook.analysis import precision


@pytest.mark.parametrize(
    ("name", "label", "nbytes"),
    [
        ("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8", "int8", 1.0),
        ("btbtyler09/cogito-v1-preview-qwen-32B-gptq-8bit", "int8", 1.0),  # the MI100 fixture's two Cogito runs
        ("Cogito v1 Preview Qwen 32B GPTQ 8 bit", "int8", 1.0),  # its heading
        ("TheBloke/Llama-2-13B-GPTQ-3bit", "int3", 3 / 8),
        ("unsloth/llama-3-8b-bnb-8bit", "int8", 1.0),
        ("RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w8a16", "int8 weight-only", 1.0),
        ("Qwen/Qwen3.5-397B-A17B-GPTQ-Int4", "int4", 0.5),
        ("unsloth/llama-3-8b-bnb-4bit", "int4", 0.5),
    ],
)
def test_a_width_the_name_writes_gives_the_bytes_per_weight(name, label, nbytes):
    w = precision.weights(name)
    assert (w.precision, w.bytes_per_weight, w.source) == (label, nbytes, "name")


@pytest.mark.parametrize("name", ["TheBloke/Llama-2-7B-GPTQ", "Qwen/Qwen2.5-32B-Instruct-AWQ"])
def test_a_bare_gptq_or_awq_names_no_width_and_is_int4(name):
    assert precision.weights(name).precision == "int4"
