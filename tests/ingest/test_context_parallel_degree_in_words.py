"""A parallel degree written as words (`context._PAR_WORDS`): "a tensor parallel degree of 8" is TP,
"a data parallel of 3" DP (the replicas a write-up runs behind a load balancer), each by its own word;
the word without a number beside it is a sign of the fact, never a value."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


def _values(line: str, name: str) -> list:
    return context.read([line, "", "Successful requests: 940"]).values(name)


@pytest.mark.parametrize(
    ("line", "name", "value"),
    [
        ("with a tensor parallel degree of 8. Since it has 24 cores, I can use a data parallel of 3", "dp", 3),
        ("with a tensor parallel degree of 8. Since it has 24 cores, I can use a data parallel of 3", "tp", 8),
        ("We ran with pipeline parallel size 2.", "pp", 2),
        ("expert parallelism (EP) of 16 across two nodes", "ep", 16),
    ],
)
def test_a_degree_in_words_is_read_as_its_own_parallelism(line, name, value):
    assert _values(line, name) == [value]


@pytest.mark.parametrize(
    "line",
    [
        "The docker compose file is important for defining your data parallel, by specifying the devices.",
        "data parallel replicas behind nginx",
    ],
)
def test_the_word_without_a_number_is_no_degree(line):
    assert _values(line, "dp") == []


def test_a_setup_tables_parallelism_rows_are_the_degrees_a_note_aside():
    rows = ["| Field | Value |", "|---|---|", "| Tensor Parallelism | 64 (effective tensor axis 8 via `--dp-size 8`) |"]
    rows += ["| Data Parallelism | 8 |", "| Expert Parallelism | 64 |", "| Pipeline parallel degree | 2 |"]
    facts = context.read(rows)
    assert [facts.values(k) for k in ("tp", "dp", "ep", "pp")] == [[64], [8], [64], [2]]
    # the other way: a count with words after it, not a bracketed note, is no value
    assert context.read(["| Tensor Parallelism | 64 or 128 |"]).values("tp") == []
