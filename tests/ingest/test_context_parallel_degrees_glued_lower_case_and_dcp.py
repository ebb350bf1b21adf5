"""Parallel degrees written glued in lower case (`with tp8`), glued to a DCP (`dcp8tp16`) or joined by `+`
(`dcp8+tp8`) are read as the run's TP; a DCP adds no size of its own (it splits the KV cache over the TP group's
ranks); a lower-case `pp` alone stays llama-bench's prompt test."""

from benchbook.ingest import context


def _par(text: str) -> list:
    return [(f.name, f.value) for f in context.read(["x", text]).facts if f.name in ("tp", "pp", "dp", "ep")]


def test_a_dcp_glued_to_a_tp_gives_the_tp():
    # real: antgroup/sglang PR 21 (`dcp8tp16:`), sglang PR 14194 (`dcp8+tp8 max concurrency 48`)
    assert _par("dcp8tp16:") == [("tp", 16)]
    assert _par("dcp8+tp8 max concurrency 48") == [("tp", 8)]
    assert _par("DP8TP4EP32") == [("dp", 8), ("tp", 4), ("ep", 32)]  # unchanged


def test_a_lower_case_degree_glued_to_its_size_is_read():
    # real: sglang PR 8118, "We run DeepSeek-R1-W4AFP8 on 8*H20 with tp8, ..."
    assert _par("We run it on 8*H20 with tp8, comparing") == [("tp", 8)]


def test_a_lower_case_pp_alone_and_a_degree_inside_a_name_are_none():
    # the other way: llama-bench's `pp512` test, a file name's `_tp8`
    assert _par("| llama 7B Q4_0 | pp512 | 1234.5 |") == []
    assert _par("see model_tp8.json") == []
