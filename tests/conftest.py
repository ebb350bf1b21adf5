"""Helpers shared by the test files."""

from __future__ import annotations

import re

import pytest

from benchbook import config

#: Folders that name a machine (a user's home, a checkout, temporary files): no output may show one.
MACHINE_PATH = re.compile(r"(?<![\w.])(/root/|/home/|/tmp/|/work/|/Users/)")


def find_machine_path(text: str, *also: str) -> str | None:
    """The first machine path in `text` (a folder above, the project root, or one of `also`), with
    40 characters either side so a failure shows where; None when there is none."""
    m = MACHINE_PATH.search(text)
    hits = [m.start()] if m else []
    hits += [text.find(s) for s in (str(config.PROJ_ROOT), *also) if s in text]
    if not hits:
        return None
    at = min(hits)
    return text[max(0, at - 40) : at + 40]


@pytest.fixture(scope="session")
def machine_path():
    """`find_machine_path`, for tests: one definition of what counts as a leaked path."""
    return find_machine_path
