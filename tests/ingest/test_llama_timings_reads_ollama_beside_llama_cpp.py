"""Ollama's `--verbose` stats and llama.cpp's own timings in one file are each their request (an issue
comparing `ollama run` with llama-cli), numbered in turn; a stats block whose prompt and eval counts are
those of a llama.cpp request of the file is that request's (Ollama's server log prints its runner's
timings of the request the client summarises), not read twice. `ollama run --verbose MODEL`: a flag is no
model."""

from __future__ import annotations

from benchbook.ingest import llama_timings, ollama_verbose

STATS = [
    "vulkan$ ollama run --verbose gpt-oss:20b hi",
    "total duration:       5.245348617s",
    "load duration:        165.261292ms",
    "prompt eval count:    68 token(s)",
    "prompt eval duration: 133.71568ms",
    "prompt eval rate:     508.54 tokens/s",
    "eval count:           38 token(s)",
    "eval duration:        4.917218578s",
    "eval rate:            7.73 tokens/s",
]
CLI = [
    "llama_perf_context_print: prompt eval time =      55.87 ms /    70 tokens (    0.80 ms per token,  1252.82 tokens per second)",
    "llama_perf_context_print:        eval time =    1000.00 ms /    40 runs   (   25.00 ms per token,    40.00 tokens per second)",
]
SAME = [
    "llama_print_timings: prompt eval time =     133.72 ms /    68 tokens (    1.97 ms per token,   508.54 tokens per second)",
    "llama_print_timings:        eval time =    4917.22 ms /    38 runs   (  129.40 ms per token,     7.73 tokens per second)",
]


def _table(lines):
    return llama_timings.parse("\n".join(lines), "x.md")


def test_stats_beside_another_programs_timings_are_two_requests():
    t = _table([*STATS, "", "In comparison llama.cpp:", *CLI]).table
    tg = t[t["metric"] == "tg_rate"].sort_values("request")
    assert tg["value"].tolist() == [40.0, 7.73] and tg["request"].tolist() == [1, 2]
    assert set(t[t["format"] == ollama_verbose.FORMAT]["model"]) == {"gpt-oss:20b"}


def test_stats_of_the_request_the_log_timed_are_not_read_twice():
    p = _table([*SAME, "", *STATS])
    tg = p.table[p.table["metric"] == "tg_rate"]
    assert tg["value"].tolist() == [7.73] and set(tg["request"]) == {1}
    assert any("same request" in r for r in p.rejected["reason"])
