"""A request's label is the writer's name for the block right below it: where it is one model's id
(`Qwen3-0.6B-Q4_1`) the request's model is that model (the log named none); an issue thread's byline
(`ggerganov · comment · 2024-11-24`) is no label, and a long line of prose between a label and the timings
(the document's title above a paragraph) ends it."""

from __future__ import annotations

from benchbook.ingest import context, llama_timings

PROMPT = "common_perf_print: prompt eval time =     532.78 ms /   235 tokens (    2.27 ms per token,   441.08 tokens per second)"
EVAL = "common_perf_print:        eval time =    5592.80 ms /   256 runs   (   21.85 ms per token,    45.77 tokens per second)"


def _table(*lines):
    return llama_timings.parse("\n".join(lines), "x.md").table


def test_a_model_id_label_names_the_requests_model_and_a_word_label_none():
    t = _table("Qwen3-0.6B-Q4_1", PROMPT, EVAL, "master,", PROMPT, EVAL)
    models = t.groupby("request")["model"].first()
    assert models[1] == "Qwen3-0.6B-Q4_1" and (models[2] is None or models[2] != models[2])
    assert context.model_id("Qwen3.5-9B-Q5_K_M.gguf") is None and context.model_id("rx 6800 only") is None


def test_a_byline_or_a_paragraph_below_a_label_labels_no_request():
    t = _table("ggerganov · comment · 2024-11-24", PROMPT, EVAL)
    assert t["caption"].isna().all()
    t = _table(
        "# Support speculative decoding in server example",
        "I also ran some smaller scale tests, which I wanted to share to bring some additional perspective:",
        PROMPT,
        EVAL,
    )
    assert t["caption"].isna().all()
    assert set(_table("rx 6800 only:", PROMPT, EVAL)["caption"]) == {"rx 6800 only"}
