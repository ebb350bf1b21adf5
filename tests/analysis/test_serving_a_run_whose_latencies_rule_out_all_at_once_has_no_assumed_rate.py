"""A run that prints no request rate is taken at the tool's default, every request sent at once; but then the
run lasts as long as its longest request, and of n requests at least ceil(n / 2) last the median or longer,
so the longest lasts at most n x mean - (ceil(n / 2) - 1) x median. A run far longer than that (requests sent
one after another, at a cap or rate the output does not print) has no assumed rate: its load is unknown.
A run whose numbers allow all at once, one with a cap, and one with failed requests are not judged so."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.analysis import serving
from benchbook.ingest import vllm_serve


def _block(n: int, duration: float, mean_ms: float, median_ms: float, extra: tuple[str, ...] = ()) -> str:
    rows = [
        "============ Serving Benchmark Result ============",
        *extra,
        f"Successful requests:                     {n}",
        f"Benchmark duration (s):                  {duration:.2f}",
        "Total input tokens:                      10000",
        "Total generated tokens:                  10000",
        f"Request throughput (req/s):              {n / duration:.2f}",
        f"Output token throughput (tok/s):         {10000 / duration:.2f}",
        "----------------End-to-end Latency----------------",
        f"Mean E2EL (ms):                          {mean_ms:.2f}",
        f"Median E2EL (ms):                        {median_ms:.2f}",
        "==================================================",
    ]
    return "\n".join(rows) + "\n"


def _run(text: str) -> pd.Series:
    return serving.runs(vllm_serve.parse(text, "b.txt").table).iloc[0]


def test_requests_sent_one_after_another_rule_out_all_at_once():
    # 10 requests of 2 s each, one at a time: 20 s; all at once the longest could last at most 20 - 4 x 2 = 12 s
    r = _run(_block(10, 20.0, 2000, 2000, ("Failed requests:                         0",)))
    assert r["at_once_longest"] == 12.0
    assert bool(r["at_once_refuted"]) and not bool(r["rate_assumed"])
    assert np.isnan(r["request_rate"])


def test_a_run_as_long_as_its_longest_request_keeps_the_default_rate():
    # 100 requests all sent at t=0 whose latencies spread from 1 s to 40 s: mean 20 s, median 20 s, run 40 s
    r = _run(_block(100, 40.0, 20000, 20000, ("Failed requests:                         0",)))
    assert r["at_once_longest"] == 100 * 20 - 49 * 20
    assert not bool(r["at_once_refuted"]) and bool(r["rate_assumed"])
    assert np.isinf(r["request_rate"])


def test_a_capped_run_or_one_with_failures_is_not_judged():
    capped = _run(_block(10, 20.0, 2000, 2000, ("Maximum request concurrency:             1",)))
    assert np.isnan(capped["at_once_longest"]) and not bool(capped["at_once_refuted"])
    failed = _run(_block(10, 20.0, 2000, 2000, ("Failed requests:                         3",)))
    assert np.isnan(failed["at_once_longest"]) and bool(failed["rate_assumed"])


def test_a_total_requests_row_is_the_prompts_sent_and_a_latencies_section_the_e2el():
    text = _block(10, 20.0, 2000, 2000, ("Total requests:                          12",)).replace(
        "----------------End-to-end Latency----------------", "--------------------Latencies---------------------"
    )
    text = text.replace("Mean E2EL (ms)", "Mean Latency (ms)").replace("Median E2EL (ms)", "Median Latency (ms)")
    r = _run(text)
    assert r["num_prompts"] == 12 and r["failed"] == 2  # sent 12, 10 completed: 2 failed
    assert r["e2el_mean"] == 2000.0 and r["e2el_median"] == 2000.0
