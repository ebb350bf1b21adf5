"""SGLang's DP beside its TP, written only in words (`TP8DP8` in a heading), runs its ranks inside the TP group
with DP attention or as replicas without it: a run spans TP or TP x DP devices, and no one peak is set against
it; a launch command that says `--enable-dp-attention`, or a vLLM run, spans one count."""

from __future__ import annotations

from benchbook import config
from benchbook.analysis import serving

SGL = config.FIXTURES_DIR / "sglang-bench-serving"


def test_sglangs_dp_in_a_heading_spans_tp_or_tp_times_dp():
    # real: sglang PR 30964, `### Accept length(4.84) as Expected(5) at TP8DP8 conc256 unified_kv_triton`
    r, _ = serving.load([SGL / "sglang_pr30964_amd_dsv4_dspark_tp8dp8_conc256_accept_length_cut.md"])
    assert serving.stated(r, "dp_attention") == "unstated"
    assert (serving.fewest_devices(r), serving.devices(r)) == (8, 64)


def test_a_stated_dp_attention_or_replicas_give_one_count():
    # the other way: the DeepSeek-V3 cookbook's `--tp 8 --dp 8 --enable-dp-attention` launch: 8 devices
    r, _ = serving.load([SGL / "sglang_cookbook_deepseek_v3_mi300x8_tp8_eagle_c1_dp_attention_c100.md"])
    assert serving.fewest_devices(r) == serving.devices(r)
    import pandas as pd

    vllm = pd.DataFrame({"tool": ["vllm-bench-serve"], "metadata": ["tp=2; dp=4"]})
    assert serving.fewest_devices(vllm) == serving.devices(vllm) == 8


def test_the_files_own_device_count_says_which_reading_of_a_dp_in_words_is_the_runs():
    # real: sglang-jax's speed section, `| Hardware | TPU v6e-64 (16 nodes × 4 chips) |` beside `| Tensor
    # Parallelism | 64 (effective tensor axis 8 via --dp-size 8) |` and `| Data Parallelism | 8 |`: 64 chips, not 512
    import dataclasses

    from benchbook.analysis import roofline

    r, _ = serving.load([SGL / "sglang_jax_tpu_v6e64_ling26_1t_fp8_tp64_dp8_ep64_cap16_speed_section.md"])
    assert (serving.fewest_devices(r), serving.devices(r)) == (64, 512)
    chips = roofline.of_named(roofline.named([(SGL / r["source"].iloc[0]).read_text(encoding="utf-8")]))
    assert chips.count == 64 and serving.span_readings(chips, r) == (64, 64)
    assert serving.spanning(chips, r).count == 64
    # the other way: a count that is neither reading (8) or none stated (1) leaves both
    for count in (8, 1):
        assert serving.span_readings(dataclasses.replace(chips, count=count), r) == (64, 512)
