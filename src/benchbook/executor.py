"""The one way the book runs a chapter notebook: the build, `benchbook run` and `benchbook report`
all execute through `execute`, write through `config.atomic_write` and remove machine paths through `scrub`.

`execute` has two modes. In a kernel (papermill over a fresh Unix-socket kernel, or the kernel
manager `km` given): the build and `benchbook run` use it, so the published book and a reader's
re-run are executed as a reader's Jupyter would. In plain Python (`plain=True`): the cells run with
`exec` in a fresh namespace of this process, and what they glue or display goes through
`presentation.outputs`, which records the outputs a kernel would send (`run_plain`), with no
IPython, myst-nb or nbformat imported; `benchbook report` uses it and renders the result without
Sphinx (`presentation.page_html`). The cells are the chapter's calls (`topics.<chapter>.analyse`
and `page(...).glue()`), so the glued values are the ones a kernel glues: a chapter's page text,
tables, ledger and figures are the same both ways (tests/book/test_plain_pages_say_what_the_notebook_says.py).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import math
import os
import platform
import re
import sys
import tempfile
from pathlib import Path

from benchbook import config

#: Kernels started side by side can lose the race for a port and die during start-up; that says
#: nothing about the notebook, so only that failure is retried, this many times.
KERNEL_START_ATTEMPTS = 3
_KERNEL_START_FAILURE = "Kernel died before replying to kernel_info"


class Failed(Exception):
    """A chapter that did not run to its end: the cell (None where no cell failed: a kernel that
    died or never started, a timeout), the error's name and value, and what was executed before
    (`partial`, None when nothing readable was written)."""

    def __init__(self, cell: int | None, ename: str, evalue: str, source: str = "", partial=None):
        super().__init__(f"{ename}: {evalue}")
        self.cell, self.ename, self.evalue, self.source, self.partial = cell, ename, evalue, source, partial


def machine_paths() -> list[str]:
    """Strings that must not appear in an executed notebook: they would name this machine."""
    paths = {str(config.PROJ_ROOT), sys.prefix, os.path.realpath(sys.prefix)}
    home = str(Path.home())
    if home not in ("", "/"):
        paths.add(home.rstrip("/") + "/")
    paths.add(tempfile.gettempdir().rstrip("/") + "/")
    return sorted(p for p in paths if len(p) > 1)


def scrub_text(text: str, replacements: dict[str, str]) -> str:
    """`text` with each machine path replaced by what a reader is shown instead, in order."""
    for old, new in replacements.items():
        text = text.replace(old, new)
    return text


def scrub(nb, replacements: dict[str, str]) -> None:
    """Replace machine paths in every output of `nb`: text, tracebacks, error values and text data."""
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        for out in cell.get("outputs", []):
            if "text" in out:
                out["text"] = scrub_text(out["text"], replacements)
            if "traceback" in out:
                out["traceback"] = [scrub_text(t, replacements) for t in out["traceback"]]
            if "evalue" in out:
                out["evalue"] = scrub_text(out["evalue"], replacements)
            for mime, data in out.get("data", {}).items():
                if isinstance(data, str) and not mime.startswith(("image/png", "image/jpeg")):
                    out["data"][mime] = scrub_text(data, replacements)


def kernel_manager_class() -> type:
    """A KernelManager that talks to its kernel over Unix sockets in the temporary folder.

    The default transport is TCP on 127.0.0.1, which does not exist where there is no network at
    all (a build in an empty network namespace): the kernel starts and is never heard from. Unix
    sockets need no network, and no other user on the machine can connect to them."""
    import uuid

    from jupyter_client.manager import KernelManager
    from traitlets import default

    class IPCKernelManager(KernelManager):
        @default("transport")
        def _default_transport(self):
            return "ipc"

        @default("ip")
        def _default_ip(self):
            # socket files are <ip>-<port>; jupyter_client removes them when the kernel stops
            return os.path.join(tempfile.gettempdir(), f"benchbook-kernel-{uuid.uuid4().hex[:12]}")

    return IPCKernelManager


def _partial(path: str):
    import nbformat

    try:
        return nbformat.read(path, as_version=4) if os.path.getsize(path) else None
    except (ValueError, OSError):  # cut off mid-write
        return None


def execute(
    source: Path,
    parameters: dict,
    *,
    km=None,
    progress: bool = False,
    keep_partial: bool = False,
    plain: bool = False,
    draw: bool = True,
    draw_workers: int = 1,
):
    """Execute the notebook `source` with `parameters` injected (as papermill injects them) in the
    project root, in the warm kernel `km` or else a fresh one, and return the executed notebook.
    With `plain`, the cells run in this process instead, without IPython (`run_plain`), and the
    notebook is a plain dict (its figures left undrawn
    without `draw`: a test of the text need not draw them; drawn by `draw_workers` processes).

    A fresh kernel that dies before it answers is replaced (KERNEL_START_ATTEMPTS). Any failure
    raises Failed; with `keep_partial` (a reader's `benchbook run`, whose failed notebook is kept)
    papermill saves after every cell so that Failed carries what ran before it. Nothing is left on
    disk (papermill saves into a temporary outside every output folder)."""
    if plain:
        return unfigure(
            run_plain(json.loads(Path(source).read_text(encoding="utf-8")), parameters, source, draw, draw_workers)
        )
    import nbformat
    import papermill
    from papermill.exceptions import PapermillExecutionError

    fd, tmp = tempfile.mkstemp(suffix=".ipynb", prefix="benchbook-exec-")
    os.close(fd)
    kwargs = dict(
        parameters=parameters,
        cwd=str(config.PROJ_ROOT),
        kernel_name="python3",
        language="python",
        progress_bar=progress,
        request_save_on_cell_execute=keep_partial,
        log_output=False,
        execution_timeout=config.EXECUTION_TIMEOUT_S,
    )
    kwargs.update(km=km) if km is not None else kwargs.update(kernel_manager_class=kernel_manager_class())
    try:
        for attempt in range(1, KERNEL_START_ATTEMPTS + 1):
            try:
                papermill.execute_notebook(str(source), tmp, **kwargs)
                break
            except PapermillExecutionError as exc:
                src = (exc.source or "").strip().splitlines()
                raise Failed(
                    exc.exec_count or exc.cell_index, exc.ename, exc.evalue, src[0] if src else "", _partial(tmp)
                ) from None
            except Exception as exc:  # a timeout, a kernel that died or never started
                retry = km is None and _KERNEL_START_FAILURE in str(exc) and attempt < KERNEL_START_ATTEMPTS
                if not retry:
                    first = (str(exc).strip().splitlines() or [""])[0]
                    raise Failed(None, type(exc).__name__, first, "", _partial(tmp)) from None
        return unfigure(nbformat.read(tmp, as_version=4))
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _literal(value) -> str:
    """`value` as Python source, as papermill writes a parameter (non-finite floats included)."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({str(value)!r})"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_literal(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(value) == 1 else ''})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal(k)}: {_literal(v)}" for k, v in value.items()) + "}"
    return repr(value)


def parameterize(nb, parameters: dict, source):
    """`nb` with a cell tagged `injected-parameters` after its `parameters` cell (first, where it has
    none) that sets `parameters`, and the papermill metadata a kernel run records: as papermill
    parameterizes a notebook (an nbformat notebook, or a plain dict read as JSON)."""
    nb = copy.deepcopy(nb)
    if parameters:  # papermill injects nothing where no parameter is given
        nb["cells"] = [c for c in nb["cells"] if "injected-parameters" not in c["metadata"].get("tags", [])]
        lines = "".join(f"{name} = {_literal(value)}\n" for name, value in parameters.items())
        injected = {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {"tags": ["injected-parameters"]},
            "outputs": [],
            "source": "# Parameters\n" + lines,
        }
        if type(nb).__name__ == "NotebookNode":
            import nbformat

            injected = nbformat.v4.new_code_cell(injected["source"], metadata=injected["metadata"])
        at = next((i + 1 for i, c in enumerate(nb["cells"]) if "parameters" in c["metadata"].get("tags", [])), 0)
        nb["cells"].insert(at, injected)
    nb["metadata"]["papermill"] = {
        "default_parameters": {},
        "environment_variables": {},
        "exception": None,
        "input_path": str(source),
        "output_path": None,
        "parameters": dict(parameters),
    }
    return nb


@contextlib.contextmanager
def _as_in_a_fresh_kernel():
    """A chapter's surroundings as a fresh kernel's, this process's own put back after it (yields
    the ExitStack, for more to undo): the project root as working folder, no figure open (the
    inline backend shows every open figure at the end of a cell that drew one), the host's figures
    back after, and
    matplotlib's settings and the warning filters restored (`_fresh_settings` sets them)."""
    import warnings

    import matplotlib
    import matplotlib.pyplot as plt
    from matplotlib._pylab_helpers import Gcf

    cwd = os.getcwd()
    with matplotlib.rc_context(), warnings.catch_warnings(), contextlib.ExitStack() as stack:
        stack.callback(os.chdir, cwd)
        stack.callback(Gcf.figs.update, dict(Gcf.figs))  # the host's open figures, back after the chapter's
        stack.callback(plt.close, "all")
        Gcf.figs.clear()
        yield stack


def _fresh_settings() -> None:
    """Matplotlib's settings as a kernel that has just loaded the inline backend has them, whatever
    this process did before (a test that changed a setting or turned interactive mode off): those of
    matplotlib's own rc file, and interactive mode on (IPython turns it on with the inline backend,
    whose figures are shown at the end of the cell that drew them); Python's default warning
    filters (the host may be pytest); the project root as working folder."""
    import warnings

    import matplotlib

    matplotlib.rc_file_defaults()
    matplotlib.interactive(True)
    os.chdir(config.PROJ_ROOT)
    warnings.resetwarnings()
    for action, category, module in _DEFAULT_FILTERS:
        warnings.filterwarnings(action, category=category, module=module, append=True)
    warnings.filterwarnings("ignore", message=MISSING_GLYPH, category=UserWarning)
    warnings.showwarning = _show_warning


def _without_plain_display_hook(stack: contextlib.ExitStack) -> None:
    """No figure of the chapter asks to be redrawn at each change, as in a kernel (whose display hook
    is IPython's). In plain Python, pyplot's display hook gives every new figure a callback that each
    change of an artist calls in interactive mode, and that draws nothing (a figure is drawn by its
    print): 18,000 calls for three chapters. Put back when the chapter ends."""
    import matplotlib.pyplot as plt

    if plt._REPL_DISPLAYHOOK is plt._ReplDisplayHook.PLAIN:
        plt.uninstall_repl_displayhook()
        stack.callback(plt.install_repl_displayhook)


def _source(cell) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def run_plain(nb: dict, parameters: dict, source, draw: bool = True, draw_workers: int = 1) -> dict:
    """Execute `nb` (a notebook read as plain JSON) in this process, as a fresh kernel would
    (`_as_in_a_fresh_kernel`, `_fresh_settings`), in plain Python: each code cell `exec`uted in one
    fresh namespace, its parameters injected as papermill injects them, what it glues or displays recorded by
    `presentation.outputs` as the outputs a kernel sends, its streams and warnings as stream
    outputs, a figure left open at its end shown as the inline backend shows it. The figures are
    drawn in the chapter's settings (`outputs.Drawing`: with `draw_workers` 2, a forked copy starts
    on those waiting after the cell that left them, and both finish them at the end; left as
    figures without `draw`). Unlike a kernel, a cell's last expression is not displayed: a
    chapter shows what it shows through `outputs`.
    The executed notebook, or Failed."""
    import builtins

    import matplotlib.pyplot as plt
    from matplotlib._pylab_helpers import Gcf

    from benchbook.presentation import outputs

    nb = parameterize(nb, parameters, source)
    nb["metadata"]["language_info"] = _LANGUAGE_INFO | {"version": platform.python_version()}
    drawing = outputs.Drawing(nb, draw_workers) if draw else None
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    count = 0
    with _as_in_a_fresh_kernel() as stack:
        if drawing is not None:  # a copy drawing for a chapter that then failed is stopped
            stack.callback(drawing.cancel)
        recorder = stack.enter_context(outputs.recording(draws=draw))
        backend = plt.get_backend()
        if backend.lower() != "agg":  # figures drawn off screen, as the inline backend draws them
            plt.switch_backend("agg")
            stack.callback(plt.switch_backend, backend)
        _without_plain_display_hook(stack)
        _fresh_settings()
        for cell in nb["cells"]:
            if cell["cell_type"] != "code":
                continue
            text = _source(cell)
            cell["outputs"] = recorder.cell = []
            if not text.strip():
                cell["execution_count"] = None
                continue
            count += 1
            cell["execution_count"] = count
            with _Streams(cell["outputs"]):
                try:
                    exec(compile(text, f"<cell {count}>", "exec"), namespace)  # noqa: S102 - the chapter's own cells
                except KeyboardInterrupt:  # the reader's Ctrl-C stops the command, not a chapter
                    raise
                except BaseException as error:  # SystemExit too: the chapter's, said in one sentence
                    src = text.strip().splitlines()
                    raise Failed(count, type(error).__name__, str(error), src[0] if src else "", nb) from None
                for manager in Gcf.get_all_fig_managers():  # as the inline backend ends a cell
                    outputs.display(manager.canvas.figure)
                plt.close("all")
            if drawing is not None:  # the figures waiting now start on the other core
                drawing.start()
        if drawing is not None:
            drawing.finish()
    return nb


#: matplotlib's notice that no installed font has a glyph of a label (a run named `原始日志` in its file's
#: words, in DejaVu Sans): the figure draws the font's replacement box there, and the label is written in
#: full in the tables beside it; a reader's page never shows the notice.
MISSING_GLYPH = r"Glyph \d+ .* missing from font"

#: Python's warning filters when no -W option is given (the warnings module's documentation), with
#: IPython's own: a DeprecationWarning shows where the cells' code (`__main__`) causes it.
_DEFAULT_FILTERS = [
    ("default", DeprecationWarning, "__main__"),
    ("ignore", DeprecationWarning, ""),
    ("ignore", PendingDeprecationWarning, ""),
    ("ignore", ImportWarning, ""),
    ("ignore", ResourceWarning, ""),
]


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A warning printed to stderr, as Python prints it (a host such as pytest may record it instead)."""
    import warnings

    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


#: What a Python 3 kernel reports of its language (`kernel_info`), as a kernel run records it.
_LANGUAGE_INFO = {
    "codemirror_mode": {"name": "ipython", "version": 3},
    "file_extension": ".py",
    "mimetype": "text/x-python",
    "name": "python",
    "nbconvert_exporter": "python",
    "pygments_lexer": "ipython3",
}


class _Streams:
    """stdout and stderr written while a cell runs, as its `stream` outputs (consecutive writes to
    one stream joined into one output, as a notebook shows them)."""

    def __init__(self, outputs: list) -> None:
        self.outputs = outputs

    def _writer(self, name: str):
        outputs = self.outputs

        class Writer(io.TextIOBase):
            def write(self, text: str) -> int:
                if text:
                    last = outputs[-1] if outputs else None
                    if last is not None and last["output_type"] == "stream" and last["name"] == name:
                        last["text"] += text
                    else:
                        outputs.append({"output_type": "stream", "name": name, "text": text})
                return len(text)

            def writable(self) -> bool:
                return True

        return Writer()

    def __enter__(self):
        self._saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = self._writer("stdout"), self._writer("stderr")
        return self

    def __exit__(self, *exc) -> None:
        sys.stdout, sys.stderr = self._saved


_FIGURE_BLOCK = re.compile(r"^```\{glue:figure\}[ \t]+(\S+)[^\n]*\n.*?^```[ \t]*$", re.M | re.S)


def unfigure(nb):
    """A figure with no data is not drawn: a `{glue:figure}` whose glued value is no image (the
    chapter glued the sentence saying why, `plotting.glue_figure`) becomes that sentence in place,
    its caption about a figure that is not there dropped."""
    from benchbook.presentation import outputs

    images = {}
    for cell in nb["cells"]:
        for out in cell.get("outputs", []) if cell["cell_type"] == "code" else []:
            name = (out.get("metadata") or {}).get("scrapbook", {}).get("name")
            if name:  # myst-nb prefixes the mime; a figure waiting to be drawn (`run_plain`) is one
                images[name] = any("image/" in k or k.endswith(outputs.FIGURE) for k in out.get("data", {}))
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown" and "{glue:figure}" in _source(cell):
            cell["source"] = _FIGURE_BLOCK.sub(
                lambda m: m.group(0) if images.get(m.group(1), True) else f"{{glue:md}}`{m.group(1)}`", _source(cell)
            )
    return nb
