"""vLLM prints `Acceptance length`, SGLang `Accept length`, and a derived layout `Mean Accept Length (tokens)`
under its own `Accept Length` section: each is the tokens a request gains per verify step (accepted drafts plus
the target's own), so each is the run's acceptance length, and the section marks the run speculative even where
the copy ends on its row. A label that only shares a word (`Accept rate`) is no acceptance length."""

from __future__ import annotations

from benchbook.ingest import vllm_serve

HEAD = [
    "============ Serving Benchmark Result ============",
    "Successful requests:                     100",
    "Benchmark duration (s):                  765.28",
    "Request throughput (req/s):              0.13",
    "Output token throughput (tok/s):         130.77",
]


def _parse(rows: list[str]):
    return vllm_serve.parse("\n".join([*HEAD, *rows]) + "\n", "x.md")


def _acceptance(res) -> list[float]:
    t = res.table
    return list(t.loc[t["metric"] == "spec_decode_acceptance_length", "value"])


def test_a_mean_accept_length_row_is_the_acceptance_length():
    res = _parse(["------------------Accept Length-------------------", "Mean Accept Length (tokens):  2.15", "=" * 50])
    assert _acceptance(res) == [2.15]
    assert "speculative=" in str(res.table["metadata"].iloc[0])


def test_the_row_is_read_where_the_copy_ends_on_it_whole():
    res = _parse(["------------------Accept Length-------------------", "Mean Accept Length (tokens):  2.15"])
    assert _acceptance(res) == [2.15]


def test_a_row_cut_short_where_the_copy_ends_is_not_read_but_the_section_marks_the_run():
    res = _parse(["------------------Accept Length-------------------", "Mean Accept Length (tokens):  2"])
    assert _acceptance(res) == []
    assert "speculative=" in str(res.table["metadata"].iloc[0])


def test_a_label_sharing_only_a_word_is_no_acceptance_length():
    res = _parse(["Accept rate (%):  41.00", "=" * 50])
    assert _acceptance(res) == []
    assert "speculative=" not in str(res.table["metadata"].iloc[0])
