"""GuideLLM distribution summaries printed one per line as JSON by another program's console (llm-d-autoscaling's
boxed benchmark summary) are refused naming the first, and a copy cut inside one says so."""

from __future__ import annotations

from benchbook.ingest import guidellm

BOX = (
    "    │ Achieved RPS:    4.48\n"
    '    │ TTFT (ms):       {"count":3295,"max":31594.1,"mean":3145.9,"median":521.4,"min":32.7,'
    '"percentiles":{"p50":521.4,"p99":28881.9},"std_dev":5717.8}\n'
    '    │ ITL (ms):        {"count":13176705,"max":36.4,"mean":19.6,"median":19.1,"min":8.0,"mode":19.75,"pdf\n'
)


def test_the_first_summary_is_named_with_its_count_and_the_cut_one_with_its_line():
    line, why = guidellm.refuses(BOX)
    assert line == 2
    assert "2 GuideLLM distribution summaries" in why and "TTFT (ms): 3,295 values" in why
    assert "the copy ends inside the one at line 3" in why


def test_a_whole_copy_says_no_cut_and_a_dict_of_other_keys_is_no_summary():
    assert "ends inside" not in guidellm.refuses(BOX.splitlines()[1])[1]
    assert guidellm.refuses('TTFT: {"count": 3, "total": 9}\n') is None
