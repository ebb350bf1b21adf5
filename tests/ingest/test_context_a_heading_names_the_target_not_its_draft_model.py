"""A heading that names a model and the draft model of its speculative decoding (`Qwen3-235B-A22B drafted by
Qwen3-0.6B`, `with draft model X`, `-md X`, `X as drafter`) names the target as the run's model: the draft only
proposes tokens. Two models named side by side without that word name none (a sign naming the line). A model
file whose name gives no size (`./qwen-3-Q4_K_XL.gguf`) under a heading naming one sized model of its release
holds that model; a file of another release keeps its own name (llama.cpp PR 14132, jukofyork's comment)."""

from __future__ import annotations

import pytest

from benchbook.ingest import context

BLOCK = [
    "",
    "```",
    "prompt eval time =   37672.82 ms /  1642 tokens (   22.94 ms per token,    43.59 tokens per second)",
    "```",
]


def _models(lines: list[str]) -> list[tuple[str, int]]:
    return [(str(f.value), f.line) for f in context.read([*lines, *BLOCK]).get("model")]


@pytest.mark.parametrize(
    "heading",
    [
        "### `Qwen3-235B-A22B` drafted by ``Qwen3-0.6B` example:",
        "## Qwen3-235B-A22B with draft model Qwen3-0.6B",
        "## Qwen3-235B-A22B, Qwen3-0.6B as drafter",
        "## Qwen3-235B-A22B (-md Qwen3-0.6B)",
    ],
)
def test_a_heading_naming_a_target_and_its_draft_names_the_target(heading):
    assert _models([heading]) == [("Qwen3-235B-A22B", 1)]


def test_a_heading_naming_two_models_neither_a_draft_names_none():
    ctx = context.read(["## Qwen3-235B-A22B and Qwen3-0.6B on one node", *BLOCK])
    assert not ctx.get("model")
    assert any(s.name == "model" and s.line == 1 and "Qwen3-0.6B" in (s.words or "") for s in ctx.signs)


COMMAND = ["```", 'CMD="llama-batched-bench \\', "    --model ./{file} \\", '    --flash-attn"', "```"]


def test_an_unsized_model_file_under_a_heading_of_its_release_holds_the_headings_model():
    lines = [
        "### `Qwen3-235B-A22B` drafted by ``Qwen3-0.6B` example:",
        "",
        *(c.format(file="qwen-3-Q4_K_XL.gguf") for c in COMMAND),
    ]
    assert _models(lines) == [("Qwen3-235B-A22B", 1)]


@pytest.mark.parametrize("file", ["qwen-2.5-Q4_K_XL.gguf", "Qwen3-30B-A3B-Q4_K_XL.gguf"])
def test_a_model_file_of_another_release_or_with_its_own_size_keeps_the_commands_model(file):
    lines = ["### `Qwen3-235B-A22B` drafted by ``Qwen3-0.6B` example:", "", *(c.format(file=file) for c in COMMAND)]
    assert [m for m, _ in _models(lines)] == [f"./{file}"]
