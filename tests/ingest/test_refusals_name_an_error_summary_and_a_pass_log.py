"""Two outputs of tools benchbook reads that hold no run a chapter reads are refused in one sentence
naming their line: AIPerf's Error Summary copied without the LLM Metrics table (every request failed,
so there is no serving run), and optimum-benchmark's 2023 console log of forward/generate-pass
latencies (no energy, which is what this book reads of optimum-benchmark). A file that holds the
tool's run is not refused by either rule."""

from __future__ import annotations

from benchbook import config
from benchbook.ingest import aiperf_console, optimum_benchmark

ERRORS = """I'm trying to run the benchmark using the aiperf tool.

┏━━━━━━┳━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━┓
┃ Code ┃        Type ┃ Message               ┃ Count ┃
┡━━━━━━╇━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━┩
│  400 │ Bad Request │ {"object":"error", ...│   500 │
│      │             │ "code":400}           │       │
└──────┴─────────────┴───────────────────────┴───────┘
"""

PASSES = """```
[2023-12-06 09:45:25,473][inference][INFO] -    + Tracking forward pass latency and throughput
[2023-12-06 09:45:35,501][inference][INFO] -    + Forward pass latency: 1.22e-02 (s)
[2023-12-06 09:45:35,502][inference][INFO] -    + Forward pass throughput: 82.00 (samples/s)
"""


def test_an_error_summary_alone_is_refused_at_its_header_with_its_count():
    line, why = aiperf_console.refuses(ERRORS)
    assert line == 4
    assert "500 failed requests" in why


def test_an_error_summary_beside_the_llm_metrics_is_no_refusal():
    assert aiperf_console.refuses("NVIDIA AIPerf | LLM Metrics\n" + ERRORS) is None


def test_a_2023_pass_log_is_refused_at_its_first_measurement():
    line, why = optimum_benchmark.refuses(PASSES)
    assert line == 3 and "Forward pass" in why


def test_a_report_log_is_no_refusal():
    log = config.FIXTURES_DIR / "optimum-benchmark/benchlab_llama31_8b_energy_star_console_benchmark.log"
    assert optimum_benchmark.refuses(log.read_text(encoding="utf-8")) is None
