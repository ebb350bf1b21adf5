"""llama.cpp prints nothing between its timing lines but its own log, so a short line of words above a
request's block that is no print of llama.cpp's and no log line ("rx 6800 only:", "> `server`") is the
writer's label of that request (`caption`). Requests labelled differently are different runs (other
GPUs, another build or binary), so the roofline sets them apart as another configuration, never as a
slower setting of one; a log line, a `...` or `^C` between two requests labels neither."""

from __future__ import annotations

from benchbook.analysis import bandwidth
from benchbook.ingest import llama_timings

PROMPT = "llama_perf_context_print: prompt eval time =     140.93 ms /     9 tokens (   15.66 ms per token,    63.86 tokens per second)"
EVAL = "llama_perf_context_print:        eval time =     664.51 ms /    38 runs   (   17.49 ms per token,    57.18 tokens per second)"
EVAL2 = "llama_perf_context_print:        eval time =    2120.77 ms /    99 runs   (   21.42 ms per token,    46.68 tokens per second)"


def _table(*lines):
    return llama_timings.parse("\n".join(lines), "x.md").table


def test_a_line_of_words_above_a_block_labels_its_request():
    t = _table("```", "f16 llama3-3b:", "rx 6800 only:", PROMPT, EVAL, "", "rx 6700xt only:", PROMPT, EVAL2, "```")
    labels = t.groupby("request")["caption"].first()
    assert labels.tolist() == ["rx 6800 only", "rx 6700xt only"]


def test_a_quoted_backticked_label_is_read_without_its_marks():
    t = _table("> `server`", ">", PROMPT, EVAL)
    assert set(t["caption"]) == {"server"}


def test_log_lines_and_dots_label_no_request():
    t = _table("...", PROMPT, EVAL, "^C", "llama_print_timings:        load time =     348.01 ms", PROMPT, EVAL2)
    assert t["caption"].isna().all()
    t = _table("[42027] 1.37.495.377 I slot print_timing: id  0 | task 388 | ", PROMPT, EVAL)
    assert t["caption"].isna().all()


def test_differently_labelled_requests_are_set_apart_not_ranked_as_settings():
    t = _table("rx 6800 only:", PROMPT, EVAL, "rx 6700xt only:", PROMPT, EVAL2)
    _, every = bandwidth.reduce(bandwidth.request_rows(t))
    assert every["why_dropped"].tolist() == ["", "another engine, build or configuration: rx 6700xt only"]


def test_unlabelled_requests_stay_one_configuration():
    # one placed; the other set aside, though not as a slower setting: no model is named for either (stop 60)
    t = _table(PROMPT, EVAL, PROMPT, EVAL2)
    _, every = bandwidth.reduce(bandwidth.request_rows(t))
    assert every["kept"].tolist() == [True, False]
    assert every["why_dropped"].str.startswith(bandwidth.UNNAMED_APART).tolist() == [False, True]
