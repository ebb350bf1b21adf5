"""Point labels that never collide: each label tries a few positions around its point and takes the
first whose rendered box meets no other text, no plotted point and no legend; a label with no free
position is left out (the figure's table names every point), never drawn on top of another."""

from __future__ import annotations

import numpy as np

#: Offsets (points) tried in order: right, left, above, below, the diagonals, then the same farther out.
OFFSETS = [
    (d * dx, d * dy, ha, va)
    for d in (1, 2.5)
    for dx, dy, ha, va in [
        (5, 0, "left", "center"),
        (-5, 0, "right", "center"),
        (0, 6, "center", "bottom"),
        (0, -6, "center", "top"),
        (5, 5, "left", "bottom"),
        (-5, 5, "right", "bottom"),
        (5, -5, "left", "top"),
        (-5, -5, "right", "top"),
    ]
]
#: Pixels between the samples taken along a drawn line.
STEP = 3.0


def _boxes_of_texts(fig, renderer):
    from benchbook.presentation.plotting import _texts

    out = [t.get_window_extent(renderer) for _, t in _texts(fig)]
    for ax in fig.axes:
        leg = ax.get_legend()
        if leg is not None and leg.get_visible():
            out.append(leg.get_window_extent(renderer))
    return out


def _obstacles(ax) -> np.ndarray:
    """Display-pixel positions of everything drawn as data on `ax`: markers, and lines and error bars
    sampled every few pixels, so that no label sits on a curve or a bar."""
    segs = [ln.get_transform().transform(ln.get_xydata()) for ln in ax.get_lines() if len(ln.get_xydata())]
    for c in ax.collections:
        if hasattr(c, "get_segments"):
            segs += [c.get_transform().transform(np.asarray(sg)) for sg in c.get_segments() if len(sg)]
        elif len(c.get_offsets()):
            segs.append(c.get_offset_transform().transform(c.get_offsets()))
    pts = []
    for xy in segs:
        xy = xy[np.isfinite(xy).all(axis=1)]
        pts.append(xy)
        for a, b in zip(xy[:-1], xy[1:], strict=False):
            n = int(np.hypot(*(b - a)) // STEP)
            if n > 1:
                pts.append(a + np.outer(np.linspace(0, 1, n), b - a))
    return np.vstack(pts) if pts else np.empty((0, 2))


def place(ax, points, fontsize: float = 7, color: str | None = None) -> list[str]:
    """Label each (x, y, text) of `points` on `ax` at the first free position; returns the texts left
    out for want of room. Call after everything else (legend included) is drawn on the figure."""
    fig = ax.figure
    fig.draw_without_rendering()  # the layout and the text boxes; no pixels: none is read
    renderer = fig.canvas.get_renderer()
    taken = _boxes_of_texts(fig, renderer)
    dots = _obstacles(ax)
    frame = ax.get_window_extent(renderer)
    left_out = []
    for x, y, text in points:
        placed = False
        for dx, dy, ha, va in OFFSETS:
            t = ax.annotate(
                text, (x, y), textcoords="offset points", xytext=(dx, dy), ha=ha, va=va, fontsize=fontsize, color=color
            )
            bb = t.get_window_extent(renderer)
            inside = frame.x0 <= bb.x0 and bb.x1 <= frame.x1 and frame.y0 <= bb.y0 and bb.y1 <= frame.y1
            on_data = ((dots[:, 0] > bb.x0) & (dots[:, 0] < bb.x1) & (dots[:, 1] > bb.y0) & (dots[:, 1] < bb.y1)).any()
            if inside and not on_data and not any(bb.overlaps(o) for o in taken):
                taken.append(bb)
                placed = True
                break
            t.remove()
        if not placed:
            left_out.append(text)
    return left_out
