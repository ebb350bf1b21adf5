"""Build the book: execute each chapter once with papermill, then render the executed copies.

Execution is cached by content, not by time stamps. A chapter is re-executed only when something
it depends on changed: the code cells of its notebook, its parameters, the bytes of every file it
read during its last execution (logged through `config.log_read`), the `benchbook` package
sources, or the pinned dependency set. A prose-only edit re-uses the cached outputs and merges the
new markdown in, so it costs a render, not an execution. Independent chapters run in parallel.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

import nbformat
import yaml

from benchbook import config

CACHE_VERSION = "1"


class BuildError(RuntimeError):
    """A chapter failed: names the notebook, the cell and the error."""


@dataclass
class Outcome:
    chapter: str
    status: str  # "executed" or "cached"
    why: str
    seconds: float


def chapters() -> list[str]:
    """The chapter notebooks named in _toc.yml, in reading order."""
    toc = yaml.safe_load((config.PROJ_ROOT / "_toc.yml").read_text(encoding="utf-8"))
    names: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            f = node.get("file")
            if isinstance(f, str) and f.startswith("notebooks/"):
                names.append(f.split("/", 1)[1])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(toc)
    return names


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _file_sha(path: Path) -> str | None:
    try:
        return _sha(path.read_bytes())
    except FileNotFoundError:
        return None


def package_hash() -> str:
    """Hash of the benchbook sources and of the dependency lock: a change to either re-executes all."""
    h = hashlib.sha256()
    pkg = Path(__file__).resolve().parent
    for p in sorted(pkg.rglob("*.py")):
        h.update(p.relative_to(pkg).as_posix().encode())
        h.update(p.read_bytes())
    h.update((config.PROJ_ROOT / "requirements.txt").read_bytes())
    return h.hexdigest()


def code_hash(nb: nbformat.NotebookNode) -> str:
    """Hash of a notebook's code cells (source and tags); markdown is left out on purpose."""
    h = hashlib.sha256()
    for cell in nb.cells:
        if cell.cell_type == "code":
            h.update(cell.source.encode())
            h.update(json.dumps(cell.metadata.get("tags", [])).encode())
    return h.hexdigest()


def static_key(chapter: str, params: dict, pkg: str) -> str:
    nb = nbformat.read(config.NOTEBOOKS_DIR / f"{chapter}.ipynb", as_version=4)
    blob = json.dumps(
        {"v": CACHE_VERSION, "code": code_hash(nb), "params": params, "pkg": pkg}, sort_keys=True, default=str
    )
    return _sha(blob.encode())


def _cache_file(chapter: str) -> Path:
    return config.CACHE_DIR / f"{chapter}.json"


def cache_status(chapter: str, key: str, parts: dict) -> str | None:
    """None when the cached execution is still valid, else the reason to execute again."""
    entry_path = _cache_file(chapter)
    executed = config.EXECUTED_DIR / f"{chapter}.ipynb"
    if not entry_path.is_file() or not executed.is_file():
        return "not executed before"
    entry = json.loads(entry_path.read_text(encoding="utf-8"))
    if entry.get("key") != key:
        names = {"code": "code cells", "params": "parameters", "pkg": "package or dependencies"}
        changed = [names[k] for k in names if entry.get("parts", {}).get(k) != parts.get(k)]
        return f"{', '.join(changed) or 'cache format'} changed"
    for rel, sha in entry.get("reads", {}).items():
        if _file_sha(config.PROJ_ROOT / rel) != sha:
            return f"input {rel} changed"
    return None


def _strip_paths(nb: nbformat.NotebookNode, chapter: str) -> None:
    """papermill records the input/output paths it was given; keep only relative names."""
    pm = nb.metadata.get("papermill", {})
    if "input_path" in pm:
        pm["input_path"] = f"notebooks/{chapter}.ipynb"
    if "output_path" in pm:
        pm["output_path"] = f"{chapter}.ipynb"
    pm.get("parameters", {}).pop("cwd", None)


def execute(chapter: str, params: dict | None = None, output: Path | None = None) -> tuple[Path, list[str]]:
    """Execute one chapter with papermill into `output` (atomically), returning the path and the
    project-relative files it read. On failure raises BuildError naming the cell and the error,
    and leaves no partial output behind."""
    import papermill
    from papermill.exceptions import PapermillExecutionError

    params = params or {}
    output = output or (config.EXECUTED_DIR / f"{chapter}.ipynb")
    output.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=".ipynb", dir=output.parent, prefix=f".{chapter}-")
    os.close(fd)
    fd, reads_log = tempfile.mkstemp(suffix=".reads", prefix=f"{chapter}-")
    os.close(fd)
    os.environ[config.READS_LOG_ENV] = reads_log
    try:
        papermill.execute_notebook(
            str(config.NOTEBOOKS_DIR / f"{chapter}.ipynb"),
            tmp,
            parameters=params,
            cwd=str(config.PROJ_ROOT),
            kernel_name="python3",
            progress_bar=False,
            log_output=False,
            execution_timeout=config.EXECUTION_TIMEOUT_S,
        )
        nb = nbformat.read(tmp, as_version=4)
        _strip_paths(nb, chapter)
        nbformat.write(nb, tmp)
        os.replace(tmp, output)
    except PapermillExecutionError as exc:
        raise BuildError(
            f"{chapter}: cell {exc.exec_count or exc.cell_index} failed: {exc.ename}: {exc.evalue}"
        ) from None
    except Exception as exc:  # kernel died, timeout, bad parameters
        raise BuildError(f"{chapter}: {type(exc).__name__}: {exc}") from None
    finally:
        os.environ.pop(config.READS_LOG_ENV, None)
        if os.path.exists(tmp):
            os.remove(tmp)
        reads = Path(reads_log).read_text(encoding="utf-8").split() if os.path.exists(reads_log) else []
        os.remove(reads_log)
    rel = sorted({config.relative(r) for r in reads if Path(r).is_file()})
    return output, rel


def _run_one(chapter: str, params: dict, key: str, parts: dict, why: str) -> Outcome:
    t0 = time.perf_counter()
    _, reads = execute(chapter, params)
    entry = {
        "key": key,
        "parts": parts,
        "reads": {r: _file_sha(config.PROJ_ROOT / r) for r in reads},
    }
    config.CACHE_DIR.mkdir(parents=True, exist_ok=True)
    _cache_file(chapter).write_text(json.dumps(entry, indent=1, sort_keys=True), encoding="utf-8")
    return Outcome(chapter, "executed", why, time.perf_counter() - t0)


def execute_all(names: list[str], jobs: int, force: bool = False, log=print) -> list[Outcome]:
    """Execute the chapters whose cache is stale, `jobs` at a time; report each as it ends."""
    pkg = package_hash()
    todo, outcomes = [], []
    for name in names:
        nb = nbformat.read(config.NOTEBOOKS_DIR / f"{name}.ipynb", as_version=4)
        parts = {"code": code_hash(nb), "params": "{}", "pkg": pkg}
        key = static_key(name, {}, pkg)
        why = "forced" if force else cache_status(name, key, parts)
        if why is None:
            outcomes.append(Outcome(name, "cached", "", 0.0))
            log(f"  cached    {name}")
        else:
            todo.append((name, key, parts, why))
    if not todo:
        return outcomes
    failures = []
    with ProcessPoolExecutor(max_workers=max(1, min(jobs, len(todo)))) as pool:
        futures = {pool.submit(_run_one, n, {}, k, p, w): n for n, k, p, w in todo}
        for fut in as_completed(futures):
            try:
                o = fut.result()
            except BuildError as exc:
                failures.append(str(exc))
                log(f"  FAILED    {exc}")
                continue
            outcomes.append(o)
            log(f"  executed  {o.chapter} ({o.why}) in {o.seconds:.1f} s")
    if failures:
        raise BuildError("; ".join(failures))
    return outcomes


def _merge_prose(chapter: str) -> nbformat.NotebookNode:
    """The executed notebook with the markdown of the current source (a prose edit needs no run)."""
    executed = nbformat.read(config.EXECUTED_DIR / f"{chapter}.ipynb", as_version=4)
    source = nbformat.read(config.NOTEBOOKS_DIR / f"{chapter}.ipynb", as_version=4)
    src_md = [c for c in source.cells if c.cell_type == "markdown"]
    ex_md = [c for c in executed.cells if c.cell_type == "markdown"]
    if len(src_md) == len(ex_md):
        for old, new in zip(ex_md, src_md, strict=True):
            old.source = new.source
    return executed


def _write_if_changed(path: Path, data: bytes) -> None:
    """Keep mtimes of unchanged files, so Sphinx re-reads only what changed."""
    if path.is_file() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def stage(names: list[str]) -> str:
    """Mirror the book sources and the executed chapters into _build/stage; return its hash."""
    st = config.STAGE_DIR
    wanted: dict[Path, bytes] = {}
    for f in ("_config.yml", "_toc.yml"):
        wanted[st / f] = (config.PROJ_ROOT / f).read_bytes()
    for p in config.BOOK_DIR.rglob("*"):
        if p.is_file():
            wanted[st / p.relative_to(config.PROJ_ROOT)] = p.read_bytes()
    for name in names:
        nb = _merge_prose(name)
        wanted[st / "notebooks" / f"{name}.ipynb"] = nbformat.writes(nb).encode()
    for path, data in wanted.items():
        _write_if_changed(path, data)
    for p in list(st.rglob("*")):
        if p.is_file() and p not in wanted and "_build" not in p.parts:
            p.unlink()
    h = hashlib.sha256()
    for path in sorted(wanted):
        h.update(str(path.relative_to(st)).encode())
        h.update(wanted[path])
    return h.hexdigest()


def render(stage_hash: str, log=print) -> Path:
    """Run jupyter-book on the staged tree (warnings are errors), unless the same tree was rendered."""
    index = config.HTML_DIR / "index.html"
    stamp = config.CACHE_DIR / "html.sha256"
    if index.is_file() and stamp.is_file() and stamp.read_text() == stage_hash:
        log("  html up to date")
        return index
    exe = Path(sys.executable).with_name("jupyter-book")
    cmd = [str(exe), "build", str(config.STAGE_DIR), "--path-output", str(config.PROJ_ROOT), "-W", "-n", "--keep-going", "-q"]
    t0 = time.perf_counter()
    res = subprocess.run(cmd, cwd=config.PROJ_ROOT, capture_output=True, text=True)
    if res.returncode != 0:
        sys.stderr.write(res.stdout[-6000:] + res.stderr[-6000:])
        raise BuildError("jupyter-book build failed (warnings are errors)")
    config.CACHE_DIR.mkdir(parents=True, exist_ok=True)
    stamp.write_text(stage_hash)
    log(f"  rendered html in {time.perf_counter() - t0:.1f} s")
    return index


def build(only: list[str] | None = None, jobs: int | None = None, force: bool = False, log=print) -> Path:
    """Execute (what is stale) and render the whole book; return the path of index.html."""
    names = chapters()
    jobs = jobs or min(2, os.cpu_count() or 1)
    run = [n for n in names if n in only] if only else names
    log(f"executing {len(run)} chapter(s), {jobs} at a time")
    execute_all(run, jobs, force=force, log=log)
    present = [n for n in names if (config.EXECUTED_DIR / f"{n}.ipynb").is_file()]
    missing = sorted(set(names) - set(present))
    if missing:
        raise BuildError(f"chapters never executed: {', '.join(missing)} (run without --only)")
    index = render(stage(present), log=log)
    return index


def clean_html() -> None:
    shutil.rmtree(config.HTML_DIR, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m benchbook.build", description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", help="execute only these chapters (the others must be cached)")
    ap.add_argument("--jobs", type=int, default=None, help="chapters executed at once (default: 2)")
    ap.add_argument("--force", action="store_true", help="ignore the cache and execute everything")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    try:
        index = build(args.only, args.jobs, args.force)
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"book built in {time.perf_counter() - t0:.1f} s: {config.relative(index)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
