"""Point labels that never collide: each label tries a few positions around its point and takes the
first whose rendered box meets no other text, no plotted point and no legend; a label with no free
position is left out (the figure's table names every point), never drawn on top of another."""

from __future__ import annotations

import numpy as np

#: Offsets (points) tried in order: right, left, above, below, then the diagonals.
OFFSETS = [(5, 0, "left", "center"), (-5, 0, "right", "center"), (0, 6, "center", "bottom"), (0, -6, "center", "top")]
OFFSETS += [(5, 5, "left", "bottom"), (-5, 5, "right", "bottom"), (5, -5, "left", "top"), (-5, -5, "right", "top")]


def _boxes_of_texts(fig, renderer, skip=()):
    from benchbook.presentation.plotting import _texts

    out = [t.get_window_extent(renderer) for _, t in _texts(fig) if t not in skip]
    for ax in fig.axes:
        leg = ax.get_legend()
        if leg is not None and leg.get_visible():
            out.append(leg.get_window_extent(renderer))
    return out


def _point_boxes(ax, radius: float = 4.0):
    """Small boxes around every plotted point of `ax` (display pixels)."""
    from matplotlib.transforms import Bbox

    pts = [ln.get_transform().transform(ln.get_xydata()) for ln in ax.get_lines() if len(ln.get_xydata())]
    pts += [c.get_offset_transform().transform(c.get_offsets()) for c in ax.collections if len(c.get_offsets())]
    if not pts:
        return []
    xy = np.vstack(pts)
    xy = xy[np.isfinite(xy).all(axis=1)]
    return [Bbox.from_extents(x - radius, y - radius, x + radius, y + radius) for x, y in xy]


def place(ax, points, fontsize: float = 7, color: str | None = None, avoid_points: bool = True) -> list[str]:
    """Label each (x, y, text) of `points` on `ax` at the first free position; returns the texts left
    out for want of room. Call after everything else (legend included) is drawn on the figure."""
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    taken = _boxes_of_texts(fig, renderer)
    dots = _point_boxes(ax) if avoid_points else []
    frame = ax.get_window_extent(renderer)
    left_out = []
    for x, y, text in points:
        placed = False
        here = ax.transData.transform((x, y))
        for dx, dy, ha, va in OFFSETS:
            t = ax.annotate(
                text, (x, y), textcoords="offset points", xytext=(dx, dy), ha=ha, va=va, fontsize=fontsize, color=color
            )
            bb = t.get_window_extent(renderer)
            own = [d for d in dots if not (abs(d.x0 + 4 - here[0]) < 0.5 and abs(d.y0 + 4 - here[1]) < 0.5)]
            inside = frame.x0 <= bb.x0 and bb.x1 <= frame.x1 and frame.y0 <= bb.y0 and bb.y1 <= frame.y1
            if inside and not any(bb.overlaps(o) for o in taken + own):
                taken.append(bb)
                placed = True
                break
            t.remove()
        if not placed:
            left_out.append(text)
    return left_out
