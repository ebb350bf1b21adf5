"""`benchbook report FILE... -o DIR`: every chapter that reads the files' tools, in one offline report.

Each file's tool is detected as `benchbook ingest` detects it; every chapter whose declaration reads
one of those tools (`declarations`) is checked with the reader's parameters (each `-p` goes to
the chapters that declare it), and executed in this process, one after the other, in plain Python
(`executor.run_plain`: the notebook's cells, which call the chapter's `topics` module, with no
kernel, IPython or Sphinx). Each page is the chapter's own MyST text with its outputs, rendered by
`presentation.page_html`: the same text as the executed notebook's page
(tests/book/test_plain_pages_say_what_the_notebook_says.py). Each file is read once for the whole
report (`ingest.once`). A chapter that cannot say anything about the input (its parameter check
refuses the file, or a cell fails) is listed on the index with its one-line reason instead of
producing a page.

DIR holds index.html, CHAPTER.html (self-contained: its styles, figures and the glossary of the
terms it uses inside), CHAPTER.claims.json and CHAPTER.ipynb; nothing on a page is fetched from the
network, and no machine path is written: files are named as `config.relative` names them.
"""

from __future__ import annotations

import contextlib
import html
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchbook import config, declarations, executor, forked
from benchbook.chapter import ParameterError, declared
from benchbook.nouns import counted
from benchbook.presentation import run_facts
from benchbook.presentation.wording import sentence
from benchbook.rerun import Prepared, RunError, output_lock, prepare, sanitize


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
    executed: dict | None = None  # the executed notebook (`executor.run_plain`)
    ledger: dict | None = None


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


def nothing_kept(rejected: list[dict]) -> str:
    """Why a file its tool read gives no page: where every number was set aside, each distinct reason
    with the first line it holds for (up to four), so a refusal names its lines and never says that
    nothing could be read where the parser read and set aside."""
    if not rejected:
        return "no number could be read from it"
    first: dict[str, dict] = {}
    for r in rejected:
        first.setdefault(str(r["reason"]), r)
    shown = [f"line {r['line']} ({r['text']}): {why}" for why, r in list(first.items())[:4]]
    more = len(first) - len(shown)
    tail = f"; and {more} more reason{'s' if more > 1 else ''}" if more else ""
    return f"every number it holds was set aside, none kept ({len(rejected)} numbers): " + "; ".join(shown) + tail


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
        except ingest.UnknownFormat as exc:
            seen = f"{exc.line}: {ingest.NO_TOOL}: {exc.sign}; " if exc.sign else f"{ingest.NO_TOOL} ("
            item.problem = seen + "benchbook report --help lists the tools it reads" + ("" if exc.sign else ")")
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
            item.problem = nothing_kept(df.attrs.get("rejected") or [])
        elif not p.is_dir():
            read = frozenset(int(n) for n in df["line"].dropna()) if "line" in df else frozenset()
            rated = df.loc[df["metric"].eq("request_throughput"), ["line", "value"]] if "metric" in df else None
            achieved = frozenset(
                (int(n), float(v)) for n, v in ([] if rated is None else rated.dropna().itertuples(index=False))
            )
            item.facts = run_facts.stated(ingest.context_of(p), _table_models(df, p), read, achieved)
    return out


def _table_models(df, path: Path) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The models the tool's own output names (its parser's `model` column), each with the lines of the
    file that write it (the first three)."""
    names = [str(m) for m in dict.fromkeys(df["model"].dropna())] if "model" in df else []
    if not names:
        return ()
    text = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return tuple((m, tuple(k + 1 for k, s in enumerate(text) if m.lower() in s.lower())[:3]) for m in names)


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


#: The processes that draw a chapter's figures: two where this process may use two cores.
WORKERS = min(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def run_plain(prep: Prepared, draw: bool = True, workers: int = WORKERS) -> dict:
    """Execute one chapter in this process, in plain Python (`executor.run_plain`); the executed
    notebook (a plain dict), without machine paths (its figures undrawn without `draw`, else drawn
    by `workers` processes)."""
    try:
        nb = executor.execute(
            config.NOTEBOOKS_DIR / f"{prep.chapter}.ipynb", prep.parameters, plain=True, draw=draw, draw_workers=workers
        )
    except executor.Failed as exc:
        if exc.ename == "ParameterError":
            raise ParameterError(exc.evalue) from None
        raise RunError(f"{prep.chapter}: {exc.ename}: {exc.evalue}".rstrip(": ")) from None
    sanitize(nb, prep, f"{prep.chapter}.ipynb")
    return nb


def _outcome(prep: Prepared, workers: int) -> tuple[dict | None, str, float]:
    """(the executed notebook, or None and the reason the chapter has none; the seconds it took)."""
    t0 = time.perf_counter()
    try:
        return run_plain(prep, workers=workers), "", time.perf_counter() - t0
    except ParameterError as exc:
        return None, str(exc), 0.0
    except RunError as exc:
        return None, str(exc).removeprefix(f"{prep.chapter}: "), 0.0


def execute_all(preps: list[Prepared], sections: list[Section], log=print) -> None:
    """Execute the chapters in this process, in plain Python; where there are several and two cores,
    a forked copy of this process runs chapters meanwhile, each process taking the next chapter not
    yet taken (`forked.Shared`: the files they read were read once already, `ingest.once`). At most
    `WORKERS` processes work at once (`forked.cores`): a chapter's figures are drawn by a further
    copy only on a core the other process has left (its chapters done), so neither core idles
    while the other ends its last chapter. A failure becomes the section's reason."""
    from benchbook.claims import from_notebook

    parallel = WORKERS > 1 and len(preps) > 1 and forked.can_fork()
    if parallel:  # what both processes import, imported once, before the fork
        import importlib.util

        for name in ["benchbook.presentation.plotting", *(f"benchbook.topics.{p.chapter}" for p in preps)]:
            if importlib.util.find_spec(name) is not None:
                importlib.import_module(name)
    from benchbook.presentation import text_metrics, ticks, titles

    # the files read and those modules kept; a text measured once per process, not once per figure;
    # a title placed without measuring its y-axis once more; an axis's ticks placed once per measure
    with forked.cores(WORKERS), _kept_for_the_report(), text_metrics.shared(), titles.placed(), ticks.placed_once():
        if parallel:
            done = forked.Shared(len(preps), lambda i: _outcome(preps[i], WORKERS)).results()
            outcomes = {p.chapter: done[i] for i, p in enumerate(preps)}
        else:
            outcomes = {p.chapter: _outcome(p, WORKERS) for p in preps}
    by_name = {s.chapter: s for s in sections}
    for prep in preps:
        section = by_name[prep.chapter]
        section.executed, section.reason, seconds = outcomes[prep.chapter]
        if section.executed is not None:
            log(f"  {prep.chapter}: executed in {seconds:.1f} s")
            section.title = declarations.chapter(section.chapter).title
            section.ledger = from_notebook(section.executed)
            section.claims = (section.ledger or {}).get("claims", [])


# --------------------------------------------------------------------------------------------
# The index page and the book that holds it
# --------------------------------------------------------------------------------------------


def _e(text) -> str:
    return html.escape(str(text))


def _claim(text) -> str:
    """A claim's sentence as the index prints it: its Markdown code spans (`c=32`, `report`) as code,
    as the chapter page shows them, not as raw backticks."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", _e(text))


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
        items = "".join(f"<li>{_claim(c.get('text', ''))}</li>" for c in shown)
        items += "".join(f"<li><strong>Warning</strong>: {_claim(c.get('text', ''))}</li>" for c in flagged)
        block = [
            '<div class="benchbook-report-chapter">',
            f'<h3><a href="{s.chapter}.html">{_e(s.title)}</a></h3>',
            f"<p>On {_e(', '.join(s.inputs))}. "
            f'<a href="{s.chapter}.html">Read the chapter</a> &middot; '
            f'<a href="{s.chapter}.claims.json">claims ledger</a></p>',
            f"<ul>{items}</ul>" if items else f"<p>{_e(sentence('report', 'index_none_met', n=len(s.claims)))}</p>",
            f"<p>{_e(sentence('report', 'index_withheld', withheld=withheld, n=len(s.claims)))}</p>"
            if withheld and items
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


def _nav(sections: list[Section]) -> str:
    """The line of links atop every page: the report's index and each chapter page."""
    links = ['<a href="index.html">Report on your files</a>']
    links += [f'<a href="{s.chapter}.html">{_e(s.title)}</a>' for s in sections if s.executed is not None]
    return " &middot; ".join(links)


def pages(inputs: list[Input], sections: list[Section], preps: list[Prepared], roots: list[str]) -> dict[str, str]:
    """Every file of the report by name: index.html, and CHAPTER.html, CHAPTER.claims.json and
    CHAPTER.ipynb for each chapter with a page (`presentation.page_html`, no machine path in any)."""
    import json

    from benchbook.presentation import page_html

    by_name = {p.chapter: p for p in preps}
    done = [s for s in sections if s.executed is not None]
    titles = {s.chapter: s.title for s in done}
    glossary = page_html.read_glossary((config.BOOK_DIR / "glossary.md").read_text(encoding="utf-8"))
    nav = _nav(sections)
    files = {}
    for s in done:
        try:
            page = page_html.page(s.executed, f"{s.title}: benchbook report", titles, glossary, nav)
        except page_html.PageError as exc:
            raise ReportError(f"{s.chapter}: the page could not be rendered ({exc})") from None
        page = re.sub(
            r"(<article[^>]*>)", lambda m, s=s: m.group(1) + _banner(s, by_name.get(s.chapter), inputs), page, count=1
        )
        files[f"{s.chapter}.html"] = _scrub(page, roots)
        files[f"{s.chapter}.ipynb"] = _scrub(json.dumps(s.executed, indent=1, ensure_ascii=False) + "\n", roots)
        if s.ledger is not None:
            files[f"{s.chapter}.claims.json"] = json.dumps(s.ledger, indent=1, allow_nan=False) + "\n"
    index = page_html.markdown_page("benchbook report", index_page(inputs, sections), nav)
    files["index.html"] = _scrub(index, roots)
    return files


def publish(out: Path, files: dict[str, str]) -> Path:
    """Write the report's files into OUT, each atomically, index.html last (a folder holding an
    index is a report: `_ours`)."""
    out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        if name != "index.html":
            config.atomic_write(out / name, text)
    index = out / "index.html"
    config.atomic_write(index, files["index.html"])
    _remove_stale(out, set(files))
    return index


#: What an earlier report (this version's or one rendered by Sphinx) left in its folder.
_REPORT_FILES = ("*.html", "*.claims.json", "*.ipynb", "searchindex.js")
_REPORT_FOLDERS = ("_static", "_images", "_sources")


def _remove_stale(out: Path, written: set[str]) -> None:
    """Remove the pages of an earlier report in OUT that this one did not write again, so the folder
    holds one report: a chapter page left from another input would read as part of this one."""
    import shutil

    for pattern in _REPORT_FILES:
        for path in out.glob(pattern):
            if path.name not in written and path.is_file():
                path.unlink()
    for name in _REPORT_FOLDERS:
        if name not in written and (out / name).is_dir():
            shutil.rmtree(out / name)


def _ours(out: Path) -> bool:
    """Whether OUT may be written: new, empty, or holding a report (its pages are replaced)."""
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

    with _without("hypothesis"), ingest.once(), _kept_for_the_report(), _collected_less():  # each file read once
        return _report(paths, given, out, log)


@contextlib.contextmanager
def _kept_for_the_report():
    """What exists now (every module imported, with its functions, classes and tables) lives as long
    as the report: moved out of the garbage collector's sight (`gc.freeze`, again before the chapters
    fork: the files read, the chapters' modules), so that its full collections go over what the
    chapters make, not over pandas and matplotlib each time (a tenth of a report's CPU went to them),
    and a forked copy's collections do not write to the pages it shares with this process, as
    Python's documentation advises for a process that forks. Put back in its sight after (all of
    it: a block inside another ends the outer one's too, for what little the report does after)."""
    import gc

    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


#: The collector's young generation during a report (Python's is 700): drawing a figure makes and
#: drops artists, transforms and tick objects by the thousand, most of them freed by their count, so
#: a collection every 700 new objects went over them 400 times for three chapters (0.25 s of CPU in
#: one process); every 5,000, 47 times (0.09 s). The garbage they leave in cycles is collected as
#: before, a few thousand objects later.
YOUNG = 5000


@contextlib.contextmanager
def _collected_less():
    """The collector's first threshold `YOUNG` inside the block (a forked copy inherits it), put back after."""
    import gc

    before = gc.get_threshold()
    gc.set_threshold(max(YOUNG, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


@contextlib.contextmanager
def _without(module: str):
    """`module` refused to any import inside the block, where nothing has imported it yet: pandera
    imports Hypothesis for its data synthesis wherever it is installed (the `test` extra), at its
    first validation, which a report never uses (a fifth of a second). None in `sys.modules` makes
    `import module` raise ImportError, which pandera takes as Hypothesis absent."""
    blocked = module not in sys.modules
    if blocked:
        sys.modules[module] = None
    try:
        yield
    finally:
        if blocked and sys.modules.get(module, 0) is None:
            del sys.modules[module]


def _read_meanwhile(paths: list[Path]) -> list[Input]:
    """`read_inputs`, done by a forked copy where two cores are free, while this process imports what
    every chapter draws with (matplotlib and the book's plotting, a third of a second, as long as
    reading three files): the copy sends back the inputs and every reading it kept (`ingest.kept`),
    which this process then holds as if it had read them. Where the copy fails, this process reads.
    What both need (the parsers' modules, the device table, the names a file's context is read
    with) is read before the copy forks: once, not in each (a quarter of a second of CPU, half the
    copy's); this process does the same work as before, in another order."""
    import importlib

    from benchbook import hardware, ingest
    from benchbook.ingest import context

    if WORKERS < 2 or not forked.can_fork():
        return read_inputs(paths)
    ingest.tools()  # the parsers' modules, which the chapters' reading asks for again
    hardware.preload()  # the tables every chapter's process would read again: read once, before they fork
    context.preload()
    copy = forked.Forked(lambda: (read_inputs(paths), ingest.kept()))
    importlib.import_module("benchbook.presentation.plotting")
    sent = copy.result(None)
    if sent is None:
        return read_inputs(paths)
    ingest.keep(sent[1])
    return sent[0]


def _report(paths: list[Path], given: dict, out: Path, log) -> tuple[Path, list[Section]]:
    inputs = _read_meanwhile(paths)
    for i in inputs:
        if i.problem:
            log(f"not read: {i.shown}: {i.problem}")
        else:
            log(f"read: {i.shown}: {'; '.join(i.detected) or ', '.join(i.tools)}")
    preps, sections = plan(inputs, given)
    out.mkdir(parents=True, exist_ok=True)
    with output_lock(out):
        log(f"running {counted(len(preps), 'chapter')}: {', '.join(p.chapter for p in preps)}")
        execute_all(preps, sections, log=log)
        for s in sections:
            if s.executed is None:
                log(f"  {s.chapter}: nothing to say ({s.reason})")
        if not any(s.executed is not None for s in sections):
            raise ReportError(
                "no chapter could say anything about these files: "
                + "; ".join(f"{s.chapter}: {s.reason}" for s in sections)
            )
        t0 = time.perf_counter()
        roots = sorted({str(config.PROJ_ROOT), sys.prefix}, key=len, reverse=True)
        files = pages(inputs, sections, preps, roots)
        n = sum(s.executed is not None for s in sections)
        log(f"  rendered {counted(n, 'page')} in {time.perf_counter() - t0:.1f} s")
        index = publish(out, files)
    return index, sections
