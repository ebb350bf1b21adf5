"""GNU grep, given several files or `-H`, writes `NAME:` before a matched line and `NAME-` before a
line of context: a bench_offline_throughput block copied with `grep -A` is read as the block itself,
and only where grep's shape shows the name (a matched line and a context line of one name)."""

from __future__ import annotations

from benchbook import config, ingest
from benchbook.ingest import launcher
from benchbook.ingest import sglang_offline as s

FIX = config.FIXTURES_DIR / "sglang-bench-offline"
GREPPED = FIX / "hpc_task_baselines_dsr1_offline_aspire2p_mpi_and_smc_slurm_grep_tagged.md"
BLOCK = [
    "====== Offline Throughput Benchmark Result =======",
    "Backend:                                 engine    ",
    "Successful requests:                     2000      ",
    "Request throughput (req/s):              23.42     ",
    "==================================================",
]


def metrics(text: str) -> dict:
    t = s.parse(text, "t.md").table
    return dict(zip(t["metric"], t["value"], strict=True))


def test_a_block_behind_grep_file_names_is_read_as_the_plain_block():
    grepped = [f"slurm-824.out:{BLOCK[0]}"] + [f"slurm-824.out-{x}" for x in BLOCK[1:]]
    assert s.sniff("\n".join(grepped))
    assert metrics("\n".join(grepped)) == metrics("\n".join(BLOCK)) == {"completed": 2000, "request_throughput": 23.42}


def test_the_name_and_an_mpirun_tag_behind_it_both_come_off_and_make_the_lines_tag():
    lines, tags = launcher.untagged(["job.o7:[1,0]<stdout>:a", "job.o7-[1,0]<stdout>:b: 1", "c"])
    assert list(lines) == ["a", "b: 1", "c"]
    assert tags == ["job.o7[1,0]<stdout>:", "job.o7[1,0]<stdout>:", ""]


def test_matched_lines_with_no_context_line_keep_their_text():
    """`key: value` rows that begin alike (the 2024 form's warmup and run `Throughput:` lines) are
    not grep's: no line of context carries the name."""
    rows = ["Throughput: 812.5 tokens/s", "Throughput: 5123.0 tokens/s", "Backend: engine"]
    assert list(launcher.untagged(rows)[0]) == rows


def test_a_line_of_another_name_ends_the_names_lines():
    lines, tags = launcher.untagged(["a.out:x", "a.out-y", "b.out-z", "a.out-w"])
    assert list(lines) == ["x", "y", "b.out-z", "a.out-w"]
    assert tags == ["a.out", "a.out", "", ""]


def test_the_real_grepped_file_holds_two_runs_of_this_tool():
    assert ingest.detect(GREPPED.read_text(encoding="utf-8")) == [s.NAME]
    runs = ingest.read_all([GREPPED])[0].groupby("run")
    assert sorted(g.set_index("metric")["value"]["request_throughput"] for _, g in runs) == [11.5, 23.42]
