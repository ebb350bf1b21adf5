"""A short line of the writer's above a timing block labels the request below it ("rx 6800 only:"), but
a `Key: value` pair (a macOS hardware overview's `OS Loader Version:\t8422.121.1`, a `Chip:` line) states
a fact with its value after the colon: it names no request (a real page called a 70B request 'the request
labelled OS Loader Version: 8422.121.1')."""

from __future__ import annotations

from benchbook.ingest import llama_timings

BLOCK = [
    "llama_print_timings:        load time = 28606.21 ms",
    "llama_print_timings: prompt eval time = 10514.60 ms /    11 tokens (  955.87 ms per token,     1.05 tokens per second)",
    "llama_print_timings:        eval time = 49937.32 ms /    30 runs   ( 1664.58 ms per token,     0.60 tokens per second)",
]


def _captions(*above):
    t = llama_timings.parse("\n".join([*above, *BLOCK]), "x.md").table
    return set(t["caption"].dropna())


def test_a_key_value_pair_above_the_block_is_no_label():
    assert _captions("  Chip:\tApple M2 Max", "  OS Loader Version:\t8422.121.1") == set()


def test_a_label_ending_at_its_colon_still_names_the_request():
    assert _captions("rx 6800 only:") == {"rx 6800 only"}


def test_a_titles_spaced_colon_is_no_pair():
    assert _captions("# llama : MTP clean-up") == {"llama : MTP clean-up"}
