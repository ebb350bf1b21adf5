"""vLLM's and SGLang's `Peak concurrent requests` counts, per whole second, every request in flight at any moment
of that second (`concurrent_requests_per_second`): above the cap it is that counting (a request that ends and
its replacement in the same second), flagged with its line and never the load; at or under the cap it is the
most in flight during one second, said with that definition."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import serving
from benchbook.presentation import serving as show

BLOCK = """============ Serving Benchmark Result ============
Backend:                                 sglang
Traffic request rate:                    inf
Max request concurrency:                 {cap}
Successful requests:                     480
Benchmark duration (s):                  838.86
Total input tokens:                      1920000
Total generated tokens:                  720000
Request throughput (req/s):              0.57
Output token throughput (tok/s):         858.31
Peak output token throughput (tok/s):    1102.00
Peak concurrent requests:                {peak}
Total token throughput (tok/s):          3147.14
Concurrency:                             47.99
----------------End-to-End Latency----------------
Mean E2E Latency (ms):                   83871.51
==================================================
"""


def _peaks(tmp_path, cap: int, peak: int) -> pd.DataFrame:
    f = tmp_path / "run.txt"
    f.write_text(BLOCK.format(cap=cap, peak=peak), encoding="utf-8")
    r, _ = serving.load([f])
    return serving.peak_in_flight(r)


def test_a_peak_above_the_cap_is_flagged_with_its_line_and_never_the_load(tmp_path):
    peaks = _peaks(tmp_path, 48, 96)
    assert peaks[["peak", "cap", "line", "over"]].values.tolist() == [[96.0, 48.0, 12, True]]
    text = show.peak_sentence(peaks)
    assert "96 at a cap of 48 (line 12)" in text and "never taken as the load" in text
    assert "at most that many in flight" not in text


def test_a_peak_at_the_cap_is_the_most_in_flight_during_one_second(tmp_path):
    peaks = _peaks(tmp_path, 48, 48)
    assert peaks["over"].tolist() == [False]
    text = show.peak_sentence(peaks)
    assert "prints 48 (line 12): at most that many in flight during any one second" in text
    assert "never taken as the load" not in text


def test_no_peak_printed_says_nothing():
    assert show.peak_sentence(serving.peak_in_flight(pd.DataFrame({"run": ["a"], "max_concurrency": [8.0]}))) == ""
