"""The report's second core: a forked child's result comes back whole, and a child that fails gives
the caller's fallback, never a half-read pickle or a hang; a shared queue does every item once."""

from __future__ import annotations

import pytest

from benchbook import forked

pytestmark = pytest.mark.skipif(not forked.can_fork(), reason="this system cannot fork")


def test_the_childs_result_comes_back_whole():
    big = list(range(300_000))  # more than one pipe buffer
    child = forked.Forked(lambda: {"svg": "<svg/>", "big": big})
    assert child.result({}) == {"svg": "<svg/>", "big": big}
    assert child.result(None) == {"svg": "<svg/>", "big": big}  # read once, then kept


def test_a_child_that_fails_gives_the_fallback():
    def boom():
        raise RuntimeError("no")

    assert forked.Forked(boom).result({"fallback": True}) == {"fallback": True}


def test_a_shared_queue_gives_every_item_once_whoever_took_it():
    shared = forked.Shared(40, lambda i: (i * i, "x" * 5000))  # more than a pipe buffer comes back
    assert shared.results() == {i: (i * i, "x" * 5000) for i in range(40)}


def test_items_the_copy_took_and_failed_on_are_done_here():
    import os

    here = os.getpid()

    def work(i):
        if os.getpid() != here:
            raise RuntimeError("the copy fails")
        return i + 1

    assert forked.Shared(6, work).results() == {i: i + 1 for i in range(6)}


def test_a_cancelled_copy_is_stopped_and_reaped():
    import os
    import time

    shared = forked.Shared(3, lambda i: time.sleep(60))
    pid = shared.child.pid
    shared.cancel()
    with pytest.raises(ChildProcessError):  # no such child left: killed and reaped
        os.waitpid(pid, os.WNOHANG)
