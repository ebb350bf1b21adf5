"""`benchbook report` ends its process without the interpreter's teardown once the report is written
and its line printed (`cli._leave`); a refused report, and every other command, end as Python ends."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import benchbook
from benchbook import config

FIXTURE = config.PROJ_ROOT / "tests" / "fixtures" / "attention-gym" / "rtx4090_flex_attn_noop.md"
#: The command as the console script runs it, with a handler that says when Python tears down.
COMMAND = (
    "import atexit, sys; atexit.register(lambda: print('torn down', file=sys.stderr)); "
    "from benchbook.cli import app; sys.argv = ['benchbook', *sys.argv[1:]]; app()"
)


def _run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(Path(benchbook.__file__).resolve().parents[1])}
    env.pop(config.READS_LOG_ENV, None)
    return subprocess.run(
        [sys.executable, "-c", COMMAND, *args],
        cwd=config.PROJ_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_a_written_report_ends_at_once_with_its_line_printed(tmp_path):
    res = _run("report", str(FIXTURE), "-o", str(tmp_path / "r"))
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("report: ") and "1 chapter page" in res.stdout
    assert "torn down" not in res.stderr
    index = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    assert 'class="benchbook-report"' in index
    assert (tmp_path / "r" / "attention_kernels.html").is_file()


def test_a_refused_report_ends_as_python_ends(tmp_path):
    missing = tmp_path / "no_such_file.md"
    res = _run("report", str(missing), "-o", str(tmp_path / "r"))
    assert res.returncode == 2
    assert "no such file" in res.stderr and "Traceback" not in res.stderr
    assert "torn down" in res.stderr


def test_another_command_ends_as_python_ends():
    res = _run("--version")
    assert res.returncode == 0 and res.stdout.startswith("benchbook ")
    assert "torn down" in res.stderr
