"""A llama-batched-bench point's time is its generation phase (TG decode steps timed together), so
a flat latency is said of that phase, never of a generate() call or of one timed decode step, and
the tool's missing "msec/token" is said as the tool's own format."""

import pandas as pd

from benchbook.analysis.batched_bench import GENERATION
from benchbook.claims import batch as cb
from benchbook.presentation import batch as show
from benchbook.presentation import wording


def _flat_text(timed):
    flat = pd.DataFrame({"batch_size": [1, 2, 4], "latency_s": [3.079, 3.09, 3.1]})
    flat = flat.assign(timed=timed) if timed else flat
    led = wording.ledger("batch_saturation", ["x.md"], [cb.latency_flat(flat)])
    return led.get("latency_flat").text


def test_a_flat_generation_phase_is_said_of_that_phase():
    text = _flat_text(GENERATION)
    assert "the generation phase (all its decode steps, prompt not in it) takes 3.079 to 3.100 s" in text
    assert "generate() call" not in text and "one decode step takes" not in text
    assert "one generate() call takes" in _flat_text(None)


def test_the_wait_per_token_of_a_generation_phase_names_the_tool():
    row = pd.Series(
        dict(
            batch_size=32,
            timed=GENERATION,
            throughput_tok_s=465.4,
            tool_ms_per_token=float("nan"),
            latency_s=8.801,
            new_tokens=128.0,
            per_sequence_ms_per_token=8.801 / 128 * 1000,
        )
    )
    text = show.ms_sentence(row)
    assert text.startswith('llama-batched-bench prints no "msec/token". At batch 32 each sequence waited 8.801 s')
    assert "68.8 ms per token" in text and "2.15 ms (1000 / 465.4 tok/s)" in text
    assert "SGLang" not in show.ms_sentence(row.drop("timed")) and "llama-batched" not in show.ms_sentence(
        row.drop("timed")
    )
