"""The writer's label of a timing block names its run ("rx 6800 only:", "`b2474`"). A lead-in is a sentence that
says a block follows, `Speeds are:`, `Compiled with:`, `Results look like:`: it ends in a verb or in the
preposition its block completes, and names no run. A line after one ending in `\\` continues that command
(`-fa -mg 0 -ub 2048`): no label either, and the shell joins the backslash away, so a quoted `-m '/x/y.gguf'`
on such a line is the file `y.gguf`."""

from __future__ import annotations

from benchbook.ingest import llama_timings

TIMING = (
    "```\n"
    "prompt eval time =     9258.01 ms /   740 tokens (   12.51 ms per token,    79.93 tokens per second)\n"
    "       eval time =  155399.04 ms /  1138 tokens (  136.55 ms per token,     7.32 tokens per second)\n"
    "```\n"
)


def _first(text: str, column: str):
    t = llama_timings.parse(text, "x.md").table
    v = t[column].iloc[0] if column in t else None
    return v if isinstance(v, str) else None


def test_a_lead_in_names_no_run():
    for lead in ("Speeds are:", "Compiled with:", "Results look like:", "The output was as follows:"):
        assert _first(f"{lead}\n\n{TIMING}", "caption") is None, lead


def test_a_noun_phrase_label_still_names_its_block():
    for label, want in (
        ("rx 6800 only:", "rx 6800 only"),
        ("`b2474`", "b2474"),
        ("Speeds with -fmoe:", "Speeds with -fmoe"),
    ):
        assert _first(f"{label}\n\n{TIMING}", "caption") == want


def test_a_commands_continued_line_is_no_label_and_its_quoted_model_is_the_file():
    command = (
        "```\n./llama-server -m '/models_llm/DeepSeek-R1-0528-Q3_K_XL.gguf' -c 16384 \\\n-fa -mg 0 -ub 2048\n```\n\n"
    )
    assert _first(command + TIMING, "caption") is None
    assert _first(command + TIMING, "model_file") == "DeepSeek-R1-0528-Q3_K_XL.gguf"
    # the same flags on a line of their own, no backslash above: the writer's words, read as a label
    assert _first("-fa -mg 0 -ub 2048\n\n" + TIMING, "caption") == "-fa -mg 0 -ub 2048"
