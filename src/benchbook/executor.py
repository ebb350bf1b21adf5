"""The one way the book runs a chapter notebook: the build, `benchbook run` and `benchbook report`
all execute through `execute` (papermill over a Unix-socket kernel, fresh or warm from `Kernels`),
write through `atomic_write` and remove machine paths through `scrub`."""

from __future__ import annotations

import os
import re
import sys
import tempfile
import threading
import time
from pathlib import Path

import nbformat

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


def atomic_write(path: Path, data: bytes | str) -> None:
    """Write to a hidden temporary beside `path`, then rename it over `path`: a reader never sees
    half a file, and a killed writer leaves only a hidden `.*.tmp` that the next run removes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


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


def scrub(nb: nbformat.NotebookNode, replacements: dict[str, str]) -> None:
    """Replace machine paths in every output of `nb`: text, tracebacks, error values and text data."""
    for cell in nb.cells:
        if cell.cell_type != "code":
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


def _partial(path: str) -> nbformat.NotebookNode | None:
    try:
        return nbformat.read(path, as_version=4) if os.path.getsize(path) else None
    except (ValueError, OSError):  # cut off mid-write
        return None


def execute(
    source: Path, parameters: dict, *, km=None, progress: bool = False, keep_partial: bool = False
) -> nbformat.NotebookNode:
    """Execute the notebook `source` with `parameters` injected (as papermill injects them) in the
    project root, in the warm kernel `km` or else a fresh one, and return the executed notebook.

    A fresh kernel that dies before it answers is replaced (KERNEL_START_ATTEMPTS). Any failure
    raises Failed; with `keep_partial` (a reader's `benchbook run`, whose failed notebook is kept)
    papermill saves after every cell so that Failed carries what ran before it. Nothing is left on
    disk (papermill saves into a temporary outside every output folder)."""
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


_FIGURE_BLOCK = re.compile(r"^```\{glue:figure\}[ \t]+(\S+)[^\n]*\n.*?^```[ \t]*$", re.M | re.S)


def unfigure(nb):
    """A figure with no data is not drawn: a `{glue:figure}` whose glued value is no image (the
    chapter glued the sentence saying why, `plotting.glue_figure`) becomes that sentence in place,
    its caption about a figure that is not there dropped."""
    images = {}
    for cell in nb.cells:
        for out in cell.get("outputs", []) if cell.cell_type == "code" else []:
            name = (out.get("metadata") or {}).get("scrapbook", {}).get("name")
            if name:
                images[name] = any("image/" in k for k in out.get("data", {}))  # myst-nb prefixes the mime
    for cell in nb.cells:
        if cell.cell_type == "markdown" and "{glue:figure}" in cell.source:
            cell.source = _FIGURE_BLOCK.sub(
                lambda m: m.group(0) if images.get(m.group(1), True) else f"{{glue:md}}`{m.group(1)}`", cell.source
            )
    return nb


#: Run once in each kernel before any chapter: the imports every chapter makes (most of a chapter's
#: cost on a small file), so that they overlap with reading the files and are paid once per kernel.
_WARM_UP = """
import matplotlib, matplotlib.pyplot, pandas, scipy.stats, seaborn, IPython.display, myst_nb
import benchbook.chapter, benchbook.claims, benchbook.ingest, benchbook.presentation.plotting
import benchbook.presentation.tables, benchbook.presentation.wording
benchbook.ingest.tools()
"""


class Kernels:
    """Warm kernels, one per chapter (`take` / `give`): started in the background, each with the
    chapters' imports already made and its client kept connected (`client`: a new client waits for
    the kernel's readiness again, 0.2 s or more); a kernel given back is replaced by a fresh one."""

    def __init__(self) -> None:
        import queue

        self._free: queue.Queue = queue.Queue()
        self._all: list = []
        self._clients: dict = {}
        self._threads: list[threading.Thread] = []
        self._closing = False

    def start(self) -> None:
        t = threading.Thread(target=self._start_one, daemon=True)
        self._threads.append(t)
        t.start()

    def _start_one(self) -> None:
        km = None
        try:  # whatever fails, the queue gets an entry: a chapter waiting in `take` is never left hanging
            km = kernel_manager_class()(kernel_name="python3")
            self._all.append(km)
            km.start_kernel(cwd=str(config.PROJ_ROOT))
            if not self._closing:
                kc = self._clients[km] = km.client()
                kc.allow_stdin = False
                kc.start_channels()
                # the imports are sent at once (queued until the kernel listens), and the kernel's
                # own messages about them show that its output channel is connected; only where
                # they do not is jupyter_client's readiness check run (it ends with 0.2 s of wait)
                sent = self._send(kc, _WARM_UP, abandon=lambda: self._closing, alive=km.is_alive)
                if not self._idle_seen(kc, sent):
                    kc.wait_for_ready(timeout=120)
        except Exception as exc:  # the chapter that takes it says why
            self._free.put((km, f"the kernel did not start ({type(exc).__name__}: {exc})"))
            return
        self._free.put((km, ""))

    @staticmethod
    def _send(kc, code: str, abandon=lambda: False, alive=lambda: True) -> str:
        """Run `code` in the kernel and wait for its reply, or until `abandon()` says the command
        is closing (a report refused after the kernel started stops it at once, not after its
        imports) or the kernel is no longer `alive()`; returns the request's id. Its outputs are
        not read: nbclient keeps only its own cell's messages."""
        import queue

        msg_id = kc.execute(code, store_history=False)
        deadline = time.monotonic() + config.EXECUTION_TIMEOUT_S
        while True:
            if abandon():
                raise RuntimeError("the command is closing")
            try:
                reply = kc.get_shell_msg(timeout=0.1)
            except queue.Empty:
                if not alive():
                    raise RuntimeError("the kernel died before it replied") from None
                if time.monotonic() > deadline:
                    raise TimeoutError(f"no reply after {config.EXECUTION_TIMEOUT_S} s") from None
                continue
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        if reply["content"]["status"] != "ok":
            raise RuntimeError(f"{reply['content'].get('ename')}: {reply['content'].get('evalue')}")
        return msg_id

    @staticmethod
    def _idle_seen(kc, msg_id: str, wait_s: float = 1.0) -> bool:
        """Whether the kernel's output channel delivers the end of request `msg_id` (its "idle"
        status): then the channel is connected and read up to it, so nbclient misses no output."""
        import queue

        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            try:
                msg = kc.get_iopub_msg(timeout=0.1)
            except queue.Empty:
                continue
            if (
                msg["parent_header"].get("msg_id") == msg_id
                and msg["msg_type"] == "status"
                and msg["content"].get("execution_state") == "idle"
            ):
                return True
        return False

    def client(self, km):
        """The connected client of a kernel this object started."""
        return self._clients.get(km)

    def take(self):
        """A ready kernel, fresh: each runs one chapter (`give` replaces it). A kernel that ran
        another chapter was once reset with `%reset -f` and reused; under load its reset could go
        unanswered until the 600 s deadline, so a report on files three chapters read sat idle."""
        km, problem = self._free.get()
        if problem:
            raise Failed(None, "KernelError", problem)
        return km

    def give(self, km) -> None:
        """Take back a kernel that ran a chapter: stopped, and a fresh one started in its place
        (warming while the next chapter waits) unless the command is closing."""
        self._stop(km)
        if not self._closing:
            self.start()

    def _stop(self, km) -> None:
        kc = self._clients.pop(km, None)
        if kc is not None:
            kc.stop_channels()
        if km.has_kernel:
            km.shutdown_kernel(now=True)

    def shutdown(self) -> None:
        """Stop every kernel, those still starting included (no kernel outlives the command)."""
        self._closing = True
        for t in list(self._threads):
            t.join()
        for km in self._all:
            try:
                self._stop(km)
            except Exception:  # already gone
                pass
