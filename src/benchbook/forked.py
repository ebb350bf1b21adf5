"""Work done by a forked copy of this process, on the machine's second core, while this one goes on:
the report's figures and chapters. One place for the fork, the pipes and the pickle."""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterator

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
    """Items 0..n-1 done by this process and a forked copy of it, each item by whichever is free
    first: both take the next item from one queue, a pipe holding one 2-byte record per item (a read
    of a record is never split, so each is read by exactly one of them). The copy starts at once;
    this process joins in `results` when it is free, so the two finish together whatever each item
    costs (a fixed split left one process idle while the other drew the chapter's slowest figure)."""

    def __init__(self, n: int, work: Callable[[int], object]) -> None:
        if n > MOST_SHARED:
            raise ValueError(f"at most {MOST_SHARED} items in one queue")
        read, write = os.pipe()
        os.write(write, b"".join(i.to_bytes(2, "big") for i in range(n)))
        os.close(write)  # the queue's end is its last record: neither process waits on an empty pipe
        self.n, self.queue, self.work = n, read, work
        self.child = Forked(lambda: {i: work(i) for i in self._taken()})

    def _taken(self) -> Iterator[int]:
        while len(record := os.read(self.queue, 2)) == 2:
            yield int.from_bytes(record, "big")

    def results(self) -> dict[int, object]:
        """{item: its result} for every item: those taken here done here, then the copy's; an item
        the copy took and did not send (it failed) is done here."""
        mine = {i: self.work(i) for i in self._taken()}
        self._close()
        theirs = self.child.result({})
        return {i: mine[i] if i in mine else theirs[i] if i in theirs else self.work(i) for i in range(self.n)}

    def cancel(self) -> None:
        """Stop the copy where the results are no longer wanted (nothing once they were collected)."""
        self.child.cancel()
        self._close()

    def _close(self) -> None:
        if self.queue is not None:
            os.close(self.queue)
            self.queue = None


def can_fork() -> bool:
    return hasattr(os, "fork")
