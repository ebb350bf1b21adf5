"""llama.cpp's speculative example (examples/speculative) prints, after the text it streamed, the request's
totals (`encoded` / `decoded`, the PoC's `generated`), its tally (`n_accept`) and each model's timings under
`draft:` and `target:`. The `decoded` total is the request's answer, made with a drafter (its accepted drafts:
several tokens from one pass); the `encoded` prompt ran through both models, timed together; the `draft:`
block's evals are draft passes and the `target:` block's verify drafted batches: neither is a request of its
own. A plain timing block with no such tally above it stays a plain request."""

from __future__ import annotations

from benchbook.analysis import bandwidth
from benchbook.ingest import llama_timings

PROMPT = "llama_print_timings: prompt eval time =   363.60 ms /     8 tokens (   45.45 ms per token,    22.00 tokens per second)"
EVAL = "llama_print_timings:        eval time = 27360.44 ms /   214 runs   (  127.85 ms per token,     7.82 tokens per second)"
SPEC = [
    "encoded   14 tokens in    0.054 seconds, speed:  258.250 t/s",
    "decoded  673 tokens in   12.132 seconds, speed:   55.473 t/s",
    "",
    "n_draft   = 5",
    "n_predict = 673",
    "n_drafted = 730",
    "n_accept  = 526",
    "accept    = 72.055%",
    "",
    "draft:",
    "",
    PROMPT,
    EVAL,
    "",
    "target:",
    "",
    PROMPT,
    EVAL,
]


def _parsed(lines):
    return llama_timings.parse("\n".join(lines), "x.md")


def test_the_decoded_total_is_one_request_made_with_a_drafter():
    p = _parsed(["The meaning of life is", "", *SPEC])
    t = p.table
    tg = t[t["metric"] == "tg_rate"]
    assert tg["value"].tolist() == [55.473] and set(tg["n_gen"]) == {673} and set(tg["n_prompt"]) == {14}
    assert set(tg["drafts_accepted"]) == {526} and t["caption"].isna().all()
    assert bandwidth.request_rows(t).empty
    assert bandwidth.drafted(t)[0]["accepted"] == 526
    reasons = set(p.rejected["reason"])
    assert any("both models" in r for r in reasons)
    assert any("draft model's timings" in r for r in reasons) and any("target model's timings" in r for r in reasons)
    assert t[t["metric"] == "pp_rate"].empty  # neither the encoded prompt nor either model's block is a request's


def test_the_2023_poc_total_reads_the_same_and_a_contradicted_speed_is_rejected():
    poc = ["generated 129 tokens in 248.340 seconds, speed: 0.519 t/s", "", "n_accept  = 47"]
    t = _parsed(poc).table
    assert t[t["metric"] == "tg_rate"]["value"].tolist() == [0.519] and set(t["drafts_accepted"]) == {47}
    bad = _parsed(["generated 129 tokens in 248.340 seconds, speed: 5.190 t/s"])
    assert bad.table.empty and any("contradicts 129 tokens" in r for r in bad.rejected["reason"])


def test_without_the_examples_tally_a_block_under_draft_is_a_plain_request():
    t = _parsed(["draft:", PROMPT, EVAL]).table
    assert t[t["metric"] == "tg_rate"]["value"].tolist() == [7.82] and t["drafts_accepted"].isna().all()
