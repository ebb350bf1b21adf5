"""mpirun's `--tag-output` prefix (`[jobid,rank]<stdout>:`) is the launcher's, not the tool's: a
bench_offline_throughput block is read behind it where its banner, rows and close carry the same tag
(one rank's print), and a line of another rank ends the block."""

from __future__ import annotations

from benchbook import config, ingest
from benchbook.ingest import launcher
from benchbook.ingest import sglang_offline as s

FIX = config.FIXTURES_DIR / "sglang-bench-offline"
TAGGED = FIX / "apac25_upm_team2_dsr1_tp16_two_nodes_baseline_vs_warmup_mpi_tagged.md"
LOG = FIX / "apac25_upm_team2_dsr1_tp16_two_nodes_stdout_excerpt.log"
BLOCK = [
    "====== Offline Throughput Benchmark Result =======",
    "Backend:                                 engine    ",
    "Successful requests:                     2000      ",
    "Benchmark duration (s):                  156.66    ",
    "Request throughput (req/s):              12.77     ",
    "Output token throughput (tok/s):         2481.15   ",
    "==================================================",
]


def metrics(text: str) -> dict:
    t = s.parse(text, "t.log").table
    return dict(zip(t["metric"], t["value"], strict=True))


def test_the_tag_of_open_mpi_4_and_5_is_taken_off_and_kept_per_line():
    lines, tags = launcher.untagged(["[1,0]<stdout>:a b", "[1,1]<stderr>: c", "[2025-09-23 18:31:31 TP0] d", "e"])
    assert list(lines) == ["a b", "c", "[2025-09-23 18:31:31 TP0] d", "e"]
    assert tags == ["[1,0]<stdout>:", "[1,1]<stderr>:", "", ""]


def test_a_tagged_block_is_read_as_the_untagged_one():
    plain = metrics("\n".join(BLOCK))
    tagged = "\n".join(f"[1,0]<stdout>:{x}" for x in BLOCK)
    assert s.sniff(tagged) and metrics(tagged) == plain
    assert plain["request_throughput"] == 12.77 and plain["throughput"] == 2481.15


def test_a_row_of_another_rank_ends_the_block():
    lines = [f"[1,0]<stdout>:{x}" for x in BLOCK]
    lines[4] = "[1,1]<stdout>:" + BLOCK[4]  # rank 1's line inside rank 0's block
    got = metrics("\n".join(lines))
    assert "request_throughput" not in got and "throughput" not in got
    assert got["completed"] == 2000


def test_the_real_tagged_files_are_this_tool_only():
    for path in (TAGGED, LOG):
        assert ingest.detect(path.read_text(encoding="utf-8")) == [s.NAME]
    runs = ingest.read_all([TAGGED])[0].groupby("run")
    assert {r: g.set_index("metric")["value"]["request_throughput"] for r, g in runs} == {"run 1": 11.5, "run 2": 12.77}
