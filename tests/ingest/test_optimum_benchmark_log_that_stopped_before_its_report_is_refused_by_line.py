"""optimum-benchmark's console log of a run whose isolated process failed before any report is refused at
the line where the main process received the traceback; a log with its report is not."""

from __future__ import annotations

from benchbook.ingest import optimum_benchmark

E = "\x1b[31m"
R = "\x1b[0m"
FAILED = (
    f"[ISOLATED-PROCESS][2025-05-30 14:46:34,803][energy-star][INFO] - \t+ Running dataset preprocessing{R}\n"
    f"[ISOLATED-PROCESS][2025-05-30 14:46:42,249][process][{E}ERROR{R}] - \t+ Sending traceback string{R}\n"
    f"[MAIN-PROCESS][2025-05-30 14:46:42,265][process][{E}ERROR{R}] - \t+ Received traceback from isolated process{R}\n"
)
REPORT = "[report][INFO] - + prefill:\n[report][INFO] - \t+ energy:\n[report][INFO] - \t\t+ gpu: 0.074682 (kWh)\n"


def test_a_log_that_stopped_in_a_traceback_is_named_where_it_was_received():
    line, why = optimum_benchmark.refuses(FAILED)
    assert line == 3
    assert "before any report was logged: nothing was measured" in why


def test_a_log_with_its_report_after_a_failed_invocation_is_not_this_refusal():
    assert optimum_benchmark.refuses(FAILED + REPORT) is None
