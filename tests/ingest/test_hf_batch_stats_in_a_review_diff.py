"""A BLOOM inference script's `*** Performance stats:` block quoted in a review thread's `diff` fence
(every added line behind `+`) is the same block: refused as one run at one batch, naming its line,
instead of "no known tool output found". `+` lines outside a diff fence are not unwrapped."""

from benchbook.ingest import hf_batch
from benchbook.ingest.text import diff_added

BLOCK = [
    "*** Performance stats:",
    "Throughput per token including tokenize: 0.73 msecs",
    "Start to ready to generate: 591.902 secs",
    "Tokenize and generate 64000 (bs=128) tokens: 9.421 secs",
]


def test_stats_added_in_a_diff_fence_are_refused_at_their_line():
    text = "\n".join(["review", "````diff", "+```", *("+" + x for x in BLOCK), "+```", "````"])
    line, why = hf_batch.refuses(text)
    assert line == 5 and "at batch 128: one point" in why


def test_plus_lines_outside_a_diff_fence_stay_as_written():
    text = "\n".join(["```", *("+" + x for x in BLOCK), "```"])
    assert hf_batch.refuses(text) is None
    assert diff_added(["```", "+x", "```"]) == ["```", "+x", "```"]
    assert diff_added(["```diff", "+x", "+++ b/f", "-y", "```"]) == ["```diff", "x", "+++ b/f", "-y", "```"]
