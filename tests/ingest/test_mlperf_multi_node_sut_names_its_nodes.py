"""LoadGen's network harness (mlcommons/inference loadgen/demos/lon) names a run sent to several SUT servers
`Multi-node SUT: <name>, <name>, ...`, one name a server: the summary's SUT name line then states the nodes the
run spans (a fact at that line); a SUT with any other name states none."""

from __future__ import annotations

from benchbook import config, ingest
from benchbook.ingest import mlperf

FIXTURES = config.FIXTURES_DIR / "mlperf-loadgen"


def test_four_network_suts_are_four_nodes_at_the_sut_name_line():
    df = ingest.read(FIXTURES / "mangoboost_v50_32xmi300x_4node_llama2_70b_99_server_summary.txt")
    assert mlperf.facts(df) == [
        ("nodes", 4, 4, "SUT name : Multi-Node SUT: Network SUT, Network SUT, Network SUT, Network SUT")
    ]


def test_a_single_sut_states_no_nodes():
    df = ingest.read(FIXTURES / "google_v50_b200x8_llama31_405b_server_summary.txt")
    assert set(df["sut"]) == {"PySUT"} and mlperf.facts(df) == []


def test_the_list_of_what_the_file_states_names_the_nodes():
    ctx = ingest.context_of(FIXTURES / "mangoboost_v50_32xmi300x_4node_llama2_70b_99_server_summary.txt")
    assert [(f.name, f.value, f.line) for f in ctx.facts if f.name == "nodes"] == [("nodes", 4, 4)]
