"""llama.cpp's split modes as the context reads them from a command: `row`, `tensor` (docs/multi-gpu.md:
tensor parallelism, the weights and the KV cache split over the GPUs) and ik_llama.cpp's `graph` (its
tensor parallelism) split every layer over the GPUs, which work at once ("tensor"); `layer` runs them in
turn and `none` keeps one GPU; a list of modes (llama-bench runs each) states no one split."""

import pytest

from benchbook.ingest import context


@pytest.mark.parametrize(
    ("line", "split"),
    [
        ("llama-server -m m.gguf -sm tensor -ngl 99", "tensor"),
        ("./llama-sweep-bench -m m.gguf --split-mode graph", "tensor"),
        ("./llama-bench -m m.gguf -sm row", "tensor"),
        ("./llama-bench -m m.gguf -sm layer", "in turn"),
        ("./llama-bench -m m.gguf -sm none", "none"),
    ],
)
def test_each_split_mode_is_read_as_how_its_gpus_work(line, split):
    assert [f.value for f in context.read([line]).get("split")] == [split]


def test_the_other_way_a_word_that_is_no_mode_or_a_list_of_modes_states_none():
    assert not context.read(["llama-server -m m.gguf -sm tensorx"]).get("split")
    assert not context.read(["llama-bench -m m.gguf -sm tensor,layer -fa 1"]).get("split")  # both modes run
