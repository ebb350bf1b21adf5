"""A serving block that prints no `Total generated tokens` line (a write-up's trimmed copy) still gives the
mean output length Little's law estimates a mean latency from: the tool's output throughput is that total
over the duration (vLLM's and SGLang's `output_throughput = sum(output_lens) / dur_s`), so their product
gives it back. A block that prints the total keeps its own count."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.analysis import serving


def _run(**extra):
    row = dict(
        source="a.md",
        run="a",
        completed=160.0,
        duration=175.37,
        request_throughput=0.91,
        output_throughput=934.26,
        ttft_mean=2352.29,
        tpot_mean=30.11,
        max_concurrency=32.0,
    )
    return pd.DataFrame([{**row, **extra}])


def test_no_total_printed_the_output_tokens_are_throughput_times_duration():
    lit = serving.littles_law(_run(total_generated_tokens=np.nan))
    # 934.26 tok/s x 175.37 s = 163,841 tokens over 160 requests: 1,024 each; 2.352 s + 30.11 ms x 1,023
    assert lit["output_tokens_derived"].iloc[0]
    assert np.isclose(lit["mean_e2el_s"].iloc[0], 2.35229 + 0.03011 * (163841.4 / 160 - 1), rtol=1e-4)
    assert 29 < lit["in_flight"].iloc[0] < 31


def test_a_printed_total_is_used_as_printed():
    # the other way: the printed 81,920 tokens (512 each) decide, not the product
    lit = serving.littles_law(_run(total_generated_tokens=81920.0))
    assert not lit["output_tokens_derived"].iloc[0]
    assert np.isclose(lit["mean_e2el_s"].iloc[0], 2.35229 + 0.03011 * 511, rtol=1e-6)
