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
