"""vLLM bench serve's `Peak output token throughput` counts, per whole second, one per token timestamp (the first
token's, then one per ITL gap), and vLLM's client keeps one ITL gap per streamed chunk: a printed peak below
total output tokens / (ceil(duration) + 1), the least the fullest second of a count of those tokens could hold,
is a count of chunks (speculative decoding: 2.54 tokens per step), flagged and never a token rate. A peak above
that bound, a short run whose bucket rounding allows it, and SGLang's bench_serving (which splits each chunk's
gap over its tokens, so its peak counts tokens) are not flagged."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import serving
from benchbook.claims import serving as cs


def _run(**kw) -> dict:
    row = dict(
        tool="vllm-bench-serve",
        run="rate=0.3",
        peak_output_throughput=51.0,
        output_throughput=60.91,
        total_generated_tokens=52085.0,
        duration=855.12,
        itl_mean=335.83,
        tpot_mean=127.0,
        spec_decode_acceptance_length=2.54,
        peak_output_throughput_line=26,
    )
    row.update(kw)
    return row


def test_a_vllm_peak_below_its_tokens_is_flagged_as_chunks_with_the_tokens_per_step():
    low = serving.peak_output_below_mean(pd.DataFrame([_run()]))
    assert len(low) == 1
    w = low.iloc[0]
    assert (w["peak"], w["mean"], w["line"], w["per_step"]) == (51.0, 60.91, 26, 2.54)
    assert round(w["per_chunk"], 2) == 2.64  # 335.83 / 127.00


def test_a_peak_above_the_mean_is_not_flagged():
    assert serving.peak_output_below_mean(pd.DataFrame([_run(peak_output_throughput=288.0)])).empty


def test_a_short_runs_bucket_rounding_is_not_flagged():
    # 1,000 tokens over 2.1 s: 476 tok/s on average, but 4 buckets (ceil(2.1) + 1), so a per-token peak of 300 fits
    short = _run(total_generated_tokens=1000.0, duration=2.1, output_throughput=476.19, peak_output_throughput=300.0)
    assert serving.peak_output_below_mean(pd.DataFrame([short])).empty


def test_sglangs_peak_counts_tokens_and_is_not_read():
    assert serving.peak_output_below_mean(pd.DataFrame([_run(tool="sglang-bench-serving")])).empty


def test_the_tpot_itl_claim_states_it_even_without_tpot_and_itl_in_the_copy():
    r = pd.DataFrame([_run(itl_mean=float("nan"), tpot_mean=float("nan"), spec_decode_acceptance_length=float("nan"))])
    c = cs.tpot_itl(r)
    assert c.status == "shown"
    assert c.evidence["peak_low"] == 1 and c.evidence["peak_value"] == 51.0
    calm = pd.DataFrame([_run(peak_output_throughput=288.0)])
    assert cs.tpot_itl(calm).evidence["peak_low"] == 0
