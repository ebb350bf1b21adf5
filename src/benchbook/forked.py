"""Work done by a forked copy of this process, on the machine's second core, while this one goes on:
the report's figures and chapters. One place for the fork, the pipe and the pickle."""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable

_NOTHING = object()


class Forked:
    """A child that computes `work()` and sends it back through a pipe; `result` waits for it."""

    def __init__(self, work: Callable[[], object]) -> None:
        read, write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child: compute, send, and leave without running anything of the parent's
            status = 1
            try:
                os.close(read)
                view = memoryview(pickle.dumps(work()))
                while view:
                    view = view[os.write(write, view) :]
                status = 0
            finally:
                os._exit(status)
        os.close(write)
        self.fd, self._value = read, _NOTHING

    def result(self, failed):
        """What the child computed, or `failed` where it failed (read once, then kept)."""
        if self._value is _NOTHING:
            chunks = []
            while chunk := os.read(self.fd, 1 << 20):
                chunks.append(chunk)
            os.close(self.fd)
            _, status = os.waitpid(self.pid, 0)
            try:
                self._value = pickle.loads(b"".join(chunks)) if status == 0 else failed
            except (pickle.UnpicklingError, EOFError):
                self._value = failed
        return self._value


def can_fork() -> bool:
    return hasattr(os, "fork")
