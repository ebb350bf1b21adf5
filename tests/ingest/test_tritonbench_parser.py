"""tritonbench operator tables: the real tables of two PR threads, read by column (backend-metric)
and by input shape; tritonbench's `average` row set aside; the command above gives the operator
and whether attention was causal (a flag that defaults to off)."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError, tritonbench

FIX = config.FIXTURES_DIR / "tritonbench"
TK = FIX / "tritonbench_pr179_tk_tflops.txt"
FLEX = FIX / "pytorch_benchmark_pr2443_flex_latency.txt"


def _parsed(path):
    (p,) = ingest.read_parsed(path)
    assert p.tool == "tritonbench" and p.cells_read == len(p.table) + len(p.rejected)
    return p


def test_each_backend_and_input_is_a_row_with_its_shape():
    t = _parsed(FLEX).table
    assert sorted(set(t["backend"])) == ["flash_v2", "flex_attention", "sdpa"]
    assert set(t["metric"]) == {"latency"} and set(t["unit"]) == {"ms"}
    row = t[(t["backend"] == "flex_attention") & (t["seq_len"] == 16384)]
    assert row["value"].tolist() == [5.38931]
    assert row[["batch", "heads", "d_head"]].iloc[0].tolist() == [1, 16, 128]
    assert set(t["op"]) == {"flash_attention"} and set(t["causal"]) == {"non-causal"}


def test_the_average_row_is_set_aside_and_equals_the_mean_of_the_inputs():
    p = _parsed(TK)
    assert len(p.table) == 8 and p.rejected["text"].tolist() == ["tk-tflops 277.041"]
    assert p.table["value"].mean() == pytest.approx(277.041, abs=5e-4)


def test_a_causal_run_says_so_and_a_table_without_command_names_no_operator(tmp_path):
    lines = FLEX.read_text().splitlines()
    f = tmp_path / "causal.txt"
    f.write_text("\n".join([lines[0] + " --causal", *lines[1:]]) + "\n")
    assert set(_parsed(f).table["causal"]) == {"causal"}
    g = tmp_path / "bare.txt"
    g.write_text("\n".join(lines[1:]) + "\n")
    p = _parsed(g)
    assert p.table["op"].isna().all() and any("no tritonbench command" in m for m in p.messages)


def test_a_cell_that_is_not_a_number_is_refused_naming_its_line(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text(FLEX.read_text().replace("0.442944", "0.44x2944"))
    with pytest.raises(ingest.ParseError) as err:
        ingest.read(f)
    assert err.value.line == 5


SPREAD_TABLE = """+ python run.py --op flex_attention --metrics latency,tflops --latency-mode with_variance
      (B, H, S, D)    compiled-latency    compiled-tflops
------------------  ------------------  -----------------
 (8, 16, 128, 128)  0.052000 (±14.23%)            20.7295
 (8, 16, 256, 128)            0.090000            40.1000
"""


def test_a_latency_with_its_spread_reads_the_median_and_keeps_the_spread():
    t = tritonbench.parse(SPREAD_TABLE, "s.txt").table
    lat = t[t["metric"] == "latency"].set_index("input")
    assert lat.loc["(8, 16, 128, 128)", "value"] == 0.052
    assert "14.23%" in lat.loc["(8, 16, 128, 128)", "note"]
    assert lat.loc["(8, 16, 256, 128)", "value"] == 0.09 and not isinstance(lat.loc["(8, 16, 256, 128)", "note"], str)


def test_a_spread_without_a_number_before_it_is_still_refused():
    bad = SPREAD_TABLE.replace("0.052000 (±14.23%)", "    n/a (±14.23%)")
    with pytest.raises(ParseError, match="expected a number under 'compiled-latency'"):
        tritonbench.parse(bad, "s.txt")


def test_tables_under_the_authors_own_labels_are_two_runs_not_a_conflict():
    # meta-pytorch/tritonbench PR 589: one configuration timed before and after the change
    p = ingest.read(FIX / "tritonbench_pr589_blackwell_attentions_tlx_before_after.md")
    assert sorted(zip(p["backend"], p["value"], strict=True)) == [
        ("tlx_blackwell_ws_pipelined_persistent_fwd (After)", 949.553),
        ("tlx_blackwell_ws_pipelined_persistent_fwd (Before)", 924.471),
    ]
    table = "\n  (Batch, SeqLen)    k-tflops\n----------------  ----------\n   (4, 8191)         {}\n"
    # the other way: the same two tables without their labels stay one configuration printed twice
    bare = tritonbench.parse("```" + table.format("924.471") + "```\n\n```" + table.format("949.553") + "```\n", "x")
    assert bare.table.empty and bare.rejected["reason"].str.startswith("conflicting rows").all()
