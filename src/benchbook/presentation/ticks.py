"""An axis's ticks placed once per measure of a figure, not once per question asked of them.

Within one tight box (`Figure.get_tightbbox`), one layout (`tight_layout`) or one draw of a figure,
matplotlib places an axis's ticks again (`Axis._update_ticks`: its locator and formatter run, every
tick is moved and relabelled) each time something asks where they stand: the axis's own box, its
label's place (which places every sibling's ticks again), each spine beside it, the title's place,
its draw. Three chapters' twelve figures placed ticks 630 times, 504 of them for an axis already
placed within the same measure, standing where it stood and showing the same interval (0.3 s of CPU).

Inside `placed_once()`, such a repeat returns the ticks the first placing gave, as they stand: a
placing depends only on the axis's locator, formatter and view interval and on where its axes stand
in the figure (the space that sets how many ticks fit), and within one measure matplotlib changes
none of them but where the axes stand (an aspect applied, a layout engine run), which is part of the
key. Outside a measure (a chapter asking for its tick labels) every placing is done as before. The
SVG is the same bytes (tests/presentation/test_ticks.py).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator


@contextlib.contextmanager
def placed_once() -> Iterator[None]:
    """Inside the block, an axis's ticks are placed once per measure or draw of its figure where its
    axes stand and its view interval are unchanged (`matplotlib.axis.Axis._update_ticks`, and the
    measures around it, put back after)."""
    from matplotlib.axis import Axis
    from matplotlib.figure import Figure, FigureBase, SubFigure
    from matplotlib.layout_engine import ConstrainedLayoutEngine, TightLayoutEngine

    placed: dict = {}  # axis -> (where it stood, the ticks placed), within the measure going on
    depth = 0
    place = Axis._update_ticks

    def _update_ticks(self):
        if not depth:
            return place(self)
        key = (tuple(self.axes.bbox.bounds), tuple(self.get_view_interval()))
        known = placed.get(self)
        if known is not None and known[0] == key:
            return list(known[1])
        ticks = place(self)
        placed[self] = key, ticks
        return list(ticks)

    def measure(method):
        @functools.wraps(method)
        def within(*args, **kwargs):
            nonlocal depth
            depth += 1
            try:
                return method(*args, **kwargs)
            finally:
                depth -= 1
                if not depth:
                    placed.clear()

        return within

    measures = [
        (FigureBase, "get_tightbbox"),
        (Figure, "draw"),
        (SubFigure, "draw"),
        (TightLayoutEngine, "execute"),
        (ConstrainedLayoutEngine, "execute"),
    ]
    before = [(cls, name, cls.__dict__[name]) for cls, name in measures]
    for cls, name, method in before:
        setattr(cls, name, measure(method))
    Axis._update_ticks = _update_ticks
    try:
        yield
    finally:
        Axis._update_ticks = place
        for cls, name, method in before:
            setattr(cls, name, method)
