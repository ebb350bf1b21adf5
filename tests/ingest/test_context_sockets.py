"""The machine's CPU sockets, as lscpu and write-ups state them; NUMA nodes are only a sign of them."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


@pytest.mark.parametrize(
    ("lines", "value"),
    [
        (["Socket(s):             2", "Core(s) per socket:    12"], 2),  # lscpu
        (["- CPU: EPYC 9654, dual-socket"], 2),
        (["sockets: 4"], 4),
        (["one machine with 2 CPU sockets"], 2),
    ],
)
def test_a_socket_count_is_stated_on_its_line(lines, value):
    said = context.states(context.read(lines), "sockets")
    assert said.status == "stated" and said.facts[0].value == value and said.line == 1


@pytest.mark.parametrize(
    "line", ["available: 2 nodes (0-1)", "NUMA node(s):          8", "$ ./llama-bench --numa distribute -t 32"]
)
def test_numa_nodes_are_a_sign_of_sockets_never_a_count(line):
    said = context.states(context.read([line]), "sockets")
    assert said.status == "unread" and said.line == 1


def test_a_file_with_no_word_of_sockets_or_numa_states_none():
    said = context.states(context.read(["Model name: Intel Xeon E5-2690 v3", "| model | t/s |"]), "sockets")
    assert said.status == "absent"
