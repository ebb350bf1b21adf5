"""llama.cpp's `-ngl N` offloads every layer where N passes the model's count (its blocks and the output
layer), so an -ngl below 99 says "part of the model" only where a layer count says so: the log's
`offloaded N/M layers to GPU`, or the model table's. Without one, a request's decode is not called partly
offloaded: the page says the output does not say whether that -ngl is every layer, and still places no
GPU roof over it."""

from __future__ import annotations

from benchbook.analysis import bandwidth
from benchbook.ingest import llama_timings
from benchbook.presentation import bandwidth as show

PROMPT = "llama_perf_context_print: prompt eval time =      56.80 ms /    14 tokens (    4.06 ms per token,   246.46 tokens per second)"
EVAL = "llama_perf_context_print:        eval time =   27636.04 ms /   898 runs   (   30.78 ms per token,    32.49 tokens per second)"


def _points(*lines):
    t = llama_timings.parse("\n".join(lines), "x.md").table
    return bandwidth.points(bandwidth.request_rows(t))


def test_ngl_33_with_no_layer_count_is_not_said_partial():
    p = _points("./llama-cli -m llama3.1:8b-instruct-q8_0 -ngl 33 -p hi", PROMPT, EVAL).iloc[0]
    assert p["offload"] == "partial" and bool(p["offload_unsure"])
    note = show.request_note(_points("./llama-cli -m m.gguf -ngl 33", PROMPT, EVAL))
    assert "does not say whether -ngl 33 puts every layer" in note and "Only part" not in note


def test_a_printed_layer_count_decides_full_or_part():
    full = _points("llm_load_tensors: offloaded 33/33 layers to GPU", "./llama-cli -m m.gguf -ngl 33", PROMPT, EVAL)
    assert full.iloc[0]["offload"] == "full" and not full.iloc[0]["offload_unsure"]
    part = _points("llm_load_tensors: offloaded 20/33 layers to GPU", "./llama-cli -m m.gguf -ngl 20", PROMPT, EVAL)
    assert part.iloc[0]["offload"] == "partial" and not part.iloc[0]["offload_unsure"]
