"""SGLang bench_latency / bench_one_batch lines the batch chapter cannot read are refused naming their line:
the first bench_latency's per-step lines (no median, average or Total line; seconds labelled `ms`) and the
per-forward-pass frame of PR #4666."""

from __future__ import annotations

from benchbook.ingest import sglang_one_batch as s

#: sgl-project/sglang PR #564's console (the first bench_latency): time.time() differences printed as `ms`.
EARLY = """>>> python -m sglang.bench_latency --model-path meta-llama/Meta-Llama-3-8B-Instruct --load-format dummy --tp 2

Prefill. latency:  5.021 ms, throughput:    203.93 token/s
Decode.  latency:  0.331 ms, throughput:      3.02 token/s
Decode.  latency:  0.010 ms, throughput:    102.95 token/s
"""
FRAME = """```
  forward_mode    throughput   latency  batch_size  num_tokens
0       EXTEND  18538.560266  0.110472           2        2048
1       DECODE     21.296126  0.093914           2           2
```
"""


def test_per_step_lines_without_a_median_or_total_are_refused_at_the_first_and_ms_read_as_seconds():
    line, why = s.refuses(EARLY)
    assert line == 3
    assert "no median, average or 'Total.' line" in why
    assert "labelled ms are seconds (line 4: 0.331 x 3.02 token/s = 1.0 token per step" in why


def test_lines_labelled_in_seconds_say_nothing_of_a_unit():
    line, why = s.refuses(EARLY.replace(" ms,", " s,"))
    assert line == 3 and "labelled ms" not in why


def test_a_console_with_its_median_and_total_is_not_refused():
    whole = (
        EARLY + "Decode.  median latency: 0.01000 s, median throughput:    100.00 token/s\nTotal. latency:  5.361 s\n"
    )
    assert s.refuses(whole) is None


def test_the_per_forward_pass_frame_is_refused_naming_its_header():
    line, why = s.refuses(FRAME)
    assert line == 2 and "per-forward-pass frame" in why and "2 rows" in why
    assert s.refuses(FRAME.replace("forward_mode", "mode")) is None
