"""A program's name quoted inline in a sentence that goes on after its closing backtick (`Sample output by
the `vllm bench serve` command, with the FP8 model on H200:`) runs nothing: the words after it are the
sentence's, read as prose (the device), and the line stays the caption of the block under it. A quoted
program whose line ends at the backtick, or one given an argument, is a command as before. A caption
sentence wrapped over two lines labels the block from both."""

from benchbook.ingest import context

BLOCK = ["", "```", "Successful requests: 1", "```"]


def _facts(*lines):
    return [(f.name, f.value, f.line, f.source, f.until) for f in context.read(["# Guide", "", *lines, *BLOCK]).facts]


def test_the_words_after_a_quoted_program_name_are_read_and_caption_the_block():
    facts = _facts("Sample output by the `vllm bench serve` command, with the FP8 model on H200:")
    assert ("device", "H200", 3, "prose", 7) in facts


def test_a_quoted_program_that_ends_its_line_or_takes_an_argument_is_a_command():
    # the other way: `vllm bench serve` alone, or with a model, runs the program; its line is no caption
    assert [f for f in _facts("Then run `vllm bench serve`:") if f[0] == "device"] == []
    facts = _facts("Run `vllm serve Qwen/Qwen3-8B` on 2x H100 first")
    assert ("model", "Qwen/Qwen3-8B", 3, "command", None) in facts
    # the sentence going on after the closing backtick is prose (half cl's rule), but the line is no caption: a
    # device it names labels no block below it
    assert all(f[4] is None for f in facts if f[0] == "device")


def test_a_caption_sentence_wrapped_over_two_lines_labels_the_block_from_both():
    facts = _facts("Representative output — Hy3-FP8, TP4 on 4×GB300 (one NVL4 tray), trtllm all-reduce,", "MTP=2:")
    assert ("device", "GB300", 3, "prose", 8) in facts and ("tp", 4, 3, "prose", 8) in facts
    # the other way: a line that ends its sentence above the caption is no part of it
    facts = _facts("We ran it on 4×GB300.", "MTP=2:")
    assert ("device", "GB300", 3, "prose", None) in facts


def test_a_caption_names_its_block_s_device_whatever_other_lines_name():
    # `Hardware: 1x H200` elsewhere would keep a bare `MI300X` in a sentence unread; in the caption it is the block's
    lines = ["- Hardware: 1x H200", "", "**14B** full `vllm bench serve` output (TP=1, MI300X):"]
    facts = [(f.name, f.value, f.line, f.source, f.until) for f in context.read([*lines, *BLOCK]).facts]
    assert ("device", "MI300X", 3, "caption", 7) in facts
    # the other way: a caption that names two devices names neither as its block's
    lines = ["- Hardware: 1x H200", "", "Output (TP=1, MI300X or MI325X):"]
    facts = [(f.name, f.value, f.line, f.source) for f in context.read([*lines, *BLOCK]).facts]
    assert [f for f in facts if f[0] == "device" and f[2] == 3] == []
