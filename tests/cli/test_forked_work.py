"""The report's second core: a forked child's result comes back whole, and a child that fails gives
the caller's fallback, never a half-read pickle or a hang."""

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
