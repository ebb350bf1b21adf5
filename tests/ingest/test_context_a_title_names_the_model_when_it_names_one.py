"""A file's title (its first heading, a pull request's title) names the model of runs whose own lines name none
when it names exactly one: a model-table row (`MiniMax-M2`), with the line it is read from. A title naming two
models names none (a sign naming the line); a later version of the family (`MiniMax-M2.5`) is not that row."""

from __future__ import annotations

from benchbook import hardware
from benchbook.ingest import context

BLOCK = ["", "```text", "Successful requests:                     128", "```"]


def _models(title: str) -> list[tuple[str, int]]:
    return [(str(f.value), f.line) for f in context.read([title, *BLOCK]).get("model")]


def test_a_title_naming_one_table_model_names_it_with_its_line():
    assert _models("# [Perf] Add MiniMax-M2 FP32 router GEMM kernel") == [("MiniMax-M2", 1)]


def test_a_title_naming_two_models_names_none():
    ctx = context.read(["# [Perf] MiniMax-M2 against Qwen3-4B router GEMM", *BLOCK])
    assert ctx.get("model") == () or list(ctx.get("model")) == []
    assert any(s.name == "model" and s.line == 1 for s in ctx.signs)


def test_the_table_row_sizes_minimax_m2_but_not_a_later_version():
    size = hardware.model_size("MiniMax-M2")
    assert (size.total_b, size.active_b, size.checkpoint_precision) == (230.0, 10.0, "fp8")
    assert hardware.model_size("MiniMaxAI/MiniMax-M2.5") is None


def test_a_title_naming_one_release_of_a_table_family_names_it_though_the_table_does_not_size_it():
    """`MiniMax-M2.7` is the family of the table's MiniMax-M2 with a version written as that family's names write
    theirs (`M2`): one model, named (its size is the page's to call unknown), never "a model the output does not
    name"; `DeepSeek-V3.2` and `GLM-4.6` likewise (a `v`, or digits)."""
    assert _models("# benchmark: MI300X FP8 speed + accuracy data for MiniMax-M2.7") == [("MiniMax-M2.7", 1)]
    assert _models("# Support DeepSeek-V3.2 on H20") == [("DeepSeek-V3.2", 1)]
    assert hardware.model_size("MiniMax-M2.7") is None


def test_a_release_named_beside_another_or_a_word_that_is_no_version_names_no_model():
    ctx = context.read(["# MiniMax-M2.7 against DeepSeek-V3.2 on MI300X", *BLOCK])
    assert not ctx.get("model") and any(s.name == "model" and s.line == 1 for s in ctx.signs)
    assert _models("# Llama3-style attention for the prefill kernel") == []  # `style` is no version
    assert _models("# sgl-project/sglang-jax release notes") == []  # no family of the table
    # in prose, not a title, the release stays unnamed
    assert [f.value for f in context.read(["Adds data for MiniMax-M2.7.", *BLOCK]).get("model")] == []


def test_a_title_writing_a_model_by_its_communitys_short_name_names_it_and_its_scheme():
    """SGLang's and vLLM's threads write DeepSeek-V3.2 as `DSV3.2` (an alias of the model table's row): the
    title names that model, and the scheme after it (`W4AFP8`) its weights; a title naming the row's name
    with a scheme glued on (`DeepSeek-V3.2-NVFP4`) names the one model, not two."""
    ctx = context.read(
        ["# [Performance] DSV3.2 W4AFP8 Implement get_cutlass_w4a8_moe_mm_data by triton_kernel", *BLOCK]
    )
    assert [f.value for f in ctx.get("model")] == ["DSV3.2"]
    assert [f.value for f in ctx.get("precision")] == ["W4AFP8"]
    assert _models("# DeepSeek-V3.2-NVFP4 — PD-Disaggregation (NIXL UCX-TCP)") == [("DeepSeek-V3.2", 1)]
    size = hardware.model_size("DSV3.2")
    assert (size.total_b, size.active_b, size.checkpoint_precision) == (671.0, 37.0, "fp8")
    assert hardware.model_size("deepseek-ai/DeepSeek-V3.1-Terminus").active_b == 37.0
    assert hardware.model_size("DSV3").total_b == 671.0 and hardware.model_size("dsr1").total_b == 671.0
