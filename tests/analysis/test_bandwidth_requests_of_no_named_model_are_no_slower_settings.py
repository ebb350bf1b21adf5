"""Two requests timed one each whose model nothing in the output names (two `ollama run --verbose` blocks under the
writer's `## Gemma` and `## Qwen` headings, the models only in those headings) may be two models as well as one:
the roofline still places one of them, but does not call the other a slower setting of the placed one's model
(the page said "slower settings: test tg1399 (placed: tg583)" of gemma 3 4B beside qwen3-vl 2B). Requests of one
named model, or of one loaded llama.cpp context (one printed load time), are still ranked as before."""

from __future__ import annotations

from benchbook.analysis import bandwidth
from benchbook.ingest import llama_timings


def _block(count: int, secs: float) -> str:
    return (
        f"total duration:       {secs + 1:.3f}s\nload duration:        100ms\nprompt eval count:    16 token(s)\n"
        f"prompt eval duration: 1s\nprompt eval rate:     16.00 tokens/s\neval count:           {count} token(s)\n"
        f"eval duration:        {secs:.3f}s\neval rate:            {count / secs:.2f} tokens/s\n"
    )


def _why(text: str) -> list[str]:
    t = llama_timings.parse(text, "x.md").table
    _, every = bandwidth.reduce(bandwidth.request_rows(t))
    return every.sort_values("line")["why_dropped"].tolist()


def test_two_requests_of_no_named_model_are_not_one_models_settings():
    why = _why("## Gemma:\n\n" + _block(1399, 85.0) + "\n## Qwen:\n\n" + _block(583, 33.86))
    assert why[1] == ""
    assert why[0].startswith(bandwidth.UNNAMED_APART)
    assert not any(w.startswith("slower settings") for w in why)


def test_requests_of_one_named_model_are_still_ranked():
    text = (
        "$ ollama run --verbose qwen3:4b\n"
        + _block(1399, 85.0)
        + "\n$ ollama run --verbose qwen3:4b\n"
        + _block(583, 33.86)
    )
    why = _why(text)
    assert why[1] == "" and why[0].startswith(bandwidth.REPEAT)
    text = (
        "$ ollama run --verbose qwen3:4b\n"
        + _block(1399, 85.0)
        + "\n$ ollama run --verbose qwen3:8b\n"
        + _block(583, 33.86)
    )
    assert _why(text) == ["", ""]  # two named models: each placed


def test_requests_of_one_loaded_context_are_one_model():
    load = "llama_print_timings:        load time =     348.01 ms"
    prompt = "llama_print_timings: prompt eval time =     140.93 ms /     9 tokens (   15.66 ms per token,    63.86 tokens per second)"
    ev1 = "llama_print_timings:        eval time =     664.51 ms /    38 runs   (   17.49 ms per token,    57.18 tokens per second)"
    ev2 = "llama_print_timings:        eval time =    2120.77 ms /    99 runs   (   21.42 ms per token,    46.68 tokens per second)"
    why = _why("\n".join([load, prompt, ev1, "", load, prompt, ev2]))
    assert why[0] == "" and not why[1].startswith(bandwidth.UNNAMED_APART)
