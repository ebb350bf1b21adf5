"""Ollama's requests (`ollama run --verbose`) carry the prompt the writer typed or piped in, and Ollama has no option
that sets a prompt's length: two of one model with prompts of different lengths (a cover letter of 409 tokens and a
song of 126) are two requests, not "a sweep of the prompt length (-p)", the flag llama-bench sets its prompt with.
llama-bench's own ppN rows of one configuration are still a sweep of -p, and so are a llama-server's requests at
chosen lengths (tests/ingest/test_llama_timings_a_server_requests_cached_prefix_is_its_prompts_depth.py)."""

from __future__ import annotations

from benchbook.analysis import bandwidth, prefill
from benchbook.ingest import llama_bench, llama_timings


def _ollama(prompt: int, rate: float) -> str:
    secs = prompt / rate
    return (
        "$ ollama run --verbose dolphin-phi:2.7b-v2.6-q8_0 < p.txt\n"
        f"total duration:       {secs + 60:.3f}s\nload duration:        10ms\nprompt eval count:    {prompt} token(s)\n"
        f"prompt eval duration: {secs:.6f}s\nprompt eval rate:     {rate:.2f} tokens/s\neval count:           40 token(s)\n"
        "eval duration:        50s\neval rate:            0.80 tokens/s\n"
    )


def test_two_requests_of_different_prompts_are_no_sweep():
    t = llama_timings.parse(_ollama(409, 2.48) + "\n" + _ollama(126, 3.04), "x.md").table
    rows = bandwidth.request_rows(t, "pp_rate")
    assert len(rows) == 2 and set(rows["model"]) == {"dolphin-phi:2.7b-v2.6-q8_0"}
    assert [s for s in prefill.sweeps(rows) if s["setting"] == "n_prompt"] == []


def test_llama_bench_pp_rows_are_still_a_sweep_of_p():
    text = (
        "| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
        "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | pp512 | 4000.00 ± 10.00 |\n"
        "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | pp2048 | 3500.00 ± 10.00 |\n"
    )
    df = llama_bench.parse(text, "b.md").table
    found = [s for s in prefill.sweeps(prefill.prompt_rows(df)) if s["setting"] == "n_prompt"]
    assert len(found) == 1 and [v[0] for v in found[0]["values"]] == [512, 2048]
