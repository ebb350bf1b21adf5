"""llama-bench over RPC (`-rpc host:port`, ggml-rpc): with every layer offloaded (`-ngl 99`) and a file larger than
the memory of the GPU the row lists, the layers beyond it sit on the devices of the RPC servers, which the input
does not count, so no one GPU's peak bounds the row. An RPC backend merely built in (the file fits), a partial
offload, a CPU row or a device the reader gave as a parameter is none."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import bandwidth, roofline

STRIX = roofline.Peaks("Radeon-8060S", 256.0, {"bf16": 59.0}, "detected", 1, 128.0)
ROW = {"mode": "gpu", "backend": "ROCm,RPC", "model_size_gib": 189.69, "ngl": 99, "gpus_listed": 1}


def spanned(pk=STRIX, **change) -> bool:
    return bandwidth.rpc_spanned(pd.Series({**ROW, **change}), pk)


def test_a_file_larger_than_the_gpu_with_every_layer_offloaded_over_rpc_spans_rpc_servers():
    assert spanned()


def test_a_file_that_fits_or_no_rpc_backend_or_a_partial_offload_is_one_gpus():
    assert not spanned(model_size_gib=60.0)
    assert not spanned(backend="ROCm")
    assert not spanned(ngl=40)
    assert not spanned(mode="cpu")


def test_a_device_the_reader_gives_is_the_readers_statement():
    given = roofline.Peaks("Radeon-8060S", 256.0, {"bf16": 59.0}, "parameter", 1, 128.0)
    assert not spanned(pk=given)
