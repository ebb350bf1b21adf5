"""Nothing stuck, nothing crossed: a killed build or run leaves no worker, no lock and no hidden file
behind; a FIFO is refused before it is read; one `benchbook run` per output folder; a run writes
only inside its folder.

The build and run tests use a throwaway project (BENCHBOOK_ROOT) with one tiny chapter, so they
stay quick enough for the normal suite."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook
from typer.testing import CliRunner

from benchbook import build, config, ingest, rerun
from benchbook.cli import app

REPO = Path(__file__).resolve().parents[2]


#: The chapter records its kernel's pid and its parent's (the build worker), then sleeps SLOW_WAIT s.
MARK = (
    "import os, time\nfrom pathlib import Path\n"
    "Path(os.environ['BENCHBOOK_ROOT'], 'pids').write_text(f'{os.getpid()} {os.getppid()}')\n"
    "time.sleep(float(os.environ.get('SLOW_WAIT', '0')))\nprint('done')"
)


def _project(root: Path) -> Path:
    (root / "notebooks").mkdir(parents=True)
    (root / "book").mkdir()
    (root / "data").mkdir()
    for f in ("_config.yml", "requirements.txt"):
        (root / f).write_bytes((REPO / f).read_bytes())
    (root / "_toc.yml").write_text("format: jb-book\nroot: book/intro\nchapters:\n  - file: notebooks/slow\n")
    (root / "book" / "intro.md").write_text("# Intro\n")
    nb = new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [new_markdown_cell("# Slow\n\nWrites who ran it, then waits."), new_code_cell(MARK)]
    nbformat.write(nb, root / "notebooks" / "slow.ipynb")
    return root


def _env(root: Path, wait: int = 0) -> dict:
    env = {**os.environ, "BENCHBOOK_ROOT": str(root), build.PACKAGE_HASH_ENV: "pinned", "SLOW_WAIT": str(wait)}
    env.pop(config.READS_LOG_ENV, None)
    return env


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone for our purpose
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def _wait_for(cond, limit: float, what: str, proc: subprocess.Popen | None = None) -> None:
    end = time.monotonic() + limit
    while not cond():
        if proc is not None and proc.poll() is not None:
            pytest.fail(f"{what}: the command ended first (exit {proc.returncode})")
        if time.monotonic() > end:
            pytest.fail(f"{what} after {limit:.0f} s")
        time.sleep(0.2)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="worker death signal is Linux-only")
def test_sigkilled_build_leaves_no_worker_and_the_next_build_runs(tmp_path):
    root = _project(tmp_path / "proj")
    cmd = [sys.executable, "-m", "benchbook.build", "--no-render", "--jobs", "1"]
    proc = subprocess.Popen(cmd, cwd=root, env=_env(root, 300), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pids = root / "pids"
    _wait_for(lambda: pids.is_file() and pids.read_text(), 120, "the chapter never started", proc)
    kernel, worker = (int(x) for x in pids.read_text().split())
    assert worker != proc.pid  # the chapter runs in a worker process, under its own kernel
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    _wait_for(lambda: not _alive(worker), 30, "the build worker outlived the killed build")
    _wait_for(lambda: not _alive(kernel), 30, "the kernel outlived the killed build")
    # the next build neither waits for a lock nor meets a leftover: it executes the chapter
    res = subprocess.run(cmd, cwd=root, env=_env(root), capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "waiting for another build" not in res.stdout
    assert "executed  slow" in res.stdout
    assert not [p.name for p in (root / "_build" / "executed").iterdir() if p.name.startswith(".")]


def test_a_second_run_into_the_same_folder_refuses_in_one_sentence(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    with rerun.output_lock(out):
        res = CliRunner().invoke(app, ["run", "data_audit", "-o", str(out), "-q"])
    assert res.exit_code == 1
    assert res.output.strip().splitlines() == [
        "error: out: another `benchbook run` is writing into this folder; wait for it to finish or give another -o folder"
    ]
    assert list(out.iterdir()) == []
    with rerun.output_lock(out):  # released: the folder is free again
        pass


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SIGKILL semantics")
def test_sigkilled_run_leaves_nothing_hidden_and_frees_its_folder(tmp_path):
    root = _project(tmp_path / "proj")
    out = tmp_path / "out"
    declare = "from benchbook import declarations as d; d.register(d.Chapter('slow', 'Slow', 'How slow?', paths=()))"
    cmd = [
        sys.executable,
        "-c",
        f"{declare}; from benchbook.cli import app; app()",
        "run",
        "slow",
        "-o",
        str(out),
        "-q",
    ]
    proc = subprocess.Popen(cmd, cwd=root, env=_env(root, 300), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pids = root / "pids"
    _wait_for(lambda: pids.is_file() and pids.read_text(), 120, "the chapter never started", proc)
    kernel = int(pids.read_text().split()[0])
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    _wait_for(lambda: not _alive(kernel), 30, "the kernel outlived the killed run")
    assert list(out.iterdir()) == []  # papermill's running copy was never inside the folder
    with rerun.output_lock(out):  # the killed run's lock went with it
        pass


def test_run_writes_only_inside_its_folder(tmp_path):
    """data_audit writes its CSV to `_build/audit.csv` in the book; re-run with -o it goes there."""
    book_csv = config.BUILD_DIR / "audit.csv"
    before = book_csv.stat().st_mtime_ns if book_csv.exists() else None
    out = tmp_path / "x"
    res = CliRunner().invoke(app, ["run", "data_audit", "-o", str(out), "-q"])
    assert res.exit_code == 0, res.output
    assert (book_csv.stat().st_mtime_ns if book_csv.exists() else None) == before
    assert (out / "audit.csv").is_file()
    assert {"data_audit.ipynb", "data_audit.html"} <= {p.name for p in out.iterdir()}
    assert not [p.name for p in out.rglob(".*")]  # no hidden temporary left behind


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_non_regular_files_are_refused_before_reading(tmp_path, kind):
    path = tmp_path / "input.txt"
    os.mkfifo(path) if kind == "fifo" else path.mkdir()
    said = "a FIFO" if kind == "fifo" else r"a folder, not a file of tool output \(nor a vllm bench sweep folder\)"
    if kind == "fifo":
        said += ", not a file of tool output"
    with pytest.raises(ingest.ParseError, match=rf"^input.txt: is {said}$"):
        ingest.read(path)  # a FIFO with no writer would block here forever if it were opened
    res = CliRunner().invoke(app, ["ingest", str(path)])
    assert res.exit_code == 2
    assert res.output.strip().splitlines()[-1].startswith("error: ")
