"""A BLOOM inference script's `*** Performance stats:` block is one timed run at one batch, its time per
token divided by tokens that changed between the script's revisions: a file of such blocks is refused in
one sentence naming its per-token line; beside a table (the scripts' README) it refuses nothing."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.ingest import hf_batch

OLD = (
    "deepspeed --num_gpus 8 scripts/inference/bloom-ds-inference.py --name bigscience/bloom --benchmark\n\n"
    "*** Performance stats:\nStart to ready to generate: 698.697 secs\nGenerate 100 tokens: 23.008 secs\n"
    "Start to finish 721.705 secs\nThrougput per token: 0.0412 secs\n"
)
LATER = (
    "*** Performance stats:\nThroughput per token including tokenize: 10.74 msecs\n"
    "Start to ready to generate: 107.892 secs\nTokenize and generate 20000 (bs=40) tokens: 52.059 secs\n"
)


def test_a_file_of_stats_blocks_is_refused_naming_its_per_token_line(tmp_path):
    f = tmp_path / "stats.md"
    f.write_text(OLD)
    with pytest.raises(ingest.ParseError) as err:
        ingest.read(f)
    assert not isinstance(err.value, ingest.UnknownFormat) and err.value.line == 7
    assert "a batch the block does not state" in err.value.message


def test_a_block_that_prints_its_batch_is_refused_as_one_point_at_that_batch():
    line, why = hf_batch.refuses(LATER)
    assert line == 2 and "at batch 40: one point" in why


def test_beside_a_table_the_blocks_refuse_nothing():
    assert hf_batch.refuses("| project \\ bs | 1 | 8 |\n| accelerate | 230.38 | 31.78 |\n\n" + LATER) is None
    assert hf_batch.refuses(LATER.replace("Throughput per token including tokenize", "Latency")) is None
