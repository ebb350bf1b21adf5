"""A command quoted inline closes at its backtick, and the sentence that goes on after it is prose: its words
(where the run ran) are read as a sentence's are (stop 60, half cl: TensorRT-LLM's performance tuning guide says
"Run `trtllm-bench throughput -h` to see ... took around 20 minutes on a 4 NVLink connected H100-sxm-80GB" on one
line; the words after the command were dropped with it, and the pages said the input names no device)."""

from benchbook.ingest import context


def _device(line: str) -> tuple:
    ctx = context.read([line])
    return tuple(f.value for f in ctx.get("device")), tuple(f.value for f in ctx.get("device_count"))


def test_the_words_after_an_inline_commands_closing_backtick_are_read():
    line = "Run `vllm bench serve --model m -h` to see its options; it took 20 minutes on 8x H100."
    assert _device(line) == (("H100",), (8,))


def test_a_command_with_no_closing_backtick_or_no_words_after_it_reads_no_sentence():
    assert _device("`vllm bench serve --model m --tp 2` on") == ((), ())
    assert _device("$ vllm bench serve --model m --tp 2  # on 8x H100") == ((), ())
