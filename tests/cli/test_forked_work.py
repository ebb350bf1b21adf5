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


def test_with_no_core_free_this_process_does_every_item():
    import os

    here = os.getpid()
    with forked.cores(1):
        shared = forked.Shared(4, lambda i: os.getpid())
        assert shared.child is None
        assert shared.results() == dict.fromkeys(range(4), here)


def test_with_a_core_free_a_copy_takes_it_and_gives_it_back_before_it_is_read():
    import os
    import time

    with forked.cores(2):
        shared = forked.Shared(2, lambda i: os.getpid() if i else time.sleep(0.01))
        assert shared.child is not None
        assert not forked.take()  # the copy holds the one free core
        deadline = time.monotonic() + 30
        while not forked.take():  # its work done, the copy frees the core though nobody read its result yet
            assert time.monotonic() < deadline, "the copy kept its core after its work"
            time.sleep(0.01)
        forked.give()  # (this test's own taking, put back)
        shared.results()


def test_a_process_waiting_for_its_copy_frees_its_core_and_takes_one_back():
    import time

    def until_a_core_is_free():
        deadline = time.monotonic() + 30
        while not forked.take():  # free only once the parent waits in `result`
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    with forked.cores(2):
        assert forked.take()  # the free core, for the copy
        child = forked.Forked(until_a_core_is_free, core=True)
        assert child.result(None) is True
        assert forked._held  # the parent holds a core again: the one the copy gave back as it ended


def test_without_a_count_every_copy_asked_for_is_forked():
    assert forked.take()
    assert forked.Shared(2, lambda i: i).child is not None
