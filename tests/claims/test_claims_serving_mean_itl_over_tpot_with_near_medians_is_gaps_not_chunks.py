"""vLLM's and SGLang's serving benchmarks take a request's TPOT as (E2EL - TTFT) / (output tokens - 1) and pool
every gap between streamed chunks into ITL. Chunks of k tokens each make every gap k tokens' time, so the
median ITL stands as far over the median TPOT as the mean does. A mean ITL far over the mean TPOT whose median
ITL is close to the median TPOT (and whose mean is above the ITL's own p99) is a few long gaps in the stream,
not chunks of several tokens: the page says so, and the bandwidth claim reads no tokens per chunk from it.
A run whose medians are as far apart as its means, or between one token's time (`ONE_TOKEN_GAP`) and the
chunk factor, or that states speculative decoding, is still read as chunks of several tokens."""

from __future__ import annotations

import pandas as pd

from benchbook.claims import serving as cs
from benchbook.presentation import wording


def _run(itl_median: float, tpot_median: float) -> pd.DataFrame:
    # the DGX Spark 09-reasoning run (Nemotron-3-Nano-Omni): mean ITL 379.71, mean TPOT 145.08, p99 ITL 372.34
    return pd.DataFrame(
        [
            dict(
                run="rate=0.2",
                tpot_mean=145.08,
                itl_mean=379.71,
                itl_median=itl_median,
                tpot_median=tpot_median,
                itl_p99=372.34,
                ttft_mean=651.77,
                e2el_mean=582602.37,
            )
        ]
    )


def test_near_medians_are_gaps_not_chunks():
    c = cs.tpot_itl(_run(160.95, 146.35))
    assert c.evidence["gapped"] == 1 and c.evidence["bunched"] == 0
    text = wording.word("serving_saturation", c).text
    assert "a few long gaps" in text and "above the ITL's own p99 (372.3 ms)" in text
    assert "0.4x" not in text and "is only 1.1x its median TPOT" in text
    assert "each streamed chunk carried several tokens" not in text


def test_medians_as_far_apart_as_the_means_are_chunks():
    c = cs.tpot_itl(_run(380.0, 146.35))
    assert c.evidence["bunched"] == 1 and not c.evidence.get("gapped")
    assert "each streamed chunk carried several tokens" in wording.word("serving_saturation", c).text


def test_medians_between_one_token_and_the_chunk_factor_decide_nothing():
    c = cs.tpot_itl(_run(1.4 * 146.35, 146.35))  # 1.4x: neither about one token's time nor the means' 2.6x
    assert not c.evidence.get("gapped") and c.evidence["bunched"] == 1


def test_a_run_that_states_speculative_decoding_is_not_gapped():
    r = _run(160.95, 146.35).assign(metadata="speculative=mtp", spec_decode_acceptance_length=2.6)
    c = cs.tpot_itl(r)
    assert not c.evidence.get("gapped") and c.evidence["bunched"] == 1


def test_a_gapped_run_gives_no_tokens_per_chunk_to_the_bandwidth_claim():
    row = _run(160.95, 146.35).iloc[0]
    assert cs._chunks(row, dict(tokens_per_step=1.0, achieved=43.0)) == {}
    far = _run(380.0, 146.35).iloc[0]
    assert cs._chunks(far, dict(tokens_per_step=1.0, achieved=43.0))["chunk_tokens"] > 2
