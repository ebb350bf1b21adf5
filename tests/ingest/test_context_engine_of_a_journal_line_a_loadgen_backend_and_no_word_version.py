"""Three engine facts by how their writers print them: a journald line's `ident[pid]:` names the program that
wrote it (Ollama's embedded llama.cpp server under `ollama[420]`); an MLPerf LoadGen log's harness `backend:`
is the engine LoadGen's system under test runs in-process (a serving client's `Backend:` is the API it posts to);
a version holds a number, so AMD's harness's `engine_version: sync` (the engine's mode) is none."""

from __future__ import annotations

from benchbook.ingest import context

JOURNAL = (
    "Aug  2 20:54:27 ollama-ubuntu-jammy ollama[420]: DEBUG [print_timings] generation eval time =     155.06 ms /"
    "    10 runs   (   15.51 ms per token,    64.49 tokens per second)"
)
SUMMARY = ["================================================", "MLPerf Results Summary", "SUT name : PySUT"]


def facts(lines: list[str], name: str) -> list[tuple[str, int]]:
    return [(f.value, f.line) for f in context.read(lines).get(name)]


def test_a_journal_line_of_ollama_names_ollama_once():
    assert facts([JOURNAL, JOURNAL.replace("155.06", "155.07")], "engine") == [("Ollama", 1)]


def test_a_journal_line_of_another_program_names_no_engine():
    assert facts([JOURNAL.replace("ollama[420]", "kernel[1]")], "engine") == []
    assert facts(["ollama[420]: DEBUG [print_timings] total time = 264.77 ms"], "engine") == []


def test_a_loadgen_logs_harness_backend_is_the_engine():
    assert facts([*SUMMARY, "backend: vllm", "engine_version: sync"], "engine") == [("vLLM", 4)]


def test_a_backend_key_outside_a_loadgen_log_names_no_engine():
    assert facts(["backend: vllm", "engine_version: sync"], "engine") == []


def test_a_word_under_a_version_key_is_no_version():
    assert facts([*SUMMARY, "backend: vllm", "engine_version: sync"], "version") == []
    assert facts(["engine_version: 0.9.2"], "version") == [("0.9.2", 1)]
