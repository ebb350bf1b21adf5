"""A label is what the writer typed above a request, never what a program printed: a shell command (after
`$ `, `% `, `user@host:~$ `, or `set -x`'s `+ `) is no label, and nothing after a command until the next
timing line is one either (the model's answer, its load log), nor `time`'s report (`sys  0m0.711s`) or
llama.cpp's `Log end`. A writer's line with no command after it still labels the request below it."""

from __future__ import annotations

import pandas as pd

from benchbook.ingest import llama_timings

PROMPT = "llama_print_timings: prompt eval time =       9.57 ms /     7 tokens (    1.37 ms per token,   731.61 tokens per second)"
EVAL = "llama_print_timings:        eval time =    1655.08 ms /   255 runs   (    6.49 ms per token,   154.07 tokens per second)"
PPL = "llama_print_timings: prompt eval time =    2145.03 ms /  8192 tokens (    0.26 ms per token,  3819.06 tokens per second)"


def _captions(*lines):
    t = llama_timings.parse("\n".join(lines), "x.log").table
    return [None if pd.isna(c) else c for c in t.groupby("request")["caption"].first()]


def test_a_shell_command_labels_no_request():
    cap = _captions('$sudo sh -c "/usr/bin/echo 3 > /proc/sys/vm/drop_caches"', "$./main -m m.bin -t 32", PROMPT, EVAL)
    assert cap == [None]


def test_the_answer_a_command_printed_labels_no_request():
    cap = _captions(
        "+ ./bin/llama-cli --model m.gguf -p 'I believe'", "I believe the meaning of life is to strive.", PROMPT, EVAL
    )
    assert cap == [None]


def test_time_report_and_log_end_label_no_request():
    cap = _captions(PROMPT, EVAL, "Log end", "", "real\t0m2.859s", "sys\t0m0.711s", PPL, EVAL)
    assert cap == [None, None]


def test_a_writers_line_without_a_command_after_it_still_labels():
    assert _captions("rx 6800 only:", PROMPT, EVAL) == ["rx 6800 only"]
    assert _captions("$ ./main -m m.bin", PROMPT, EVAL, "after the patch:", PROMPT, EVAL) == [None, "after the patch"]


def test_each_request_keeps_its_programs_batch():
    """`-b` of the command, else the context's `n_batch = N`: llama-cli's 2048, then llama-perplexity's 512."""
    t = llama_timings.parse(
        "\n".join(
            [
                "+ ./bin/llama-cli --model m.gguf -t 1 -n 256",
                "llama_new_context_with_model: n_batch    = 2048",
                PROMPT,
                EVAL,
                "+ ./bin/llama-perplexity --model m.gguf -f wiki.raw -t 1 -c 2048 -b 512",
                PPL,
            ]
        ),
        "x.log",
    ).table
    assert t.groupby("request")["n_batch"].first().tolist() == [2048, 512]
