"""llama-server prints `slot print_timing: ... n_gen = N, tg = R t/s, tg_3s = ...` every few seconds while
a request generates: the rate of the tokens so far, no request's. A file that holds only these (an issue's
log cut before the request ended) is refused in one sentence naming the first such line, not as a layout
no reader knows; with a finished request's timings after them, the request is read and they are set aside."""

from __future__ import annotations

from benchbook.ingest import llama_timings

RUNNING = [
    "0.39.831.658 I slot launch_slot_: id  0 | task 0 | processing task, is_child = 0",
    "0.44.409.108 I slot print_timing: id  0 | task 0 | n_gen =    100, tg =  31.44 t/s, tg_3s =  31.75 t/s",
    "0.47.432.703 I slot print_timing: id  0 | task 0 | n_gen =    193, tg =  31.11 t/s, tg_3s =  30.76 t/s",
]
DONE = "       eval time =    8011.70 ms /   261 tokens (   30.70 ms per token,    32.58 tokens per second)"


def test_running_prints_alone_are_refused_naming_the_first():
    line, why = llama_timings.refuses("\n".join(RUNNING))
    assert line == 2 and "running print" in why and "31.44" in why


def test_a_finished_request_after_them_is_read():
    p = llama_timings.parse("\n".join([*RUNNING, DONE]), "x.md")
    assert list(p.table.value[p.table.metric == "tg_rate"]) == [32.58]
    assert p.rejected["reason"].str.startswith("a running rate mid-generation").sum() == 2


def test_a_file_without_them_is_not_refused():
    assert llama_timings.refuses(DONE) is None
