"""`benchbook report FILE... -o DIR`: every chapter that reads the files' tools, in one offline report.

Each file's tool is detected as `benchbook ingest` detects it; every chapter whose declaration reads
one of those tools (`declarations`) is checked with the reader's parameters (each `-p` goes to
the chapters that declare it), executed in this process, one after the other (`executor.run_here`: the
notebook's cells, which call the chapter's `topics` module, with no kernel to start and no library
imported twice), and all of them are rendered together by the book's engine: one jupyter-book
project holding an index page, the chapters and the glossary, built in a process of its own
(`Engine`, its imports made while the files are read and the chapters run). Each file is read once for the
whole report (`ingest.once`). A chapter that cannot say anything about the input (its parameter
check refuses the file, or a cell fails) is listed on the index with its one-line reason instead of
producing a page.

DIR holds index.html, CHAPTER.html, CHAPTER.claims.json, CHAPTER.ipynb and the theme's files
(_static/); nothing on a page is fetched from the network, and no machine path is written: files are
named as `config.relative` names them.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import yaml

from benchbook import config, declarations, executor
from benchbook.chapter import ParameterError, declared
from benchbook.nouns import counted
from benchbook.presentation import run_facts
from benchbook.rerun import Prepared, RunError, output_lock, prepare, sanitize, write_ledger


class ReportError(RuntimeError):
    """Nothing could be reported (no file read, a parameter no chapter takes), in one sentence."""


@dataclass
class Input:
    """One file (or vllm sweep folder) the reader named, and the tools found in it."""

    path: Path
    shown: str
    tools: list[str] = field(default_factory=list)
    detected: list[str] = field(default_factory=list)
    problem: str = ""
    facts: list = field(default_factory=list)  # presentation.run_facts.Stated: what the file says of its run


@dataclass
class Section:
    """One chapter of the report: a page with its claims, or the reason it has none."""

    chapter: str
    title: str
    inputs: list[str]
    reason: str = ""
    claims: list[dict] = field(default_factory=list)
    executed: Path | None = None


def chapters_by_tool() -> dict[str, list[str]]:
    """tool -> the chapters whose first cell reads it, in the book's order."""
    from benchbook.build import chapters

    out: dict[str, list[str]] = {}
    for chapter in chapters():
        for tool in declarations.chapter(chapter).tools:
            out.setdefault(tool, []).append(chapter)
    return out


def recognised() -> list[str]:
    """The tools a report reads, one line each with the chapters that read them."""
    return [f"{tool}: {', '.join(chs)}" for tool, chs in chapters_by_tool().items()]


def read_inputs(paths: list[Path]) -> list[Input]:
    """Detect the tools of each file; a file that cannot be read keeps its one-sentence problem."""
    from benchbook import ingest
    from benchbook.parameters import input_problem

    out = []
    for given in paths:
        item = Input(Path(given), str(given))
        out.append(item)
        try:
            p = config.resolve(given)
        except FileNotFoundError:
            item.problem = "no such file"
            continue
        except OSError as exc:
            item.problem = f"cannot be used ({exc.strerror})"
            continue
        item.path, item.shown = p, config.relative(p)
        problem = input_problem(p)
        if problem and not p.is_dir():
            item.problem = problem
            continue
        try:
            df = ingest.read(p)
        except ingest.UnknownFormat:
            item.problem = "no known tool output found (benchbook report --help lists the tools it reads)"
            continue
        except ingest.ParseError as exc:
            item.problem = str(exc).removeprefix(f"{p.name}: ").removeprefix(f"{p.name}:")
            continue
        except OSError as exc:
            item.problem = f"cannot be read ({exc.strerror or exc})"
            continue
        item.tools = list(dict.fromkeys(df["tool"].astype(str))) if "tool" in df else []
        item.detected = list(df.attrs.get("detected", []))
        if not item.tools:
            item.problem = "no number could be read from it"
        elif not p.is_dir():
            item.facts = run_facts.stated(ingest.context_of(p))
    return out


def plan(inputs: list[Input], given: dict) -> tuple[list[Prepared], list[Section]]:
    """The chapters to run (checked, with their parameters) and every section of the report."""
    from benchbook.build import chapters

    by_tool = chapters_by_tool()
    readable = [i for i in inputs if not i.problem]
    if not readable:
        raise ReportError("nothing could be read: " + "; ".join(f"{i.shown}: {i.problem}" for i in inputs) + ".")
    wanted: dict[str, list[Input]] = {}
    for chapter in chapters():  # the book's order
        files = [i for i in readable if any(chapter in by_tool.get(t, ()) for t in i.tools)]
        if files:
            wanted[chapter] = files
    if not wanted:
        tools = sorted({t for i in readable for t in i.tools})
        raise ReportError(f"no chapter reads {', '.join(tools)} (benchbook report --help lists the tools it reads).")
    if "source" in given:
        raise ReportError("the files are the report's arguments: give them without -p source.")
    taken = {name for chapter in wanted for name in declared(chapter)} - {"source"}
    unknown = sorted(set(given) - taken)
    if unknown:
        raise ReportError(
            f"parameter {unknown[0]!r} is declared by none of the chapters that read these files "
            f"({', '.join(wanted)}); they take: {', '.join(sorted(taken))}."
        )
    preps, sections = [], []
    for chapter, files in wanted.items():
        params = {k: v for k, v in given.items() if k in declared(chapter)}
        section = Section(chapter, chapter, [i.shown for i in files])
        sections.append(section)
        try:
            preps.append(prepare(chapter, params, [str(i.path) for i in files]))
        except ParameterError as exc:
            section.reason = str(exc)
    return preps, sections


def run_here(prep: Prepared, work: Path) -> Path:
    """Execute one chapter in this process (`executor.run_here`); the executed notebook, without
    machine paths, is WORK/<chapter>.ipynb."""
    try:
        nb = executor.execute(config.NOTEBOOKS_DIR / f"{prep.chapter}.ipynb", prep.parameters, here=True)
    except executor.Failed as exc:
        if exc.ename == "ParameterError":
            raise ParameterError(exc.evalue) from None
        raise RunError(f"{prep.chapter}: {exc.ename}: {exc.evalue}".rstrip(": ")) from None
    sanitize(nb, prep, f"{prep.chapter}.ipynb")
    target = work / f"{prep.chapter}.ipynb"
    config.atomic_write(target, nbformat.writes(nb) + "\n")
    return target


def execute_all(preps: list[Prepared], sections: list[Section], work: Path, log=print) -> None:
    """Execute the chapters one after the other in this process; a failure becomes the section's reason."""
    import json

    by_name = {s.chapter: s for s in sections}
    for prep in preps:
        section = by_name[prep.chapter]
        t0 = time.perf_counter()
        try:
            section.executed = run_here(prep, work)
        except ParameterError as exc:
            section.reason = str(exc)
        except RunError as exc:
            section.reason = str(exc).removeprefix(f"{prep.chapter}: ")
        if section.executed is not None:
            log(f"  {prep.chapter}: executed in {time.perf_counter() - t0:.1f} s")
    for section in sections:
        if section.executed is not None:
            section.title = declarations.chapter(section.chapter).title
            ledger = write_ledger(section.executed, work / f"{section.chapter}.claims.json")
            if ledger is not None:
                section.claims = json.loads(ledger.read_text(encoding="utf-8"))["claims"]


# --------------------------------------------------------------------------------------------
# The index page and the book that holds it
# --------------------------------------------------------------------------------------------


def _e(text) -> str:
    return html.escape(str(text))


def index_page(inputs: list[Input], sections: list[Section]) -> str:
    """The report's first page (MyST: a title, then HTML blocks): what was read, each chapter's
    bottom-line claims with links to its page and ledger, and the chapters that had nothing to say."""
    rows = []
    for i in inputs:
        what = _e("; ".join(i.detected) or ", ".join(i.tools)) if not i.problem else f"not read: {_e(i.problem)}"
        chs = [s.chapter for s in sections if i.shown in s.inputs]
        rows.append(f"<tr><td><code>{_e(i.shown)}</code></td><td>{what}</td><td>{_e(', '.join(chs))}</td></tr>")
    parts = [
        "# Report on your files",
        "",
        '<div class="benchbook-report">',
        "<p>Made by <code>benchbook report</code>: each file's tool was detected, and every chapter of the book "
        "that reads that tool was run on it. A claim is stated only where its rule is met; the chapter page "
        "shows the evidence, and the ledger holds every claim with its numbers.</p>",
        "<h2>What was read</h2>",
        '<table class="table"><thead><tr><th>file</th><th>tool found</th><th>chapters</th></tr></thead>',
        "<tbody>" + "".join(rows) + "</tbody></table>",
        *[run_facts.html_list(i.shown, i.facts) for i in inputs if i.facts],
        "</div>",
        "",
    ]
    done = [s for s in sections if s.executed is not None]
    if done:
        parts += ["## Chapters", ""]
    for s in done:
        shown = list(
            {c.get("text"): c for c in s.claims if c.get("status") == "shown"}.values()
        )  # one line per sentence
        flagged = [c for c in s.claims if c.get("status") not in ("shown", "withheld")]
        withheld = len(s.claims) - len(shown) - len(flagged)
        items = "".join(f"<li>{_e(c.get('text', ''))}</li>" for c in shown)
        items += "".join(f"<li><strong>Warning</strong>: {_e(c.get('text', ''))}</li>" for c in flagged)
        block = [
            '<div class="benchbook-report-chapter">',
            f'<h3><a href="{s.chapter}.html">{_e(s.title)}</a></h3>',
            f"<p>On {_e(', '.join(s.inputs))}. "
            f'<a href="{s.chapter}.html">Read the chapter</a> &middot; '
            f'<a href="{s.chapter}.claims.json">claims ledger</a></p>',
            f"<ul>{items}</ul>" if items else "<p>No claim's rule is met on this input.</p>",
            f"<p>{withheld} more claim{'s' if withheld != 1 else ''} withheld, each with its reason on the page "
            "and in the ledger.</p>"
            if withheld
            else "",
            "</div>",
            "",
        ]
        parts += [b for b in block if b != ""] + [""]
    quiet = [s for s in sections if s.executed is None]
    if quiet:
        parts += ["## Chapters with nothing to say about these files", ""]
        parts.append(
            "<ul>" + "".join(f"<li><strong>{_e(s.chapter)}</strong>: {_e(s.reason)}</li>" for s in quiet) + "</ul>"
        )
        parts.append("")
    return "\n".join(parts) + "\n"


def _project(root: Path, inputs: list[Input], sections: list[Section]) -> None:
    """A jupyter-book project in `root`: the index, the executed chapters, the glossary."""
    cfg = yaml.safe_load((config.PROJ_ROOT / "_config.yml").read_text(encoding="utf-8"))
    cfg["title"] = "benchbook report"
    cfg["only_build_toc_files"] = True
    cfg["exclude_patterns"] = ["_build/*", "**/.ipynb_checkpoints"]
    (root / "_config.yml").write_text(yaml.safe_dump(cfg, sort_keys=False), encoding="utf-8")
    done = [s for s in sections if s.executed is not None]
    toc = {
        "format": "jb-book",
        "root": "index",
        "chapters": [{"file": s.chapter} for s in done] + [{"file": "glossary"}],
    }
    (root / "_toc.yml").write_text(yaml.safe_dump(toc, sort_keys=False), encoding="utf-8")
    shutil.copy(config.BOOK_DIR / "glossary.md", root / "glossary.md")
    (root / "index.md").write_text(index_page(inputs, sections), encoding="utf-8")
    for s in done:
        shutil.copy(s.executed, root / f"{s.chapter}.ipynb")


class Engine:
    """The book's engine in a process of its own (forked when the report starts): it imports
    jupyter-book, Sphinx and their extensions at once, while this process reads the files and runs
    the chapters, then renders the report (`render`). A thread of this process would make the same
    imports only in the turns the chapters leave it at the interpreter; a process of its own makes
    them on the other core."""

    def __init__(self) -> None:
        import multiprocessing

        # IPython, which both processes need (the chapters' shell; myst-nb's glue for the engine), is
        # imported once, before the fork, instead of once in each
        import IPython.core.interactiveshell  # noqa: F401
        import myst_nb.ext.glue  # noqa: F401

        # fork shares this process's imports; where there is none (Windows), a fresh one does the same
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        self._pool = multiprocessing.get_context(method).Pool(1)
        self._pool.apply_async(_import_engine)

    def render(self, root: Path) -> Path:
        """Build the project in `root` with jupyter-book; returns the html folder."""
        from benchbook.single_page import PageError, build_html

        try:
            return self._pool.apply(build_html, (root,))
        except PageError as exc:
            raise ReportError(str(exc).replace("the page", "the report")) from None

    def close(self) -> None:
        """Stop the engine's process at once (a refused report does not wait for its imports)."""
        self._pool.terminate()
        self._pool.join()


def _import_engine() -> None:
    """The engine's imports, in its process; a failure is left for the render to report."""
    from benchbook.single_page import _import_engine as imports

    try:
        imports()
    except Exception:  # reported, if it persists, by the render
        pass


def _scrub(text: str, roots: list[str]) -> str:
    return executor.scrub_text(text, {k: v for r in roots for k, v in ((r + os.sep, ""), (r, "."))})


def _banner(s: Section, prep: Prepared | None, inputs: list[Input]) -> str:
    shown = ", ".join(f"{k} = {v!r}" for k, v in (prep.shown.items() if prep else [])) or "defaults"
    facts = "".join(run_facts.html_list(i.shown, i.facts) for i in inputs if i.shown in s.inputs and i.facts)
    return (
        '<div class="admonition note benchbook-run"><p class="admonition-title">Your run</p><p>'
        f"<code>notebooks/{_e(s.chapter)}.ipynb</code> run with {_e(shown)}, made by "
        f'<code>benchbook report</code> (<a href="index.html">the report</a>).</p>{facts}</div>'
    )


_KEEP = ("_static", "_images", "_sources", "glossary.html", "genindex.html", "search.html", "searchindex.js")


def publish(
    site: Path,
    work: Path,
    out: Path,
    sections: list[Section],
    preps: list[Prepared],
    roots: list[str],
    inputs: list[Input],
) -> Path:
    """Move the rendered site and the ledgers into OUT (pages and ledgers written atomically; the
    theme's folders renamed into place where OUT is on the same file system, else copied)."""
    by_name = {p.chapter: p for p in preps}
    out.mkdir(parents=True, exist_ok=True)
    for keep in _KEEP:
        src = site / keep
        if src.is_dir():
            staging = Path(tempfile.mkdtemp(prefix=f".{keep}-", dir=out))
            shutil.rmtree(staging)
            shutil.move(src, staging)
            if (out / keep).exists():
                shutil.rmtree(out / keep)
            os.replace(staging, out / keep)
        elif src.is_file():
            config.atomic_write(out / keep, _scrub(src.read_text(encoding="utf-8"), roots))
    for s in sections:
        if s.executed is None:
            continue
        page = _scrub((site / f"{s.chapter}.html").read_text(encoding="utf-8"), roots)
        page = re.sub(
            r"(<article[^>]*>)", lambda m, s=s: m.group(1) + _banner(s, by_name.get(s.chapter), inputs), page, count=1
        )
        config.atomic_write(out / f"{s.chapter}.html", page)
        config.atomic_write(out / f"{s.chapter}.ipynb", s.executed.read_text(encoding="utf-8"))
        ledger = work / f"{s.chapter}.claims.json"
        if ledger.is_file():
            config.atomic_write(out / ledger.name, ledger.read_text(encoding="utf-8"))
    index = out / "index.html"
    config.atomic_write(index, _scrub((site / "index.html").read_text(encoding="utf-8"), roots))
    return index


def _ours(out: Path) -> bool:
    """Whether OUT may be written: new, empty, or holding a report (its theme folders are replaced)."""
    if not out.is_dir() or not any(out.iterdir()):
        return True
    index = out / "index.html"
    try:
        return index.is_file() and 'class="benchbook-report"' in index.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def report(paths: list[Path], given: dict, out: Path, log=print) -> tuple[Path, list[Section]]:
    """Read, run, render and write the report into `out`; returns (index.html, sections)."""
    if not _ours(out):
        raise ReportError(
            f"{out.name}: the folder holds other files; give a new or empty folder, or one a report was written to"
        )
    from benchbook import ingest

    engine = Engine() if any(os.path.exists(p) for p in paths) else None  # imports while the files are read
    try:
        with ingest.once():  # each file read once: here, by the parameter checks and by the chapters
            return _report(paths, given, out, engine, log)
    finally:
        if engine is not None:
            engine.close()


def _report(paths: list[Path], given: dict, out: Path, engine: Engine, log) -> tuple[Path, list[Section]]:
    inputs = read_inputs(paths)
    for i in inputs:
        if i.problem:
            log(f"not read: {i.shown}: {i.problem}")
        else:
            log(f"read: {i.shown}: {'; '.join(i.detected) or ', '.join(i.tools)}")
    preps, sections = plan(inputs, given)
    out.mkdir(parents=True, exist_ok=True)
    with output_lock(out), tempfile.TemporaryDirectory(prefix="benchbook-report-") as tmp:
        work = Path(tmp) / "executed"
        work.mkdir()
        log(f"running {counted(len(preps), 'chapter')}: {', '.join(p.chapter for p in preps)}")
        execute_all(preps, sections, work, log=log)
        for s in sections:
            if s.executed is None:
                log(f"  {s.chapter}: nothing to say ({s.reason})")
        if not any(s.executed is not None for s in sections):
            raise ReportError(
                "no chapter could say anything about these files: "
                + "; ".join(f"{s.chapter}: {s.reason}" for s in sections)
            )
        root = Path(tmp) / "book"
        root.mkdir()
        _project(root, inputs, sections)
        t0 = time.perf_counter()
        site = engine.render(root)
        log(
            f"  rendered {counted(sum(s.executed is not None for s in sections), 'page')} in {time.perf_counter() - t0:.1f} s"
        )
        roots = sorted({str(root), str(Path(tmp)), str(config.PROJ_ROOT), sys.prefix}, key=len, reverse=True)
        index = publish(site, work, out, sections, preps, roots, inputs)
    return index, sections
