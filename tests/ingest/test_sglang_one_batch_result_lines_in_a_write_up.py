"""SGLang bench_one_batch's `--result-filename` lines pasted into a write-up under the command that
wrote them (sglang PR 11322, a code fence of `json.dumps` lines, the copy cut inside the fourth): the
whole lines are read where they stand, the one the copy ends inside is set aside with its line named,
and a write-up with no whole result line is still no bench_one_batch output."""

from __future__ import annotations

import json

from benchbook import config, ingest
from benchbook.ingest import sglang_one_batch

PR11322 = (
    config.FIXTURES_DIR
    / "sglang-bench-one-batch"
    / "sglang_pr11322_rocm_dsv31_tp8_dummy_before_rope_change_jsonl_cut.md"
)


def _line(batch: int) -> str:
    return json.dumps(
        {
            "run_name": "r",
            "batch_size": batch,
            "input_len": 8,
            "output_len": 4,
            "prefill_latency": 0.5,
            "prefill_throughput": 16.0 * batch,
            "median_decode_latency": 0.25,
            "median_decode_throughput": 4.0 * batch,
            "total_latency": 1.25,
            "overall_throughput": 9.6 * batch,
        }
    )


def test_the_whole_result_lines_of_a_write_up_are_read_and_the_cut_one_named():
    (p,) = ingest.read_parsed(PR11322)
    assert set(p.table["batch_size"]) == {1, 2, 4} and set(p.table["line"]) == {11, 12, 13}
    assert p.cells_read == len(p.table) + len(p.rejected)
    (cut,) = p.rejected.itertuples()
    assert cut.line == 14 and str(cut.reason).startswith(ingest.COPY_ENDS)
    assert any(":14: the copy ends inside a result line" in m for m in p.messages)


def test_a_write_up_with_whole_lines_and_no_cut_sets_nothing_aside():
    text = f"Before:\n`python3 -m sglang.bench_one_batch --batch-size 1 2`\n\n```\n{_line(1)}\n{_line(2)}\n```\n\nAfter: faster.\n"
    assert sglang_one_batch.sniff(text)
    p = sglang_one_batch.parse(text, "w.md")
    assert set(p.table["batch_size"]) == {1, 2} and p.rejected.empty and not p.messages


def test_the_other_way_a_write_up_whose_only_result_line_is_cut_is_no_output():
    text = "Before:\n`python3 -m sglang.bench_one_batch --batch-size 1`\n\n```\n" + _line(1)[:60] + "\n"
    assert not sglang_one_batch.sniff(text)
