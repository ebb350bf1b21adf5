"""Re-run one chapter on new inputs: check the parameters, execute with papermill, write a page.

`benchbook run CHAPTER --source my_run.txt -p NAME VALUE` goes through `prepare()` (every parameter
checked before anything executes, with the same rules as the chapter's own first cell),
`execute()` (papermill, with a progress bar) and `render_html()` (the book's own engine, Sphinx and
myst-nb with the book's theme, on a one-chapter book: see `benchbook.single_page`). No machine path reaches the
notebook metadata or the page: paths are shown relative to the project root, or by file name.
"""

from __future__ import annotations

import html
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from benchbook import config, declarations, executor
from benchbook.chapter import ParameterError, declared, setup


class RunError(RuntimeError):
    """A chapter could not be executed (a cell raised): names the cell and the error."""

    def __init__(self, message: str, notebook: Path | None = None):
        super().__init__(message)
        self.notebook = notebook


# --------------------------------------------------------------------------------------------
# Parameters
# --------------------------------------------------------------------------------------------


def parse_value(text: str):
    """A command-line value read the way papermill's `-p` reads it: True/False/None, int, float,
    else the string itself."""
    if text in ("True", "False"):
        return text == "True"
    if text == "None":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


@dataclass
class Prepared:
    """A checked run: what papermill receives, and how each value is shown to a reader."""

    chapter: str
    parameters: dict
    shown: dict
    inputs: list[Path] = field(default_factory=list)


def prepare(chapter: str, given: dict, sources: list[str] | None = None) -> Prepared:
    """Check a chapter's parameters before execution (raises ParameterError with one sentence).

    `given` holds the -p values (already typed by `parse_value`); `sources`, when given, sets the
    `source` parameter (several files are joined with commas, which every chapter accepts).
    A value given for a str parameter is kept as the text typed (so `-p model 7` is "7").
    """
    spec = declared(chapter)
    given = dict(given)
    if sources:
        if "source" not in spec:
            raise ParameterError(f"chapter {chapter!r} takes no source file; its parameters are: {', '.join(spec)}.")
        given["source"] = ",".join(str(s) for s in sources)
    for name, value in list(given.items()):
        if name in spec and isinstance(spec[name]["default"], str) and not isinstance(value, str) and value is not None:
            given[name] = str(value)
    values = setup(chapter, given)
    params, shown, inputs = {}, {}, []
    path_names = declarations.chapter(chapter).paths
    for name, value in given.items():
        if name in path_names and value is not None:
            files = values[name]
            inputs += files
            sep_list = isinstance(value, (list, tuple))
            params[name] = [str(f) for f in files] if sep_list else ",".join(str(f) for f in files)
            shown[name] = (
                [config.relative(f) for f in files] if sep_list else ",".join(config.relative(f) for f in files)
            )
        else:
            params[name] = value
            shown[name] = value
    return Prepared(chapter, params, shown, inputs)


# --------------------------------------------------------------------------------------------
# Execution
# --------------------------------------------------------------------------------------------


def _replacements(prep: Prepared) -> dict[str, str]:
    """Machine path -> what a reader is shown instead (input files, then the project root)."""
    replacements = {str(f): config.relative(f) for f in prep.inputs}
    replacements[str(config.PROJ_ROOT) + os.sep] = ""
    replacements[str(config.PROJ_ROOT)] = "."
    # a library's warning names its file under the Python environment (the book itself, once installed)
    for prefix in {sys.prefix, os.path.realpath(sys.prefix)}:
        replacements.setdefault(prefix + os.sep, "")
    return replacements


def sanitize(nb, prep: Prepared, out_name: str) -> None:
    """Remove machine paths from an executed notebook (nbformat's, or `executor.run_plain`'s plain
    dict): papermill's metadata, the parameters (shown once, as this run used them) and any
    absolute input path echoed in an output or a traceback."""
    pm = nb["metadata"].get("papermill", {})
    pm["input_path"] = f"notebooks/{prep.chapter}.ipynb"
    pm["output_path"] = out_name
    pm["parameters"] = dict(prep.shown)
    pm.pop("cwd", None)
    nb["cells"] = [c for c in nb["cells"] if "injected-parameters" not in c["metadata"].get("tags", [])]
    for cell in nb["cells"]:
        if "parameters" in cell["metadata"].get("tags", []):
            cell["source"] = parameters_of_this_run(prep)
        elif cell["cell_type"] == "markdown" and "source" in prep.shown:
            cell["source"] = without_book_runs("".join(cell["source"]))
    executor.scrub(nb, _replacements(prep))


#: The heading of a chapter's exercises that re-run it on the book's own fixtures (and the line that
#: ends them): on a page about the reader's file they would be about the book's data.
BOOK_RUNS = re.compile(r"^(#{2,4}) Run it again\s*$")


def without_book_runs(markdown: str) -> str:
    """`markdown` without its "Run it again" section (to the next heading of its level or above, or
    the chapter's **Next:** line), kept for the book, left out of a page run on the reader's file."""
    lines, out, cut = markdown.splitlines(keepends=True), [], None
    for line in lines:
        m = BOOK_RUNS.match(line.rstrip("\n"))
        if m:
            cut = len(m.group(1))
            continue
        if cut is not None:
            h = re.match(r"^(#{1,6}) ", line)
            if (h and len(h.group(1)) <= cut) or line.startswith("**Next:**"):
                cut = None
            else:
                continue
        out.append(line)
    return "".join(out)


def parameters_of_this_run(prep: Prepared) -> str:
    """The parameters cell as this run used it: every parameter with the value it had (the reader's
    files, never the book's own inputs) and its help. It replaces both the chapter's defaults and
    papermill's injected cell, so a page shows one set of parameters, the reader's."""
    lines = []
    for name, info in declared(prep.chapter).items():
        value = prep.shown.get(name, info["default"])
        lines.append(f"{name} = {value!r}" + (f"  # {info['help']}" if info["help"] else ""))
    return "\n".join(lines) + "\n"


def _keep_failed(partial, prep: Prepared, out_dir: Path) -> Path | None:
    """Save what ran before the failure as <chapter>.failed.ipynb (sanitized), so the traceback
    can be read; None when nothing readable was written."""
    import nbformat

    if partial is None:
        return None
    failed = out_dir / f"{prep.chapter}.failed.ipynb"
    sanitize(partial, prep, failed.name)
    config.atomic_write(failed, nbformat.writes(partial) + "\n")
    return failed


def execute(prep: Prepared, out_dir: Path, progress: bool = True) -> Path:
    """Execute the chapter into OUT_DIR/<chapter>.ipynb (written atomically).

    A cell that raises ParameterError becomes ParameterError (one sentence); any other failure (a
    cell that raised or timed out, a kernel that died or never started) becomes RunError naming
    the chapter and the error, and what was executed is kept beside as <chapter>.failed.ipynb so
    the traceback can be read.
    """
    import nbformat

    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{prep.chapter}.ipynb"
    try:
        nb = executor.execute(
            config.NOTEBOOKS_DIR / f"{prep.chapter}.ipynb",
            prep.parameters,
            progress=progress,
            keep_partial=True,
        )
    except executor.Failed as exc:
        if exc.ename == "ParameterError":
            raise ParameterError(exc.evalue) from None
        where = f"cell {exc.cell} failed: " if exc.cell is not None else ""
        message = executor.scrub_text(
            f"{prep.chapter}: {where}{exc.ename}: {exc.evalue}".rstrip(": "), _replacements(prep)
        )
        raise RunError(message, _keep_failed(exc.partial, prep, out_dir)) from None
    sanitize(nb, prep, target.name)
    config.atomic_write(target, nbformat.writes(nb) + "\n")
    return target


# --------------------------------------------------------------------------------------------
# Rendering: the book's own engine, on a one-chapter book (benchbook.single_page)
# --------------------------------------------------------------------------------------------


def render_html(executed: Path, out: Path | None = None, title: str | None = None) -> Path:
    """The page of an executed chapter, rendered as the book renders it, with a banner naming the
    parameters of this run."""
    import nbformat

    from benchbook.single_page import render

    nb = nbformat.read(executed, as_version=4)
    params = nb.metadata.get("papermill", {}).get("parameters", {})
    chapter = nb.metadata.get("papermill", {}).get("input_path", executed.name)
    shown = ", ".join(f"{k} = {v!r}" for k, v in params.items()) or "defaults"
    banner = (
        '<div class="admonition note benchbook-run"><p class="admonition-title">Your run</p><p>Re-run of '
        f"<code>{html.escape(chapter)}</code> with {html.escape(shown)}, made by <code>benchbook run</code>.</p></div>"
    )
    return render(executed, out or executed.with_suffix(".html"), title or executed.stem, banner)


def run(
    chapter: str,
    given: dict,
    sources: list[str] | None,
    out_dir: Path,
    progress: bool = True,
    log=print,
):
    """Check, execute (in a kernel) and render; return (executed notebook, html page): `benchbook
    run`. One run per output folder at a time, and every file it writes lies inside that folder."""
    prep = prepare(chapter, given, sources)
    out_dir.mkdir(parents=True, exist_ok=True)
    with output_lock(out_dir):
        keep_outputs_inside(prep, out_dir)
        shown = ", ".join(f"{k}={v!r}" for k, v in prep.shown.items()) or "defaults"
        log(f"running {chapter} with {shown}")
        nb = _executed_while_the_engine_loads(prep, out_dir, progress)
        write_ledger(nb, out_dir / f"{chapter}.claims.json")
        page = render_html(nb, out_dir / f"{chapter}.html", title=chapter)
    return nb, page


def _executed_while_the_engine_loads(prep: Prepared, out_dir: Path, progress: bool):
    """Execute the chapter in a kernel while a thread imports the render's engine. Two threads
    importing the same package at once can each find it half made: the kernel's start then failed
    with "KeyError: 'IPython'" now and then. So what this thread imports while the kernel runs
    (IPython, papermill and its kernel client) is imported before the engine's thread starts."""
    import IPython  # noqa: F401
    import papermill  # noqa: F401
    from jupyter_client.manager import KernelManager  # noqa: F401

    from benchbook.single_page import warm_engine

    warm = warm_engine()
    nb = execute(prep, out_dir, progress=progress)
    warm.join()
    return nb


@contextmanager
def output_lock(out_dir: Path) -> Iterator[None]:
    """Hold an flock on the output folder itself for the run (no lock file left behind); a second
    run into the same folder refuses (RunError, one sentence) instead of racing the first for the
    same files. The kernel does not inherit the descriptor (close-on-exec), so a killed run frees
    the folder at once; its leftovers (hidden *.tmp) are removed by the next run."""
    import fcntl

    fd = os.open(out_dir, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunError(
                f"{out_dir.name}: another `benchbook run` is writing into this folder; "
                "wait for it to finish or give another -o folder"
            ) from None
        for stale in out_dir.glob(".*.tmp"):
            stale.unlink(missing_ok=True)
        yield
    finally:
        os.close(fd)


def keep_outputs_inside(prep: Prepared, out_dir: Path) -> None:
    """Point the chapter's output-file parameters (`*_out`, e.g. data_audit's `csv_out`) that the
    user left at their default into OUT_DIR, so a re-run never rewrites the book's own files."""
    for name, info in declared(prep.chapter).items():
        default = info["default"]
        if name.endswith("_out") and name not in prep.parameters and isinstance(default, str) and default:
            target = out_dir / Path(default).name
            prep.parameters[name] = str(target)
            prep.shown[name] = target.name


def write_ledger(executed: Path, target: Path) -> Path | None:
    """The chapter's claims ledger beside its page (atomically); None when it published none."""
    import json

    import nbformat

    from benchbook.claims import from_notebook

    ledger = from_notebook(nbformat.read(executed, as_version=4))
    if ledger is None:
        return None
    config.atomic_write(target, json.dumps(ledger, indent=1, allow_nan=False) + "\n")
    return target
