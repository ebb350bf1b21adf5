"""A titled axes placed without measuring its whole y-axis once more for an empty offset text.

At every layout, tight box and draw, matplotlib places each titled axes' title
(`Axes._update_title_position`), and for that computes the tight box of every y-axis beside it
(`YAxis.get_tightbbox`: its ticks, tick labels, label position), only so that its offset text (a
"1e6" in the corner) is up to date, which the title then avoids. The book's axes print no offset
(`plotting.use_theme`: `axes.formatter.useoffset` off), and the box is computed again right after
for the axes' own box or its draw: a quarter of a figure's tight box went to it. Inside `placed()`,
that call updates the axis's ticks and its offset text only, and measures the axis as before where
the offset text is not empty: the titles stand where they stood, the SVG is the same bytes
(tests/presentation/test_titles.py).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator


@contextlib.contextmanager
def placed() -> Iterator[None]:
    """Inside the block, a title's placement reads its y-axes' offset texts without their tight
    boxes where they are empty (`matplotlib.axis.YAxis.get_tightbbox`, put back after)."""
    from matplotlib.axes import Axes
    from matplotlib.axis import YAxis

    title_code = Axes._update_title_position.__code__
    measure = YAxis.get_tightbbox

    def get_tightbbox(self, renderer=None, *, for_layout_only=False):
        if sys._getframe(1).f_code is title_code and self.get_visible():
            self._update_ticks()
            self.offsetText.set_text(self.major.formatter.get_offset())
            if not (self.offsetText.get_visible() and self.offsetText.get_text()):
                return None  # the title reads the offset text only, and there is none
        return measure(self, renderer, for_layout_only=for_layout_only)

    YAxis.get_tightbbox = get_tightbbox
    try:
        yield
    finally:
        YAxis.get_tightbbox = measure
