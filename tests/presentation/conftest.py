"""What the figure tests share: the book's theme set for one test, and its figures closed after it."""

from __future__ import annotations

import matplotlib
import pytest


@pytest.fixture
def themed():
    """The book's theme inside a saved rc context, as a chapter sets it; every figure closed after."""
    import matplotlib.pyplot as plt

    from benchbook.presentation import plotting

    with matplotlib.rc_context():
        plotting.use_theme()
        yield
    plt.close("all")
