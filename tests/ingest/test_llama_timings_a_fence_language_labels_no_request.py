"""A fence's opening line (```shell, ~~~text) gives the block's language for the renderer, not the writer's
name of the request inside it: a real page called an Orange Pi's request 'the request labelled shell'
(llama.cpp issue #34). A short line of words above the fence still labels the request."""

from __future__ import annotations

from benchbook.ingest import llama_timings

BLOCK = [
    "llama_perf_context_print:        load time =    1397.88 ms",
    "llama_perf_context_print: prompt eval time =      88.24 ms /     9 tokens (    9.80 ms per token,   102.00 tokens per second)",
    "llama_perf_context_print:        eval time =    2226.40 ms /   127 runs   (   17.53 ms per token,    57.04 tokens per second)",
    "```",
]


def _captions(*above):
    t = llama_timings.parse("\n".join([*above, *BLOCK]), "x.md").table
    return set(t["caption"].dropna())


def test_a_fence_language_is_no_label():
    assert _captions("```shell") == set()
    assert _captions("~~~text") == set()


def test_a_label_above_the_fence_still_names_the_request():
    assert _captions("desktop run:", "```shell") == {"desktop run"}


def test_a_command_quote_spanning_lines_is_no_label():
    # llama.cpp issue #34: `llama-cli ... -p "what is the meaning of` / `life?" -n 128` above the timings
    cmd = ' ~/llama.cpp/build/bin/llama-cli -m ~/models/Llama-3.2-1B-Instruct-Q4_K_M.gguf -p "what is the meaning of'
    assert _captions(cmd, 'life?" -n 128', "```shell") == set()


def test_a_label_after_a_closed_command_still_names_the_request():
    cmd = ' ~/llama.cpp/build/bin/llama-cli -m m.gguf -p "what is the meaning of life?" -n 128'
    assert _captions(cmd, "```", "desktop run:", "```shell") == {"desktop run"}
