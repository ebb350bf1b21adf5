"""The in-process report's tests (test_report_in_process.py) in a fresh interpreter, as `benchbook
report` runs: one shell per process, created by the report, not by whichever test of a shared pytest
worker happened to run a chapter first."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchbook import config


@pytest.mark.notebooks
def test_the_in_process_report_holds_in_a_fresh_interpreter():
    tests = Path(__file__).with_name("test_report_in_process.py")
    cmd = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:randomly", "-p", "no:cacheprovider", str(tests)]
    res = subprocess.run(
        cmd, cwd=config.PROJ_ROOT, env={**os.environ, "BENCHBOOK_FRESH_PROCESS": "1"}, capture_output=True, text=True
    )
    assert res.returncode == 0 and " passed" in res.stdout and "skipped" not in res.stdout, res.stdout[-4000:]
