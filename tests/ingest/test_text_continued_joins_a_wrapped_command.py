"""`text.continued`, the one joiner of a wrapped command the readers share: a part ending in the shell's `\\`
goes on over the next line (the backslash dropped), a line `more` accepts (an option line of a YAML `command:`
block) too; a line with neither ends it, and a backslash with no line after it below `hi` stays."""

from __future__ import annotations

from benchbook.ingest.text import continued, last_command

LINES = [
    "vllm bench serve \\",
    "    --model m \\",
    "    --max-concurrency 8",
    "--request-rate 2",
    "done",
]


def test_a_trailing_backslash_continues_the_command_and_a_line_without_one_ends_it():
    assert continued(LINES, 0, len(LINES)) == ("vllm bench serve --model m --max-concurrency 8", 2)


def test_a_line_more_accepts_continues_it_too():
    text, last = continued(LINES, 0, len(LINES), lambda s: s.startswith("--"))
    assert (text, last) == ("vllm bench serve --model m --max-concurrency 8 --request-rate 2", 3)


def test_a_backslash_with_no_line_below_hi_stays_and_last_command_drops_it():
    assert continued(LINES, 0, 2) == ("vllm bench serve --model m \\", 1)
    assert last_command(LINES, 0, 2, lambda s: s.startswith("vllm")) == "vllm bench serve --model m"
