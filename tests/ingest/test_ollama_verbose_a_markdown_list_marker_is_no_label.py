"""A writer who pastes `ollama run --verbose`'s stats into a Markdown list puts a marker (`- `, `* `, `1. `) before
each line: the marker is the list's layout, as a quote's `> ` is, not a label naming a run. The lines are still one
block of ONE request, read whole: its counts beside its rates, each rate checked against its count and duration.
A re-typed line of several fields keeps its own label after the marker."""

from __future__ import annotations

from benchbook.ingest import llama_timings, ollama_verbose

STATS = [
    "total duration:       59.858306515s",
    "load duration:        1.957376717s",
    "prompt eval count:    97 token(s)",
    "prompt eval duration: 676.811115ms",
    "prompt eval rate:     143.32 tokens/s",
    "eval count:           453 token(s)",
    "eval duration:        57.126868699s",
    "eval rate:            7.93 tokens/s",
]


def _table(marker: str):
    text = '```shell\nollama run --verbose codestral:22b "hi"\n```\n\n' + "\n".join(marker + s for s in STATS) + "\n"
    return llama_timings.parse(text, "x.md").table


def test_a_listed_block_is_one_request_read_whole():
    for marker in ("- ", "* ", "+ ", "1. ", "> - "):
        t = _table(marker)
        assert set(t["request"]) == {1}, marker
        assert t["caption"].isna().all(), marker
        assert set(t["n_gen"]) == {453} and set(t["n_prompt"]) == {97}, marker
        assert set(t["model"]) == {"codestral:22b"}, marker


def test_the_unlisted_block_reads_the_same():
    listed, plain = _table("- "), _table("")
    assert sorted(listed["value"]) == sorted(plain["value"])


def test_a_listed_rate_is_checked_against_its_count_and_duration():
    bad = [s.replace("7.93", "9.93") for s in STATS]
    text = "\n".join("- " + s for s in bad) + "\n"
    rejects: list = []
    blocks = ollama_verbose.blocks(text.splitlines(), rejects)
    assert len(blocks) == 1
    v = blocks[0]["values"]
    assert ollama_verbose.check(v["eval count"][0], v["eval duration"][0], v["eval rate"][0]) is not None


def test_a_retyped_runs_label_after_the_marker_is_kept():
    got = ollama_verbose.row("- qwen3  0.15.4-rocm  prompt eval rate: 179.80 tokens/s  eval rate: 31.69 tokens/s")
    assert got is not None and got[0] == "qwen3  0.15.4-rocm"
    assert ollama_verbose.blocks(["- qwen3  0.15.4-rocm  eval rate: 31.69 tokens/s"])[0]["model"] == "qwen3"
