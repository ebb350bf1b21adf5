"""A short line of the writer's above a timing block labels the request below it ("rx 6800 only:"), but
a `Key: value` pair (a macOS hardware overview's `OS Loader Version:\t8422.121.1`, a `Chip:` line) states
a fact with its value after the colon: it names no request (a real page called a 70B request 'the request
labelled OS Loader Version: 8422.121.1').
Nor does a fence's opening line (```shell, ~~~text: the block's language for the renderer; a real page called an
Orange Pi's request 'the request labelled shell', llama.cpp issue #34), nor the next line of a command whose quote
runs onto it; a short line of words above the fence still labels the request."""

from __future__ import annotations

from benchbook.ingest import llama_timings

PRINT_TIMINGS = [
    "llama_print_timings:        load time = 28606.21 ms",
    "llama_print_timings: prompt eval time = 10514.60 ms /    11 tokens (  955.87 ms per token,     1.05 tokens per second)",
    "llama_print_timings:        eval time = 49937.32 ms /    30 runs   ( 1664.58 ms per token,     0.60 tokens per second)",
]


PERF_IN_A_FENCE = [
    "llama_perf_context_print:        load time =    1397.88 ms",
    "llama_perf_context_print: prompt eval time =      88.24 ms /     9 tokens (    9.80 ms per token,   102.00 tokens per second)",
    "llama_perf_context_print:        eval time =    2226.40 ms /   127 runs   (   17.53 ms per token,    57.04 tokens per second)",
    "```",
]


def _captions(*above, block=PRINT_TIMINGS):
    t = llama_timings.parse("\n".join([*above, *block]), "x.md").table
    return set(t["caption"].dropna())


def test_a_key_value_pair_above_the_block_is_no_label():
    assert _captions("  Chip:\tApple M2 Max", "  OS Loader Version:\t8422.121.1") == set()


def test_a_label_ending_at_its_colon_still_names_the_request():
    assert _captions("rx 6800 only:") == {"rx 6800 only"}


def test_a_titles_spaced_colon_is_no_pair():
    assert _captions("# llama : MTP clean-up") == {"llama : MTP clean-up"}


def _fenced(*above):
    return _captions(*above, block=PERF_IN_A_FENCE)


def test_a_fence_language_is_no_label():
    assert _fenced("```shell") == set()
    assert _fenced("~~~text") == set()


def test_a_label_above_the_fence_still_names_the_request():
    assert _fenced("desktop run:", "```shell") == {"desktop run"}


def test_a_command_quote_spanning_lines_is_no_label():
    # llama.cpp issue #34: `llama-cli ... -p "what is the meaning of` / `life?" -n 128` above the timings
    cmd = ' ~/llama.cpp/build/bin/llama-cli -m ~/models/Llama-3.2-1B-Instruct-Q4_K_M.gguf -p "what is the meaning of'
    assert _fenced(cmd, 'life?" -n 128', "```shell") == set()


def test_a_label_after_a_closed_command_still_names_the_request():
    cmd = ' ~/llama.cpp/build/bin/llama-cli -m m.gguf -p "what is the meaning of life?" -n 128'
    assert _fenced(cmd, "```", "desktop run:", "```shell") == {"desktop run"}
