"""Build the book: execute each chapter once with papermill, then render the executed copies.

Execution is cached by content, not by time stamps. A chapter is re-executed only when something
it depends on changed:

- its code cells (source and tags, in order; markdown is left out),
- its parameters cell,
- the `benchbook` package (every file under src/benchbook), the dependency lock
  (requirements.txt) and the Python version,
- the bytes of every file it read during its last execution, as logged by `config.log_read`
  (the build points the kernel at a log file through the BENCHBOOK_READS_LOG environment
  variable). A logged directory stands for the list of files under it, so a file added to a folder
  a chapter scans re-executes that chapter. The chapter's wording file (notebooks/<chapter>.claims.yml)
  is one of the files it reads, so editing a sentence re-executes that chapter only.

A prose-only edit re-uses the cached outputs: the staged notebook is the current source with the
cached outputs put back into its (unchanged) code cells, so it costs a render, not an execution.
Independent chapters run in parallel (`jobs` at a time). A failing chapter stops the build with the
notebook, the cell and the error named, and leaves no executed file behind. Executed notebooks carry
no machine paths: papermill's input/output paths are made relative, and a chapter whose outputs
print a machine path (the project root, the venv, the home or temporary folder) fails the build.

The raw-data ingest that runs before (`ingest_if_changed`) is cached the same way: it runs only when
the bytes under data/raw, the package or the processed outputs changed.

Cache entries live in _build/cache/<chapter>.json. The package part of the key can be injected
(for tests and benchmarks) through the environment variable BENCHBOOK_PACKAGE_HASH; unset, it is
the hash of the package sources (`package_hash()`). One build of a tree runs at a time: execution
and rendering hold a lock on _build/.lock (`build_lock`).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: `benchbook report` reads the chapter list without it
    import nbformat
import yaml

from benchbook import config, declarations, executor
from benchbook.nouns import counted

CACHE_VERSION = "2"

#: Environment variable that, when set, replaces the package part of every cache key (tests and
#: benchmarks use it to simulate an edit of the package without touching it).
PACKAGE_HASH_ENV = "BENCHBOOK_PACKAGE_HASH"

#: How many kernels a chapter may start before a start-up failure counts as the build's failure.

#: papermill tags the cell it inserts for passed parameters with this.
_INJECTED = "injected-parameters"


class BuildError(RuntimeError):
    """A chapter failed: names the notebook, the cell and the error."""


@dataclass
class Outcome:
    """An executed chapter: why it ran and how long it took (for the build's log)."""

    chapter: str
    why: str
    seconds: float


# ---------------------------------------------------------------------------------------------
# one build of a tree at a time

_lock_depth = 0


@contextmanager
def build_lock(log: Callable[[str], None] = print) -> Iterator[None]:
    """Hold an exclusive flock on _build/.lock; re-entrant within a process.

    Two builds of one tree (two pytest workers, two terminals) would execute and render into the
    same folders and delete each other's temporaries: the second waits for the first."""
    global _lock_depth
    if _lock_depth:
        _lock_depth += 1
        try:
            yield
        finally:
            _lock_depth -= 1
        return
    config.BUILD_DIR.mkdir(parents=True, exist_ok=True)
    with open(config.BUILD_DIR / ".lock", "w") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log(f"  waiting for another build of this tree ({config.relative(fh.name)})")
            fcntl.flock(fh, fcntl.LOCK_EX)
        _lock_depth = 1
        try:
            yield
        finally:
            _lock_depth = 0
            fcntl.flock(fh, fcntl.LOCK_UN)


# ---------------------------------------------------------------------------------------------
# what the book holds


def chapters() -> list[str]:
    """The chapter notebooks named in _toc.yml, in reading order."""
    toc = yaml.safe_load((config.PROJ_ROOT / "_toc.yml").read_text(encoding="utf-8"))
    names: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            f = node.get("file")
            if isinstance(f, str) and f.startswith("notebooks/"):
                names.append(f.split("/", 1)[1].removesuffix(".ipynb").removesuffix(".md"))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(toc)
    return names


def _source_path(chapter: str) -> Path:
    return config.NOTEBOOKS_DIR / f"{chapter}.ipynb"


def _executed_path(chapter: str) -> Path:
    return config.EXECUTED_DIR / f"{chapter}.ipynb"


def _read_nb(path: Path) -> nbformat.NotebookNode:
    """Read a v4 notebook without schema validation (the build reads many, often)."""
    import nbformat
    from nbformat.v4.rwbase import rejoin_lines

    return rejoin_lines(nbformat.from_dict(json.loads(path.read_text(encoding="utf-8"))))


def _write_nb(nb: nbformat.NotebookNode) -> bytes:
    """The bytes nbformat.write would write (sorted keys, one-space indent, split lines)."""
    from nbformat.v4.nbjson import writes

    return (writes(nb) + "\n").encode()


# ---------------------------------------------------------------------------------------------
# hashes


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _listing(path: Path) -> list[str]:
    return sorted(
        p.relative_to(path).as_posix()
        for p in path.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and not p.name.startswith(".")
    )


def fingerprint(path: Path) -> str | None:
    """Content hash of a file, or of the list of files under a directory; None if it is gone."""
    try:
        if path.is_dir():
            return "dir:" + _sha("\n".join(_listing(path)).encode())
        return _sha(path.read_bytes())
    except FileNotFoundError:
        return None


def package_hash(pkg_dir: Path | None = None, requirements: Path | None = None) -> str:
    """Hash of the benchbook package files, the dependency lock and the Python version: a change
    to any of them re-executes every chapter.

    With no arguments, the environment variable BENCHBOOK_PACKAGE_HASH, when set, is used instead
    of the real sources (so a test can simulate a package edit)."""
    override = os.environ.get(PACKAGE_HASH_ENV)
    if override and pkg_dir is None and requirements is None:
        return _sha(f"injected:{override}".encode())
    pkg = pkg_dir or Path(__file__).resolve().parent
    req = requirements or (config.PROJ_ROOT / "requirements.txt")
    h = hashlib.sha256()
    for rel in _listing(pkg):
        if rel.endswith((".pyc", ".pyo")):
            continue
        h.update(rel.encode() + b"\0")
        h.update((pkg / rel).read_bytes())
        h.update(b"\0")
    h.update(req.read_bytes() if req.is_file() else b"no requirements.txt")
    h.update(f"python {sys.version_info.major}.{sys.version_info.minor}".encode())
    return h.hexdigest()


def _tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def code_parts(nb: nbformat.NotebookNode) -> dict[str, str]:
    """Hashes of a notebook's parameters cell(s) and of its other code cells (source, tags, order).
    Markdown and non-tag metadata are left out on purpose: they change the page, not the outputs."""
    code, params = hashlib.sha256(), hashlib.sha256()
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        tags = _tags(cell)
        if "parameters" in tags:
            params.update(cell.source.encode() + b"\0")
            code.update(b"<parameters>\0")
        else:
            code.update(cell.source.encode() + b"\0" + json.dumps(tags).encode() + b"\0")
    return {"code": code.hexdigest(), "params": params.hexdigest()}


# ---------------------------------------------------------------------------------------------
# the cache


def _cache_file(chapter: str) -> Path:
    return config.CACHE_DIR / f"{chapter}.json"


def _read_key(path: Path) -> str:
    """How a read is recorded: project-relative when inside the project, else absolute (the cache
    is never published)."""
    p = Path(path).resolve()
    try:
        return p.relative_to(config.PROJ_ROOT).as_posix()
    except ValueError:
        return p.as_posix()


def _read_path(key: str) -> Path:
    p = Path(key)
    return p if p.is_absolute() else config.PROJ_ROOT / p


_PART_NAMES = {"code": "code cells", "params": "parameters", "pkg": "package or dependencies"}


def cache_status(chapter: str, parts: dict[str, str]) -> str | None:
    """None when the cached execution is still valid, else the reason to execute again."""
    entry_path = _cache_file(chapter)
    executed = _executed_path(chapter)
    if not entry_path.is_file() or not executed.is_file():
        return "not executed before"
    try:
        entry = json.loads(entry_path.read_text(encoding="utf-8"))
    except ValueError:
        return "cache entry unreadable"
    if entry.get("version") != CACHE_VERSION:
        return "cache format changed"
    changed = [_PART_NAMES[k] for k in _PART_NAMES if entry.get("parts", {}).get(k) != parts.get(k)]
    if changed:
        return f"{', '.join(changed)} changed"
    if fingerprint(executed) != entry.get("executed"):
        return "executed copy modified"
    stale = [key for key, sha in sorted(entry.get("reads", {}).items()) if fingerprint(_read_path(key)) != sha]
    if stale:
        more = f" and {len(stale) - 2} more" if len(stale) > 2 else ""
        return f"input {', '.join(stale[:2])}{more} changed"
    return None


# ---------------------------------------------------------------------------------------------
# executing one chapter


def _check_no_machine_paths(nb: nbformat.NotebookNode, chapter: str) -> None:
    bad = executor.machine_paths()
    for i, cell in enumerate(nb.cells):
        blob = json.dumps(cell.get("outputs", []))
        for p in bad:
            if p in blob or json.dumps(p)[1:-1] in blob:
                first = cell.source.strip().splitlines()[0] if cell.source.strip() else ""
                raise BuildError(
                    f"notebooks/{chapter}.ipynb: cell {i} ({first!r}) prints a machine path "
                    f"({p!r}); show config.relative(path) or the file name instead"
                )


def _strip_paths(nb: nbformat.NotebookNode, chapter: str) -> None:
    """papermill records the input/output paths it was given: keep only project-relative names."""
    pm = nb.metadata.get("papermill", {})
    if "input_path" in pm:
        pm["input_path"] = f"notebooks/{chapter}.ipynb"
    if "output_path" in pm:
        pm["output_path"] = f"{chapter}.ipynb"
    pm.get("parameters", {}).pop("cwd", None)
    pm["environment_variables"] = {}


def _describe_failure(chapter: str, exc) -> str:
    if exc.cell is None:
        return f"notebooks/{chapter}.ipynb: {exc.ename}: {exc.evalue}"
    return f"notebooks/{chapter}.ipynb: cell {exc.cell} (starting {exc.source!r}) failed: {exc.ename}: {exc.evalue}"


def execute(chapter: str) -> tuple[Path, dict[str, str | None]]:
    """Execute one chapter into _build/executed/<chapter>.ipynb, atomically. Returns the path and
    the fingerprints of the files it read (by `_read_key`).

    On failure raises BuildError naming the notebook, the cell and the error, and leaves no
    partial output behind."""
    source = _source_path(chapter)
    if not source.is_file():
        raise BuildError(f"notebooks/{chapter}.ipynb does not exist (named in _toc.yml)")
    output = _executed_path(chapter)
    fd, reads_log = tempfile.mkstemp(suffix=".reads", prefix=f"benchbook-{chapter}-")
    os.close(fd)
    previous = os.environ.get(config.READS_LOG_ENV)
    os.environ[config.READS_LOG_ENV] = reads_log
    try:
        nb = executor.execute(source, {})
        _strip_paths(nb, chapter)
        _check_no_machine_paths(nb, chapter)
        with open(reads_log, encoding="utf-8") as fh:
            read = {_read_key(Path(line.strip())) for line in fh if line.strip()}
        reads = {key: fingerprint(_read_path(key)) for key in sorted(read)}
        config.atomic_write(output, _write_nb(nb))
    except executor.Failed as exc:
        raise BuildError(_describe_failure(chapter, exc)) from None
    finally:
        if previous is None:
            os.environ.pop(config.READS_LOG_ENV, None)
        else:
            os.environ[config.READS_LOG_ENV] = previous
        os.remove(reads_log)
    return output, reads


def _run_one(chapter: str, parts: dict[str, str], why: str) -> Outcome:
    """Worker: execute a chapter, then record its cache entry (after the executed copy)."""
    t0 = time.perf_counter()
    # The kernels' own chatter (transport warnings, shutdown notices) goes to a log file, not the
    # build's terminal: failures are reported through BuildError with the cell and the error.
    log_path = config.BUILD_DIR / "logs" / f"{chapter}.stderr"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(log_path, "wb") as fh:
            os.dup2(fh.fileno(), 2)
            out, reads = execute(chapter)
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
    entry = {
        "version": CACHE_VERSION,
        "parts": parts,
        "executed": fingerprint(out),
        "reads": reads,
    }
    config.atomic_write(_cache_file(chapter), json.dumps(entry, indent=1, sort_keys=True).encode())
    return Outcome(chapter, why, time.perf_counter() - t0)


def _death_signal():
    """A function that asks Linux to SIGKILL the calling process when its parent dies (None on
    other systems), resolved before any fork so that a child only makes the system call."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes
    import signal

    prctl = ctypes.CDLL(None, use_errno=True).prctl
    pr_set_pdeathsig = 1
    return lambda: prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)


def _die_with_parent(parent: int) -> None:
    """Worker start-up: be killed with the build that started it, so a killed build leaves no
    worker executing into _build (its kernel follows: ipykernel exits when its parent goes).
    Workers are spawned, not forked, so none inherits the build lock's descriptor."""
    arm = _death_signal()
    if arm is not None:
        arm()
    if os.getppid() != parent:  # the build died before the line above ran
        os._exit(1)


def _clean_partials() -> None:
    """Remove hidden temporaries left by a build that was killed mid-write."""
    for d in (config.EXECUTED_DIR, config.CACHE_DIR):
        if d.is_dir():
            for p in d.glob(".*.tmp"):
                p.unlink(missing_ok=True)


def plan(names: list[str], force: bool = False) -> list[tuple[str, dict, str | None]]:
    """For each chapter: (name, key parts, why it must execute, or None when the cache is valid)."""
    pkg = package_hash()
    out = []
    for name in names:
        src = _source_path(name)
        if not src.is_file():
            raise BuildError(f"notebooks/{name}.ipynb does not exist (named in _toc.yml)")
        parts = {**code_parts(_read_nb(src)), "pkg": pkg}
        out.append((name, parts, "forced" if force else cache_status(name, parts)))
    return out


def execute_all(names: list[str], jobs: int, force: bool = False, log: Callable[[str], None] = print) -> list[Outcome]:
    """Execute the chapters whose cache is stale, `jobs` at a time; report each as it ends and
    return the executed ones. Holds the build lock.

    The first failure cancels the chapters not started yet, waits for those running, and raises
    BuildError naming every failed notebook, cell and error."""
    with build_lock(log):
        _clean_partials()
        outcomes, todo = [], []
        for name, parts, why in plan(names, force):
            if why is None:
                log(f"  cached    {name}")
            else:
                todo.append((name, parts, why))
        if not todo:
            return outcomes
        failures: list[str] = []
        pool = ProcessPoolExecutor(
            max_workers=max(1, min(jobs, len(todo))),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_die_with_parent,
            initargs=(os.getpid(),),
        )
        try:
            pending = {pool.submit(_run_one, n, p, w): n for n, p, w in todo}
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    name = pending.pop(fut)
                    if fut.cancelled():
                        continue
                    try:
                        o = fut.result()
                    except BuildError as exc:
                        failures.append(str(exc))
                        log(f"  FAILED    {exc}")
                    except Exception as exc:  # a worker died
                        failures.append(f"notebooks/{name}.ipynb: {type(exc).__name__}: {exc}")
                        log(f"  FAILED    {name}: {type(exc).__name__}: {exc}")
                    else:
                        outcomes.append(o)
                        log(f"  executed  {o.chapter} ({o.why}) in {o.seconds:.1f} s")
                if failures:
                    for fut, name in list(pending.items()):
                        if fut.cancel():
                            pending.pop(fut)
                            log(f"  skipped   {name} (build stopped)")
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        if failures:
            raise BuildError("; ".join(failures))
        return outcomes


# ---------------------------------------------------------------------------------------------
# staging and rendering


def merge_prose(chapter: str) -> nbformat.NotebookNode:
    """The page to render: the current source notebook with the cached outputs of its code cells.

    Valid when the code cells did not change since the execution (the cache guarantees that for a
    build); markdown cells, their number and order, and non-tag cell metadata come from the source.
    If the code cells differ (a chapter left stale by --only), the executed copy is used as is."""
    import nbformat

    executed = _read_nb(_executed_path(chapter))
    source = _read_nb(_source_path(chapter))
    ex_code = [c for c in executed.cells if c.cell_type == "code" and _INJECTED not in _tags(c)]
    injected = [c for c in executed.cells if c.cell_type == "code" and _INJECTED in _tags(c)]
    src_code = [c for c in source.cells if c.cell_type == "code"]
    if len(ex_code) != len(src_code) or any(a.source != b.source for a, b in zip(ex_code, src_code, strict=False)):
        return executed
    it = iter(ex_code)
    cells = []
    for cell in source.cells:
        if cell.cell_type != "code":
            cells.append(cell)
            continue
        ran = next(it)
        merged = nbformat.from_dict(dict(cell))
        merged.outputs = ran.get("outputs", [])
        merged.execution_count = ran.get("execution_count")
        merged.metadata = nbformat.from_dict({**ran.get("metadata", {}), **cell.get("metadata", {})})
        cells.append(merged)
        if "parameters" in _tags(cell):
            cells += injected
            injected = []
    nb = nbformat.from_dict(dict(source))
    nb.cells = cells + injected
    meta = dict(executed.metadata)
    meta.update({k: v for k, v in source.metadata.items() if k != "papermill"})
    nb.metadata = nbformat.from_dict(meta)
    return nb


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
    from benchbook.presentation import foundations  # the foundations page's numbers and figure, from the table

    wanted.update({st / rel: data for rel, data in foundations.staged().items()})
    for name in names:
        wanted[st / "notebooks" / f"{name}.ipynb"] = _write_nb(merge_prose(name))
    wanted[st / "book" / FINDINGS] = findings_page(names).encode()
    wanted[st / "book" / ACCEPTS] = accepts_page(names).encode()
    for path, data in wanted.items():
        _write_if_changed(path, data)
    if st.is_dir():
        for p in list(st.rglob("*")):
            if p.is_file() and p not in wanted and "_build" not in p.relative_to(st).parts:
                p.unlink()
    h = hashlib.sha256()
    req = config.PROJ_ROOT / "requirements.txt"
    h.update(req.read_bytes() if req.is_file() else b"")
    for path in sorted(wanted):
        h.update(str(path.relative_to(st)).encode() + b"\0")
        h.update(wanted[path])
    return h.hexdigest()


#: The front page's findings, written into the staged book from the chapters' ledgers (the
#: front page includes it); it exists only in _build/stage.
FINDINGS = "_findings.md"


def chapter_title(chapter: str) -> str:
    """The chapter's title, from its declaration (a project's own undeclared notebook: its name)."""
    c = declarations.BY_NAME.get(chapter)
    return c.title if c else chapter


#: The "Run it on your data" page's table of what each chapter reads, written from the declarations
#: into the staged book (that page includes it).
ACCEPTS = "_accepts.md"


def accepts_page(names: list[str]) -> str:
    """One row per chapter: its question, the tools it reads and the parameters it takes."""
    rows = ["| chapter | question | reads | parameters |", "|---|---|---|---|"]
    for c in (declarations.BY_NAME[n] for n in names if n in declarations.BY_NAME):
        tools = ", ".join(f"`{t}`" for t in c.tools) or "its own inputs"
        params = ", ".join(f"`{p.name}`" for p in c.parameters)
        rows.append(f"| {{doc}}`{c.title} <../notebooks/{c.name}>` | {c.question} | {tools} | {params} |")
    return "\n".join(rows) + "\n"


def findings_page(names: list[str]) -> str:
    """The front page's list of findings: each chapter's leading shown claim, from _build/claims/."""
    from benchbook.presentation import bottom_line

    ledgers = []
    for name in names:
        f = config.CLAIMS_DIR / f"{name}.json"
        if f.is_file():
            ledgers.append(json.loads(f.read_text(encoding="utf-8")))
    titles = {n: chapter_title(n) for n in names if bottom_line.box_of(n).leads}
    return bottom_line.findings(ledgers, titles)


def render(stage_hash: str, log: Callable[[str], None] = print) -> Path:
    """Run jupyter-book on the staged tree (warnings are errors), unless the same tree was rendered."""
    from benchbook.presentation import sphinx_book

    index = config.HTML_DIR / "index.html"
    stamp = config.CACHE_DIR / "html.sha256"
    key = f"{stage_hash} {sphinx_book.ENV_VERSION}"  # a changed extension renders an unchanged tree again
    if index.is_file() and stamp.is_file() and stamp.read_text() == key:
        log("  html up to date")
        return index
    exe = Path(sys.executable).with_name("jupyter-book")
    cmd = [str(exe), "build", str(config.STAGE_DIR), "--path-output", str(config.PROJ_ROOT)]
    cmd += ["-W", "-n", "--keep-going", "-q"]
    t0 = time.perf_counter()
    stamp.unlink(missing_ok=True)
    # dies with the build: a killed build must not leave Sphinx writing into _build/html
    res = subprocess.run(cmd, cwd=config.PROJ_ROOT, capture_output=True, text=True, preexec_fn=_death_signal())
    if res.returncode != 0:
        sys.stderr.write(res.stdout[-6000:] + res.stderr[-6000:])
        # Sphinx re-reads only changed pages: forget its environment, so the next build reports
        # the same warnings again instead of passing on an unchanged tree.
        shutil.rmtree(config.BUILD_DIR / ".doctrees", ignore_errors=True)
        raise BuildError("jupyter-book build failed (warnings are errors)")
    _prune_images()
    config.atomic_write(stamp, key.encode())
    log(f"  rendered html in {time.perf_counter() - t0:.1f} s")
    return index


def _prune_images() -> None:
    """Delete figures no page links to any more. Sphinx renders incrementally and never removes an
    image, so each re-executed chapter would leave its old figures in the published book."""
    images = config.HTML_DIR / "_images"
    if not images.is_dir():
        return
    pages = "".join(p.read_text(encoding="utf-8", errors="replace") for p in config.HTML_DIR.rglob("*.html"))
    for img in images.iterdir():
        if img.is_file() and f"_images/{img.name}" not in pages:
            img.unlink()


# ---------------------------------------------------------------------------------------------
# the ingest step


def _ingest_key() -> str:
    h = hashlib.sha256(f"ingest {CACHE_VERSION}\0{package_hash()}\0".encode())
    raw = config.RAW_DIR
    if raw.is_dir():
        for rel in _listing(raw):
            h.update(rel.encode() + b"\0")
            h.update((raw / rel).read_bytes())
            h.update(b"\0")
    return h.hexdigest()


def _processed_state() -> dict[str, str | None]:
    d = config.PROCESSED_DIR
    return {rel: fingerprint(d / rel) for rel in _listing(d)} if d.is_dir() else {}


def ingest_if_changed(run: Callable[[], object], log: Callable[[str], None] = print, force: bool = False) -> bool:
    """Call `run` (which rebuilds data/processed from data/raw) unless neither the raw bytes, the
    package nor the processed outputs changed since the last run it recorded. Returns whether it ran.
    A ParseError from `run` becomes a BuildError."""
    stamp = config.CACHE_DIR / "ingest.json"
    key = _ingest_key()
    if not force and stamp.is_file():
        try:
            entry = json.loads(stamp.read_text(encoding="utf-8"))
        except ValueError:
            entry = {}
        if entry.get("key") == key and entry.get("outputs") and entry["outputs"] == _processed_state():
            log("  data/processed up to date")
            return False
    stamp.unlink(missing_ok=True)
    try:
        run()
    except Exception as exc:
        from benchbook.ingest import ParseError

        if isinstance(exc, ParseError):
            raise BuildError(f"ingest: {exc}") from None
        raise
    config.atomic_write(stamp, json.dumps({"key": key, "outputs": _processed_state()}, indent=1).encode())
    return True


# ---------------------------------------------------------------------------------------------
# the whole build


#: Chapters that read the ledgers of the others (_build/claims/), so they execute last.
LEDGER_READERS = ("claims_ledger",)


def write_ledgers(names: list[str]) -> list[Path]:
    """_build/claims/CHAPTER.json for every executed chapter that published a ledger (unchanged
    files keep their bytes, so the chapters that read them stay cached)."""
    from benchbook.claims import from_notebook

    written = []
    for name in names:
        path = _executed_path(name)
        if not path.is_file():
            continue
        ledger = from_notebook(_read_nb(path))
        target = config.CLAIMS_DIR / f"{name}.json"
        if ledger is None:
            target.unlink(missing_ok=True)
            continue
        _write_if_changed(target, (json.dumps(ledger, indent=1, allow_nan=False) + "\n").encode())
        written.append(target)
    return written


def build(
    only: list[str] | None = None,
    jobs: int | None = None,
    force: bool = False,
    log: Callable[[str], None] = print,
    render_html: bool = True,
) -> Path:
    """Execute (what is stale) and render the whole book, holding the build lock throughout; return
    the path of index.html (of the staged tree when `render_html` is False)."""
    names = chapters()
    jobs = jobs or min(2, os.cpu_count() or 1)
    if only:
        unknown = sorted(set(only) - set(names))
        if unknown:
            raise BuildError(f"not a chapter in _toc.yml: {', '.join(unknown)}")
    run = [n for n in names if n in only] if only else names
    log(f"executing {counted(len(run), 'chapter')}, {jobs} at a time")
    with build_lock(log):
        # Chapters that read other chapters' ledgers run after those ledgers are written.
        execute_all([n for n in run if n not in LEDGER_READERS], jobs, force=force, log=log)
        write_ledgers(names)
        execute_all([n for n in run if n in LEDGER_READERS], jobs, force=force, log=log)
        present = [n for n in names if _executed_path(n).is_file()]
        missing = [n for n in names if n not in present]
        if missing:
            raise BuildError(f"chapters never executed: {', '.join(missing)} (run without --only)")
        stage_hash = stage(present)
        if not render_html:
            return config.STAGE_DIR
        return render(stage_hash, log=log)


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m benchbook.build", description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", help="execute only these chapters (the others must be cached)")
    ap.add_argument("--jobs", type=int, default=None, help="chapters executed at once (default: 2)")
    ap.add_argument("--force", action="store_true", help="ignore the cache and execute everything")
    ap.add_argument("--no-render", action="store_true", help="execute and stage only (no jupyter-book)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    try:
        index = build(args.only, args.jobs, args.force, render_html=not args.no_render)
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"book built in {time.perf_counter() - t0:.1f} s: {config.relative(index)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
