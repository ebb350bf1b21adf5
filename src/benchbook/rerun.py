"""Re-run one chapter on new inputs: check the parameters, execute with papermill, write a page.

`benchbook run CHAPTER --source my_run.txt -p NAME VALUE` goes through `prepare()` (every parameter
checked before anything executes, with the same rules as the chapter's own first cell),
`execute()` (papermill, with a progress bar) and `render_html()` (one self-contained HTML file:
figures embedded, the inputs of cells tagged remove-input/hide-input hidden as in the book, the
MyST roles and directives the chapters use turned into plain HTML). No machine path reaches the
notebook metadata or the page: paths are shown relative to the project root, or by file name.
"""

from __future__ import annotations

import ast
import base64
import html
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from benchbook import config
from benchbook.chapter import ParameterError, declared, setup

#: Tags that hide a cell's input in the book (and therefore in the re-run page).
HIDE_INPUT_TAGS = {"remove-input", "hide-input"}
#: Tags that hide a whole cell, or only its output.
HIDE_CELL_TAGS = {"remove-cell", "hide-cell"}
HIDE_OUTPUT_TAGS = {"remove-output", "hide-output"}
GLUE_PREFIX = "application/papermill.record/"


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


def setup_call(chapter: str) -> dict:
    """The keyword arguments (`paths`, `tools`) the chapter passes to `benchbook.chapter.setup`,
    read from the notebook's code, so the command checks exactly what the first cell checks."""
    nb = nbformat.read(config.NOTEBOOKS_DIR / f"{chapter}.ipynb", as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "code" or "setup(" not in cell.source:
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "setup":
                out = {}
                for kw in node.keywords:
                    if kw.arg in ("paths", "tools"):
                        try:
                            out[kw.arg] = tuple(ast.literal_eval(kw.value))
                        except ValueError:
                            pass
                return out
    return {}


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
    kwargs = setup_call(chapter)
    values = setup(chapter, given, **kwargs)
    params, shown, inputs = {}, {}, []
    path_names = kwargs.get("paths", ("source",))
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


def _scrub_text(text: str, replacements: dict[str, str]) -> str:
    for old, new in replacements.items():
        text = text.replace(old, new)
    return text


def _replacements(prep: Prepared) -> dict[str, str]:
    """Machine path -> what a reader is shown instead (input files, then the project root)."""
    replacements = {str(f): config.relative(f) for f in prep.inputs}
    replacements[str(config.PROJ_ROOT) + os.sep] = ""
    replacements[str(config.PROJ_ROOT)] = "."
    return replacements


def sanitize(nb: nbformat.NotebookNode, prep: Prepared, out_name: str) -> None:
    """Remove machine paths from an executed notebook: papermill's metadata, the injected
    parameters cell, and any absolute input path echoed in an output or a traceback."""
    pm = nb.metadata.get("papermill", {})
    pm["input_path"] = f"notebooks/{prep.chapter}.ipynb"
    pm["output_path"] = out_name
    pm["parameters"] = dict(prep.shown)
    pm.pop("cwd", None)
    replacements = _replacements(prep)
    for cell in nb.cells:
        if "injected-parameters" in cell.metadata.get("tags", []):
            lines = ["# Parameters"] + [f"{k} = {v!r}" for k, v in prep.shown.items()]
            cell.source = "\n".join(lines) + "\n"
            continue
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            if "text" in out:
                out["text"] = _scrub_text(out["text"], replacements)
            if "traceback" in out:
                out["traceback"] = [_scrub_text(t, replacements) for t in out["traceback"]]
            if "evalue" in out:
                out["evalue"] = _scrub_text(out["evalue"], replacements)
            for mime, data in out.get("data", {}).items():
                if isinstance(data, str) and not mime.startswith(("image/png", "image/jpeg")):
                    out["data"][mime] = _scrub_text(data, replacements)


def _keep_failed(tmp: str, prep: Prepared, out_dir: Path) -> Path | None:
    """Save what papermill wrote before the failure as <chapter>.failed.ipynb (sanitized), so the
    traceback can be read; None when it wrote nothing readable."""
    if not os.path.getsize(tmp):
        return None
    failed = out_dir / f"{prep.chapter}.failed.ipynb"
    try:
        nb = nbformat.read(tmp, as_version=4)
    except ValueError:  # cut off mid-write
        return None
    sanitize(nb, prep, failed.name)
    atomic_write(failed, nbformat.writes(nb) + "\n")
    return failed


def execute(prep: Prepared, out_dir: Path, progress: bool = True) -> Path:
    """Execute the chapter with papermill into OUT_DIR/<chapter>.ipynb (written atomically).

    A cell that raises ParameterError becomes ParameterError (one sentence); any other failure (a
    cell that raised or timed out, a kernel that died or never started) becomes RunError naming
    the chapter and the error, and what was executed is kept beside as <chapter>.failed.ipynb so
    the traceback can be read.
    """
    from papermill.exceptions import PapermillExecutionError

    from benchbook.build import run_papermill

    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{prep.chapter}.ipynb"
    # papermill saves as it goes: outside the output folder, so a killed run leaves nothing there
    fd, tmp = tempfile.mkstemp(suffix=".ipynb", prefix=f"benchbook-run-{prep.chapter}-")
    os.close(fd)
    try:
        try:
            run_papermill(
                str(config.NOTEBOOKS_DIR / f"{prep.chapter}.ipynb"),
                tmp,
                parameters=prep.parameters,
                cwd=str(config.PROJ_ROOT),
                kernel_name="python3",
                progress_bar=progress,
                log_output=False,
                execution_timeout=config.EXECUTION_TIMEOUT_S,
            )
        except PapermillExecutionError as exc:
            if exc.ename == "ParameterError":
                raise ParameterError(exc.evalue) from None
            raise RunError(
                f"{prep.chapter}: cell {exc.exec_count or exc.cell_index} failed: {exc.ename}: {exc.evalue}",
                _keep_failed(tmp, prep, out_dir),
            ) from None
        except Exception as exc:  # nbclient's cell timeout or dead kernel, a kernel that never started
            first = (str(exc).strip().splitlines() or [""])[0]
            message = _scrub_text(f"{prep.chapter}: {type(exc).__name__}: {first}".rstrip(": "), _replacements(prep))
            raise RunError(message, _keep_failed(tmp, prep, out_dir)) from None
        nb = nbformat.read(tmp, as_version=4)
        sanitize(nb, prep, target.name)
        atomic_write(target, nbformat.writes(nb) + "\n")
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return target


# --------------------------------------------------------------------------------------------
# Rendering: MyST (as the chapters use it) to plain markdown/HTML, then nbconvert
# --------------------------------------------------------------------------------------------


def glue_data(nb: nbformat.NotebookNode) -> dict[str, dict]:
    """name -> mime bundle of every value the notebook glued (myst_nb.glue)."""
    data = {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            meta = out.get("metadata", {}).get("scrapbook")
            if out.get("output_type") in ("display_data", "execute_result") and meta:
                prefix = meta.get("mime_prefix", "")
                data[meta["name"]] = {k[len(prefix) :]: v for k, v in out.get("data", {}).items()}
    return data


def _format_text(bundle: dict, fmt: str | None) -> str:
    plain = bundle.get("text/plain", "")
    try:
        value = ast.literal_eval(plain)
    except (ValueError, SyntaxError):
        value = plain
    if fmt:
        try:
            return format(value, fmt)
        except (ValueError, TypeError):
            try:
                return format(float(value), fmt)
            except (ValueError, TypeError):
                pass
    return str(value)


def _glue_html(bundle: dict | None, name: str) -> str:
    if bundle is None:
        return f"<p><em>(value {html.escape(name)} was not produced)</em></p>"
    for mime in ("image/png", "image/jpeg"):
        if mime in bundle:
            img = bundle[mime] if isinstance(bundle[mime], str) else base64.b64encode(bundle[mime]).decode()
            return f'<img src="data:{mime};base64,{img.strip()}" alt="{html.escape(name)}" style="max-width:100%">'
    if "image/svg+xml" in bundle:
        return bundle["image/svg+xml"]
    if "text/html" in bundle:
        return bundle["text/html"]
    if "text/markdown" in bundle:
        return bundle["text/markdown"]
    return html.escape(_format_text(bundle, None))


_ROLE = re.compile(r"\{([\w:-]+)\}`([^`]*)`")
_FENCE = re.compile(r"^(\s*)(:{3,}|`{3,})\{([\w:.-]+)\}\s*(.*)$")
_OPTION = re.compile(r"^\s*:([\w-]+):\s*(.*)$")
_ADMONITIONS = {"note", "tip", "hint", "warning", "important", "caution", "attention", "danger", "error", "seealso"}


def _role(match: re.Match, glued: dict) -> str:
    role, content = match.group(1), match.group(2)
    if role.startswith("glue"):
        name, _, fmt = content.partition(":")
        bundle = glued.get(name.strip())
        if bundle is None:
            return f"*(value {name} was not produced)*"
        if role == "glue:md":
            return _format_text(bundle, None)
        return html.escape(_format_text(bundle, fmt or None))
    text = re.match(r"^(.*?)\s*<([^>]*)>$", content)
    if text:  # {term}`text <target>`, {doc}`title <path>`
        return text.group(1)
    if role == "doc":
        return content.rstrip("/").rsplit("/", 1)[-1].replace("_", " ")
    return content


def myst_to_markdown(source: str, glued: dict) -> str:
    """The MyST a chapter uses, as markdown + HTML that nbconvert renders without Sphinx: glue
    roles and figures filled in, admonitions (dropdowns become <details>), cross-reference roles
    reduced to their text, labels and comments dropped."""
    lines = source.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _FENCE.match(line)
        if not m:
            if re.match(r"^\s*\([\w.:-]+\)=\s*$", line) or re.match(r"^\s*%", line):
                i += 1
                continue
            out.append(_ROLE.sub(lambda mm: _role(mm, glued), line))
            i += 1
            continue
        indent, fence, name, arg = m.groups()
        j = i + 1
        while j < len(lines):
            s = lines[j].strip()
            if s and set(s) == {fence[0]} and len(s) >= len(fence):
                break
            j += 1
        body = lines[i + 1 : j]
        opts = {}
        while body and _OPTION.match(body[0]):
            k, v = _OPTION.match(body[0]).groups()
            opts[k] = v
            body = body[1:]
        inner = myst_to_markdown("\n".join(body), glued).strip()
        out.append(_directive(name, arg, opts, inner, glued))
        i = j + 1
    return "\n".join(out)


def _directive(name: str, arg: str, opts: dict, inner: str, glued: dict) -> str:
    if name in ("glue:figure", "glue", "glue:any"):
        key = arg.strip()
        img = _glue_html(glued.get(key), key)
        cap = f"<figcaption>{inner}</figcaption>" if inner else ""
        return f'\n<figure class="glued">\n{img}\n{cap}\n</figure>\n'
    if name == "glue:md":
        return "\n" + _format_text(glued.get(arg.strip(), {}), None) + "\n"
    if name == "figure":
        return f'\n<figure>\n<img src="{html.escape(arg.strip())}" style="max-width:100%">\n<figcaption>{inner}</figcaption>\n</figure>\n'
    if name in ("admonition", "dropdown") or name in _ADMONITIONS:
        title = arg.strip() or name.capitalize()
        title = _ROLE.sub(lambda mm: _role(mm, glued), title)
        if name == "dropdown" or "dropdown" in opts.get("class", ""):
            return f"\n<details>\n<summary>{html.escape(title)}</summary>\n\n{inner}\n\n</details>\n"
        return f'\n<div class="admonition {name}">\n<p class="admonition-title">{html.escape(title)}</p>\n\n{inner}\n\n</div>\n'
    if name in ("code-block", "code", "sourcecode"):
        return f"\n```{arg.strip()}\n{inner}\n```\n"
    return "\n" + inner + "\n"


_EXTRA_CSS = """
<style>
body { max-width: 60rem; margin: 0 auto; }
figure.glued { margin: 1.5em 0; }
figure.glued figcaption, figure figcaption { font-size: 0.95em; color: #333; margin-top: .4em; }
details { border: 1px solid #ccc; border-radius: 4px; padding: .4em .8em; margin: 1em 0; }
details summary { cursor: pointer; font-weight: bold; }
.admonition { border-left: 4px solid #0072B2; background: #f5f9fc; padding: .4em .9em; margin: 1em 0; }
.admonition-title { font-weight: bold; }
.benchbook-run { font-family: system-ui, sans-serif; font-size: .9em; color: #444; border-bottom: 1px solid #ddd; padding-bottom: .5em; }
</style>
"""


def page_notebook(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of an executed notebook prepared for nbconvert: MyST turned into markdown/HTML,
    hidden inputs and cells removed, glue-only outputs dropped."""
    nb = nbformat.from_dict(nb)
    glued = glue_data(nb)
    cells = []
    for cell in nb.cells:
        tags = set(cell.metadata.get("tags", []))
        if tags & HIDE_CELL_TAGS:
            continue
        if cell.cell_type == "markdown":
            cell.source = myst_to_markdown(cell.source, glued)
        elif cell.cell_type == "code":
            cell.outputs = [
                o
                for o in cell.get("outputs", [])
                if not any(k.startswith(GLUE_PREFIX) for k in o.get("data", {}))
                and not (o.get("output_type") == "stream" and o.get("name") == "stderr")
            ]
            if tags & HIDE_OUTPUT_TAGS:
                cell.outputs = []
            if tags & HIDE_INPUT_TAGS:
                cell.metadata.setdefault("jupyter", {})["source_hidden"] = True
                cell.metadata["transient"] = {"remove_source": True}
            if tags & HIDE_INPUT_TAGS and not cell.outputs:
                continue
        cells.append(cell)
    nb.cells = cells
    return nb


def render_html(executed: Path, out: Path | None = None, title: str | None = None) -> Path:
    """Write one self-contained HTML page for an executed chapter (figures embedded, no script or
    style fetched from the network)."""
    from nbconvert import HTMLExporter
    from traitlets.config import Config

    nb = nbformat.read(executed, as_version=4)
    page = page_notebook(nb)
    c = Config()
    c.TagRemovePreprocessor.enabled = True
    c.TagRemovePreprocessor.remove_input_tags = set(HIDE_INPUT_TAGS)
    c.HTMLExporter.exclude_input_prompt = True
    c.HTMLExporter.exclude_output_prompt = True
    exporter = HTMLExporter(config=c, template_name="lab")
    exporter.register_preprocessor("nbconvert.preprocessors.TagRemovePreprocessor", enabled=True)
    body, _ = exporter.from_notebook_node(page, resources={"metadata": {"name": title or executed.stem}})
    body = strip_remote(body)
    params = nb.metadata.get("papermill", {}).get("parameters", {})
    chapter = nb.metadata.get("papermill", {}).get("input_path", executed.name)
    shown = ", ".join(f"{k} = {v!r}" for k, v in params.items()) or "defaults"
    banner = (
        f'<div class="benchbook-run">Re-run of <code>{html.escape(chapter)}</code> with '
        f"{html.escape(shown)}. Made by <code>benchbook run</code>.</div>"
    )
    body = body.replace("</head>", _EXTRA_CSS + "</head>", 1)
    body = re.sub(r"(<main[^>]*>|<body[^>]*>)", lambda m: m.group(1) + banner, body, count=1)
    out = out or executed.with_suffix(".html")
    atomic_write(out, body)
    return out


def strip_remote(page: str) -> str:
    """Drop <script src=http...> and <link href=http...> (MathJax, require.js): the chapters use
    no math and no widgets, and the page must open offline."""
    page = re.sub(r"<script[^>]*\bsrc=\"https?://[^\"]*\"[^>]*>\s*</script>", "", page)
    page = re.sub(r"<link[^>]*\bhref=\"https?://[^\"]*\"[^>]*>", "", page)
    page = re.sub(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", "", page, flags=re.S)
    # the lab template lazily imports mermaid from a CDN; the chapters draw no diagrams
    page = re.sub(
        r"<script type=\"module\">(?:(?!</script>).)*?cdnjs(?:(?!</script>).)*</script>", "", page, flags=re.S
    )
    return page


def run(chapter: str, given: dict, sources: list[str] | None, out_dir: Path, progress: bool = True, log=print):
    """Check, execute and render; return (executed notebook, html page). `benchbook run` is this.
    One run per output folder at a time, and every file it writes lies inside that folder."""
    prep = prepare(chapter, given, sources)
    out_dir.mkdir(parents=True, exist_ok=True)
    with output_lock(out_dir):
        keep_outputs_inside(prep, out_dir)
        shown = ", ".join(f"{k}={v!r}" for k, v in prep.shown.items()) or "defaults"
        log(f"running {chapter} with {shown}")
        nb = execute(prep, out_dir, progress=progress)
        write_ledger(nb, out_dir / f"{chapter}.claims.json")
        page = render_html(nb, out_dir / f"{chapter}.html", title=chapter)
    return nb, page


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


def atomic_write(path: Path, text: str) -> None:
    """Write text to a hidden temporary beside `path`, then rename it over `path`."""
    fd, tmp = tempfile.mkstemp(suffix=".tmp", dir=path.parent, prefix=f".{path.name}-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def write_ledger(executed: Path, target: Path) -> Path | None:
    """The chapter's claims ledger beside its page (atomically); None when it published none."""
    import json

    from benchbook.claims import from_notebook

    ledger = from_notebook(nbformat.read(executed, as_version=4))
    if ledger is None:
        return None
    atomic_write(target, json.dumps(ledger, indent=1, allow_nan=False) + "\n")
    return target
