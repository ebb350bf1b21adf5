"""A layer split over several GPUs reads a generated token's layers in turn, one GPU at a time, but
llama.cpp pipelines a prompt: with every layer offloaded, the KV cache offloaded and no tensor override
(llama-context's `pipeline_parallel`), each GPU works on its own micro-batch of the prompt, up to
`GGML_SCHED_MAX_COPIES` (4) micro-batches in flight. A prompt of several micro-batches is then computed by
up to min(GPUs, micro-batches, 4) GPUs at once, and their compute peaks add: a real 8 x A100 run
(ggml-org/llama.cpp pull request 6017, `-b 8192 -ub 32`) was set against one A100's 312 TFLOP/s. One
micro-batch, a decode, a tensor override, `-nkvo 1`, a partial offload or `-sm none` pipelines nothing."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import bandwidth, prefill, roofline
from benchbook.ingest import llama_bench

A100 = roofline.Peaks("A100", 1935.0, {"fp16": 312.0}, "detected")


def _row(**over) -> pd.Series:
    base = {"mode": "gpu", "gpus_listed": 8, "n_prompt": 512, "n_gen": 0, "n_ubatch": 32, "extra_settings": None}
    return pd.Series({**base, **over})


def test_a_prompt_of_many_micro_batches_over_eight_gpus_is_computed_by_four_at_once():
    r = _row()
    assert bandwidth.pipelined(r) == 4
    pk = bandwidth.spanned_peak(A100, r, prompt=True)
    assert pk.count == 4 and pk.device == "A100 (4 of 8 GPUs at once)" and pk.dense_tflops == 4 * 312.0


def test_micro_batches_fewer_than_the_copies_bound_the_gpus_at_once():
    assert bandwidth.pipelined(_row(n_prompt=1024, n_ubatch=512)) == 2
    assert bandwidth.pipelined(_row(n_prompt=512, n_ubatch=None)) == 1  # llama-bench's default -ub 512


def test_what_pipelines_nothing_keeps_one_gpus_peak():
    for r in (
        _row(n_prompt=32),  # one micro-batch
        _row(extra_settings="ot=exps=CPU"),
        _row(extra_settings="nkvo=1"),
        _row(mode="partial"),
        _row(extra_settings="sm=none"),
        _row(gpus_listed=1),
    ):
        assert bandwidth.pipelined(r) == 1
        assert bandwidth.spanned_peak(A100, r, prompt=True) == A100
    assert bandwidth.spanned_peak(A100, _row()) == A100  # a decode reads the layers in turn


def test_a_row_split_keeps_its_concurrent_gpus():
    pk = bandwidth.spanned_peak(A100, _row(extra_settings="sm=row"), prompt=True)
    assert pk.count == 8 and pk.device == "A100 (8 GPUs)"


def test_the_eight_a100_log_sets_the_prompt_against_four_gpus():
    rows = [f"  Device {i}: NVIDIA A100 80GB PCIe, compute capability 8.0, VMM: yes" for i in range(8)]
    text = "\n".join(
        [
            "ggml_init_cublas: found 8 CUDA devices:",
            *rows,
            "| model | size | params | backend | ngl | n_batch | n_ubatch | test | t/s |",
            "| --- | ---: | ---: | --- | --: | ---: | ---: | --- | ---: |",
            "| llama 7B F16 | 12.55 GiB | 6.74 B | CUDA | 99 | 8192 | 32 | pp 1024 | 5511.86 ± 42.66 |",
        ]
    )
    table = llama_bench.parse(text, "x.md").table
    pts = prefill.points(prefill.prompt_rows(table))
    assert len(pts) == 1
    p = pts.iloc[0]
    assert p["device"] == "A100-PCIe-80GB (4 of 8 GPUs at once)"
    assert round(p["tflops"], 1) == 74.3
    # each 32-token micro-batch of F16 weights does 2 x 32 / 2 = 32 FLOPs a byte, left of the A100's ridge
    # (312 / 1.935 = 161): the memory bounds it, so no share of the four GPUs' compute peak is stated
    assert p["no_share"] == "below_ridge" and pd.isna(p["share"])
