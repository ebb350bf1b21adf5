"""The bytes per weight the TP chapter's roofline counts are the weights TGI loads: the reader's bytes_per_param
where set, else the table's --quantize, else a quantization tag in the model's name (TGI reads an AWQ or GPTQ
checkpoint's method from its config when --quantize is not given), else 16-bit, said to be assumed (stop 51,
half ay: TGI issue 1452's TheBloke/Llama-2-7B-AWQ was counted at 2 bytes a weight, so its decode read 948 GB/s
per GPU, above an RTX 3090's 936 GB/s)."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import tp


def _w(quantize=None):
    return pd.DataFrame({"quantize": [quantize, quantize]})


def test_an_awq_model_named_so_is_read_at_4_bits():
    w = tp.weights(_w(), "TheBloke/Llama-2-7B-AWQ", tp.DEFAULT_BYTES_PER_PARAM)
    assert (w.precision, w.bytes_per_weight, w.source, w.detail) == ("int4", 0.5, "name", "AWQ")


def test_the_tables_quantize_comes_before_the_name():
    w = tp.weights(_w("bitsandbytes"), "TheBloke/Llama-2-7B-AWQ", tp.DEFAULT_BYTES_PER_PARAM)
    assert (w.precision, w.bytes_per_weight, w.source) == ("int8", 1.0, "output")


def test_the_readers_bytes_per_param_comes_first():
    w = tp.weights(_w("bitsandbytes"), "TheBloke/Llama-2-7B-AWQ", 1.5)
    assert (w.bytes_per_weight, w.source) == (1.5, "parameter")


def test_a_plain_model_is_16_bit_and_said_to_be_assumed():
    # the other way: no tag, no --quantize
    w = tp.weights(_w(), "bigscience/bloomz-7b1-mt", tp.DEFAULT_BYTES_PER_PARAM)
    assert (w.bytes_per_weight, w.source, w.assumed) == (2.0, "assumed", True)
    # a launcher's `quantize: None` states the weights unquantized: 16-bit, not assumed
    w = tp.weights(_w("none"), "tiiuae/falcon-40b", tp.DEFAULT_BYTES_PER_PARAM)
    assert (w.bytes_per_weight, w.source, w.assumed) == (2.0, "unquantized", False)
