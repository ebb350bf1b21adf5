"""Work done by a forked copy of this process, on a core no other process of the report uses, while
this one goes on: the report's figures and chapters. One place for the fork, the pipes, the pickle
and the count of free cores."""

from __future__ import annotations

import contextlib
import os
import pickle
from collections.abc import Callable, Iterator

_NOTHING = object()


class Forked:
    """A child that computes `work()` and sends it back through a pipe; `result` waits for it. A
    child forked onto a free core the caller took (`core`, `take`) gives it back as it ends."""

    def __init__(self, work: Callable[[], object], core: bool = False) -> None:
        read, write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child: compute, send, and leave without running anything of the parent's
            global _held
            _held, status = core, 1
            try:
                os.close(read)
                view = memoryview(pickle.dumps(work()))
                give()  # its work done: the core is free while the parent has yet to read what it sends
                while view:
                    view = view[os.write(write, view) :]
                status = 0
            finally:
                give()
                os._exit(status)
        os.close(write)
        self.fd, self._value = read, _NOTHING

    def result(self, failed):
        """What the child computed, or `failed` where it failed (read once, then kept). This process's
        core is free for others while it waits (`idle`)."""
        if self._value is _NOTHING:
            chunks = []
            with idle():
                while chunk := os.read(self.fd, 1 << 20):
                    chunks.append(chunk)
                os.close(self.fd)
                _, status = os.waitpid(self.pid, 0)
            try:
                self._value = pickle.loads(b"".join(chunks)) if status == 0 else failed
            except (pickle.UnpicklingError, EOFError):
                self._value = failed
        return self._value

    def cancel(self) -> None:
        """Stop the child where its result is no longer wanted (its parent failed), and reap it."""
        if self._value is _NOTHING:
            import signal

            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            os.close(self.fd)
            self._value = None


#: Items one `Shared` queue may hold: their records (2 bytes each) must fit in a pipe's buffer, which
#: is written whole before the fork (64 KiB on Linux, 16 KiB on some other systems).
MOST_SHARED = 4096


class Shared:
    """Items 0..n-1 done by this process and, where a core is free (`take`), a forked copy of it,
    each item by whichever is free first: both take the next item from one queue, a pipe holding one
    2-byte record per item (a read of a record is never split, so each is read by exactly one of
    them). The copy starts at once; this process joins in `results` when it is free, so the two
    finish together whatever each item costs (a fixed split left one process idle while the other
    drew the chapter's slowest figure). With no core free, this process does every item."""

    def __init__(self, n: int, work: Callable[[int], object], copy: bool | None = None) -> None:
        """`copy`: whether to fork the copy (the caller took a free core for it); by default, where
        `take` finds a free core."""
        if n > MOST_SHARED:
            raise ValueError(f"at most {MOST_SHARED} items in one queue")
        read, write = os.pipe()
        os.write(write, b"".join(i.to_bytes(2, "big") for i in range(n)))
        os.close(write)  # the queue's end is its last record: neither process waits on an empty pipe
        self.n, self.queue, self.work = n, read, work
        copy = take() if copy is None else copy
        self.child = Forked(lambda: {i: work(i) for i in self._taken()}, core=True) if copy else None

    def _taken(self) -> Iterator[int]:
        while len(record := os.read(self.queue, 2)) == 2:
            yield int.from_bytes(record, "big")

    def results(self) -> dict[int, object]:
        """{item: its result} for every item: those taken here done here, then the copy's; an item
        the copy took and did not send (it failed) is done here."""
        mine = {i: self.work(i) for i in self._taken()}
        self._close()
        theirs = self.child.result({}) if self.child is not None else {}
        return {i: mine[i] if i in mine else theirs[i] if i in theirs else self.work(i) for i in range(self.n)}

    def cancel(self) -> None:
        """Stop the copy where the results are no longer wanted (nothing once they were collected)."""
        if self.child is not None:
            self.child.cancel()
        self._close()

    def _close(self) -> None:
        if self.queue is not None:
            os.close(self.queue)
            self.queue = None


def can_fork() -> bool:
    return hasattr(os, "fork")


# --------------------------------------------------------------------------------------------------
# The free cores: one byte each in a pipe every process of the report shares
# --------------------------------------------------------------------------------------------------

#: The pipe of free cores (read end, write end), where `cores` set one up; None: no count is kept,
#: and every copy asked for is forked.
_pool: tuple[int, int] | None = None
#: Whether this process holds one of the counted cores (the process that set up the count does; a
#: copy does from its fork, having taken a free one; a process gives its own while it waits).
_held = False


@contextlib.contextmanager
def cores(n: int) -> Iterator[None]:
    """Inside it, at most `n` processes work at once: this one and the copies `Shared` forks, each
    only where a core is free (`take`). A process whose work is done, or that waits for a copy,
    gives its core back (`give`, `idle`), so that a process still working can fork a copy onto it:
    the chapters' figures then move to a core another chapter has left. Without it (a test, a
    kernel), every copy asked for is forked."""
    global _pool, _held
    if _pool is not None:  # the count already kept by an outer block
        yield
        return
    read, write = os.pipe()
    os.set_blocking(read, False)
    os.write(write, b"x" * max(0, n - 1))
    _pool, _held = (read, write), True
    try:
        yield
    finally:
        os.close(read)
        os.close(write)
        _pool, _held = None, False


def take() -> bool:
    """Take a free core for a copy about to be forked, if there is one (never waits); True where no
    count is kept."""
    if _pool is None:
        return True
    try:
        return len(os.read(_pool[0], 1)) == 1
    except BlockingIOError:
        return False


def give() -> None:
    """Give this process's core back to the free ones (once: a process that holds none gives nothing)."""
    global _held
    if _pool is not None and _held:
        os.write(_pool[1], b"x")
        _held = False


@contextlib.contextmanager
def idle() -> Iterator[None]:
    """While this process waits, its core is free for another's copy; after, it takes a free core
    back where there is one (where there is none, it goes on without: the next copy waits for one)."""
    global _held
    had = _held
    give()
    try:
        yield
    finally:
        if had and _pool is not None:
            _held = take()
