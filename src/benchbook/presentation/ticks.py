"""An axis's ticks placed and their labels measured once per measure of a figure, not once per
question asked of them.

Within one tight box (`Figure.get_tightbbox`), one layout (`tight_layout`) or one draw of a figure,
matplotlib places an axis's ticks again (`Axis._update_ticks`: its locator and formatter run, every
tick is moved and relabelled) each time something asks where they stand: the axis's own box, its
label's place (which places every sibling's ticks again), each spine beside it, the title's place,
its draw; and measures their labels again (`Axis._get_ticklabel_bboxes`) for the axis's box, its
label's place and its offset text. Three chapters' twelve figures placed ticks 630 times, 504 of
them for an axis already placed within the same measure, standing where it stood and showing the
same interval (0.3 s of CPU), and measured tick labels 332 times.

Inside `placed_once()`, such a repeat returns what the first gave: the ticks as they stand, their
labels' boxes (copies) for the same renderer. A placing depends only on the axis's locator,
formatter and view interval and on where its axes stand in the figure (the space that sets how many
ticks fit), a label's box on those ticks and the renderer; within one measure matplotlib changes
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
    """Inside the block, an axis's ticks are placed, and their labels measured, once per measure or
    draw of its figure where its axes stand and its view interval are unchanged
    (`matplotlib.axis.Axis._update_ticks`, `_get_ticklabel_bboxes` and the measures around them,
    put back after)."""
    from matplotlib.axis import Axis
    from matplotlib.figure import Figure, FigureBase, SubFigure
    from matplotlib.layout_engine import ConstrainedLayoutEngine, TightLayoutEngine

    placed: dict = {}  # axis -> (where it stood, the ticks placed), within the measure going on
    boxes: dict = {}  # (axis, where it stood, those ticks, renderer) -> their labels' boxes, likewise
    depth = 0
    place, measure_labels = Axis._update_ticks, Axis._get_ticklabel_bboxes

    def stands(axis) -> tuple:
        return tuple(axis.axes.bbox.bounds), tuple(axis.get_view_interval())

    def _update_ticks(self):
        if not depth:
            return place(self)
        key = stands(self)
        known = placed.get(self)
        if known is not None and known[0] == key:
            return list(known[1])
        ticks = place(self)
        placed[self] = key, ticks
        return list(ticks)

    def _get_ticklabel_bboxes(self, ticks, renderer):
        if not depth:
            return measure_labels(self, ticks, renderer)
        key = (self, stands(self), tuple(map(id, ticks)), renderer)
        if key not in boxes:
            boxes[key] = measure_labels(self, ticks, renderer)
        first, second = boxes[key]
        return [b.frozen() for b in first], [b.frozen() for b in second]

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
                    boxes.clear()

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
    Axis._update_ticks, Axis._get_ticklabel_bboxes = _update_ticks, _get_ticklabel_bboxes
    try:
        yield
    finally:
        Axis._update_ticks, Axis._get_ticklabel_bboxes = place, measure_labels
        for cls, name, method in before:
            setattr(cls, name, method)
