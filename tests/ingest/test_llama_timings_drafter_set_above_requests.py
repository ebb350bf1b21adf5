"""A drafter a file sets above llama.cpp's timings (llama-server's request field `speculative.n_max`, a
command's `-md`/`--model-draft` or `--draft-max`) made the decodes below it: with no tally of accepted drafts,
each is named by its line and the line that set the drafter, and none is placed as a rate of one pass per
token. A `speculative.n_max` of 0 sets none, and a log that sets none keeps plain decodes."""

from __future__ import annotations

from benchbook.analysis import bandwidth
from benchbook.ingest import llama_timings
from benchbook.presentation import bandwidth as show

PROMPT = "prompt eval time =    7915.24 ms /  8318 tokens (    0.95 ms per token,  1050.88 tokens per second)"
EVAL = "       eval time =    9432.51 ms /   440 tokens (   21.44 ms per token,    46.65 tokens per second)"


def _table(*lines):
    return llama_timings.parse("\n".join(lines), "x.md").table


def test_a_servers_speculative_n_max_makes_the_decodes_below_drafted():
    t = _table("```", "# speculative.n_max: 16", PROMPT, EVAL, "```")
    d = bandwidth.drafted(t)
    assert d == [{"line": 4, "n_gen": 440, "rate": 46.65, "accepted": None, "drafter": 2}]
    assert bandwidth.request_rows(t).empty
    assert show.drafted_note(d).startswith("Line 4 is the decode of a request made with a drafter (set at line 2)")


def test_a_draft_model_on_the_command_line_sets_a_drafter_and_n_max_0_none():
    t = _table("$ llama-server -m big.gguf -md small.gguf --port 8080", PROMPT, EVAL)
    assert set(t["drafter"]) == {1}
    for off in ("# speculative.n_max: 0", "# no draft model"):
        t = _table(off, PROMPT, EVAL)
        assert t["drafter"].isna().all() and not bandwidth.drafted(t) and len(bandwidth.request_rows(t)) == 1
