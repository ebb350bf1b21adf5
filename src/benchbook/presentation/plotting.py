"""One look for every figure in the book: a colour-blind-safe palette and consistent styling."""

from __future__ import annotations

import math
import re

import matplotlib.pyplot as plt
from matplotlib.ticker import FuncFormatter, LogFormatter, LogFormatterMathtext, ScalarFormatter

from benchbook.nouns import counted

#: Okabe-Ito, the colour-blind-safe qualitative palette; the same order in every chapter.
#: The display type of a figure's collision check (see `overlaps`), one per glued figure.
FIGURE_CHECK_MIME = "application/vnd.benchbook.figure-check+json"

PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]


def use_theme() -> None:
    """Apply the book's theme, seaborn's whitegrid written out (`theme`; call once per chapter, in its setup cell).

    It does not stop the inline backend from showing every open figure at the end of the cell that
    drew it: `plt.ioff()` here would be undone, because IPython switches interactive mode back on
    when it loads the inline backend, at the chapter's first figure. Chapters show a figure through
    `glue_figure`, which closes it, so that it appears once, where its caption is.
    """
    from benchbook.presentation import theme

    theme.apply(PALETTE)
    plt.rcParams.update(
        {
            # SVG with its text kept as text: crisp when zoomed, searchable, measurable by the tests
            "svg.fonttype": "none",
            "svg.hashsalt": "benchbook",  # stable element ids, so an unchanged figure gives the same bytes
            "figure.figsize": (7.5, 4.5),
            "figure.dpi": 100,
            "savefig.dpi": 100,
            "axes.titleweight": "bold",
            "axes.spines.top": False,
            "axes.spines.right": False,
            "legend.frameon": False,
            # plain numbers on linear axes: no "1e6" offset or "x10^6" factor printed in a corner
            "axes.formatter.useoffset": False,
            "axes.formatter.limits": (-9, 12),
        }
    )
    _inline_svg()


def panel_size(rows: int, cols: int = 1, height: float = 3.0) -> tuple[float, float]:
    """The size (inches) of a figure of `rows` x `cols` panels, `height` each: the theme's width for one
    column, a little more for two, never three side by side. A page scales every figure to its text
    column, so a wider figure is drawn smaller: three or more panels in a row (11 inches) printed
    their labels too small to read."""
    if cols > 2:
        raise ValueError("at most two panels side by side; put the rest in rows")
    return (7.5 if cols == 1 else 8.5, height * rows + 0.6)


def panel_grid(n: int, height: float = 3.4, **kw):
    """A figure of `n` panels in at most two columns (`panel_size`), as (fig, the first `n` axes);
    a panel left over in the last row is removed."""
    cols = min(n, 2)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=panel_size(rows, cols, height), squeeze=False, **kw)
    flat = list(axes.flat)
    for ax in flat[n:]:
        ax.remove()
    return fig, flat[:n]


def _inline_svg() -> None:
    """Make a kernel's figures SVG, one format only (a page never falls back to a PNG copy), and
    without a date, so that an unchanged figure gives the same bytes."""
    import sys

    if "IPython" not in sys.modules:
        return
    from IPython import get_ipython

    ip = get_ipython()
    if ip is None:
        return
    ip.run_line_magic(
        "config", "InlineBackend.print_figure_kwargs = {'bbox_inches': 'tight', 'metadata': {'Date': None}}"
    )
    ip.run_line_magic("config", "InlineBackend.figure_formats = ['svg']")


def glue_figure(name: str, fig) -> None:
    """Glue `fig` under `name` for a `{glue:figure}` directive, and close it so that the inline
    backend does not show an uncaptioned copy of it at the end of the cell. Recorded in plain
    Python (`outputs.recording`), the figure waits: `outputs.draw` makes it ready and draws it."""
    from benchbook.presentation import outputs

    message = getattr(fig, "benchbook_message", None)
    if message is not None:  # no data: the sentence stands where the figure would (`executor.unfigure`)
        outputs.glue(name, message[:1].upper() + message[1:], markdown=True)  # a sentence of the page
        plt.close(fig)
        return
    if outputs.recording_now():
        outputs.glue(name, fig)
        plt.close(fig)
        return
    finish(fig)
    problems = overlaps(fig)
    outputs.glue(name, fig)
    # A record of the figure's collision check, invisible on the page, read by the figure tests.
    outputs.display_raw({FIGURE_CHECK_MIME: {"figure": name, "overlaps": problems}})
    plt.close(fig)


#: The text column's width in CSS pixels (the book's theme in a 1300 px wide window), and the smallest
#: text a reader should meet there (tests/book/test_book_pages.py).
COLUMN_PX = 704
MIN_TEXT_PX = 10.0
#: The width (CSS px) a figure is shown at in the text column, by the window's width, as measured in
#: Chromium on a chapter page (the figure sits 16 px inside the column; under 1000 px the sidebar folds
#: away and the column widens). A figure narrower than this is shown at its own width (1 pt = 4/3 px).
FIGURE_PX = {1300: 688.0, 800: 720.0}


def tight(fig, **kw) -> None:
    """Lay `fig` out as `fig.tight_layout(**kw)` does, now where it will be drawn; else as a layout
    engine that lays it out only if it ever is drawn: a chapter run for its words alone (a fixture
    page's test, `draw=False`) spent a fifth of its time laying out figures nobody drew."""
    from benchbook.presentation import outputs

    if outputs.figures_drawn():
        fig.tight_layout(**kw)
    else:
        fig.set_layout_engine("tight", **kw)


def finish(fig):
    """Make `fig` ready for the page: plain tick labels (`plain_axes`), then every text readable at
    the column's width (`readable`). Returns the box (inches) its SVG saves (`outputs.svg`), as
    measured of the figure as it is left, or None where it changed after (a point label hidden)."""
    plain_axes(fig)
    return _readied(fig, COLUMN_PX, MIN_TEXT_PX)[1]


def readable(fig, column_px: float = COLUMN_PX, min_px: float = MIN_TEXT_PX) -> float:
    """Enlarge every text of `fig` that would render under `min_px` once the figure (as saved, its
    tight bounding box) is scaled to `column_px`, or shown at its own width where narrower; return the smallest size after, in pixels. A wide
    figure or a small font gets larger type, never a smaller figure, so the layout stays the one
    its function chose."""
    return _readied(fig, column_px, min_px)[0]


def _readied(fig, column_px: float, min_px: float):
    """`readable`'s work: (the smallest size after, in pixels; the box the SVG saves, as measured of
    the figure as it is left, or None where it changed after)."""
    from matplotlib.text import Text

    from benchbook.presentation.outputs import saved_box

    smallest = math.inf
    measured = False  # the figure as it now stands: measured by this loop's last pass
    grew = 1.0  # how much the box widened since the last pass enlarged type
    width_pt = None
    for _ in range(3):  # larger type widens the tight box a little: converge
        if _moves_when_drawn(fig):  # a layout engine places the axes only when the figure is drawn
            fig.draw_without_rendering()
        # the box the SVG saves, measured as its print measures it: the tight box lays out what it
        # measures itself (ticks, labels, titles, legends), so a figure whose axes stay put is
        # measured without a draw, as the SVG's own draw lays it out again
        box = saved_box(fig)
        if width_pt is not None:
            grew = box.width * 72 / width_pt
        width_pt = box.width * 72
        # a figure narrower than the column is shown at its own width, 1 pt = 4/3 px (`rendered_text_px`)
        px_per_pt = min(column_px, width_pt * 96 / 72) / width_pt
        need = 1.04 * min_px / px_per_pt
        texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
        small = [t for t in texts if _least_pt(t) < need]
        smallest = min((_least_pt(t) for t in texts), default=math.inf) * px_per_pt
        if not small:
            # a layout engine (constrained layout) lays the figure out again at every draw (its axes
            # move by a few millionths of a pixel each time, and each layout costs more than a
            # draw): its layout is kept as this draw made it, so that neither the label check nor
            # the SVG lays it out again (a placeholder engine is left, as `fig.tight_layout()` leaves)
            if _moves_when_drawn(fig):
                fig.set_layout_engine("none")
            measured = True
            break
        # a text at the box's edge widens it as it grows, and an SVG's box grows with every step of
        # type (no pixel grid holds it still), so type enlarged again is set as much further ahead
        # as the box grew since it was last enlarged: the next pass finds it large enough
        for t in small:
            t.set_fontsize(need * grew * t.get_fontsize() / _least_pt(t))
    # point labels are measured as the figure now stands (their boxes come from their own positions),
    # after a draw of their own where the last pass changed their type
    hidden = _drop_colliding_labels(fig, measured)
    return smallest, (box if measured and not hidden else None)


def _moves_when_drawn(fig) -> bool:
    """Whether a draw of `fig` lays it out again: a layout engine does, except the placeholder that
    `fig.tight_layout()` leaves behind (it laid the figure out once, and its `execute` does nothing)."""
    from matplotlib.layout_engine import PlaceHolderLayoutEngine

    engine = fig.get_layout_engine()
    return engine is not None and not isinstance(engine, PlaceHolderLayoutEngine)


#: How much smaller mathtext draws a superscript or subscript than its text (matplotlib's SHRINK_FACTOR).
_SCRIPT = 0.7


def _least_pt(t) -> float:
    """The smallest type (pt) a text draws: its size, or a script's in mathtext (`10$^{3}$`)."""
    s = t.get_text()
    math = not t.get_usetex() and s.count("$") - s.count(r"\$") >= 2 and ("^" in s or "_" in s)
    return t.get_fontsize() * (_SCRIPT if math else 1.0)


def rendered_text_px(fig, figure_px: float) -> list[tuple[float, str]]:
    """Every text of `fig` as a page shows it, in CSS px, smallest first: the figure saved as the
    chapter saves it (SVG with its text as text, tight box), shown `figure_px` wide or at its own
    width if narrower; a superscript (a tspan of its own) counts at its own size."""
    import io
    import xml.etree.ElementTree as ET

    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    root = ET.fromstring(buf.getvalue())
    natural_px = float(root.get("width").removesuffix("pt")) * 96 / 72
    view_w = float(root.get("viewBox").split()[2])
    scale = min(figure_px, natural_px) / view_w
    out = []
    for el in root.iter():
        if el.tag.rsplit("}", 1)[-1] not in ("text", "tspan") or not "".join(el.itertext()).strip():
            continue
        m = re.search(r"font(?:-size)?:\s*(?:[a-z]+\s+)*([\d.]+)px", el.get("style") or "")
        if m:
            out.append((float(m.group(1)) * scale, "".join(el.itertext()).strip()))
    return sorted(out)


def _drop_colliding_labels(fig, drawn: bool = False) -> bool:
    """Hide a point label that larger type made collide with an earlier one on the same axes:
    point labels are drawn "where there is room" (labels.place), and the tables list every point.
    `drawn`: the figure is as last drawn (no need to draw it again). Returns whether one was hidden."""
    if not drawn:
        fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    hidden = False
    for ax in fig.axes:
        kept = []
        for t in ax.texts:
            if not t.get_visible() or not t.get_text().strip():
                continue
            bb = t.get_window_extent(renderer)
            if any(bb.overlaps(k) for k in kept):
                t.set_visible(False)
                hidden = True
            else:
                kept.append(bb)
    return hidden


def glue_all(values: dict) -> None:
    """Glue each value under its name, hidden: the chapter's prose places them."""
    from benchbook.presentation import outputs

    for name, value in values.items():
        outputs.glue(name, value)


def message_figure(text: str):
    """Why there is nothing to plot, as a figure a presentation function can return like any other:
    `glue_figure` glues its sentence instead, and the executed page shows that sentence in place of
    the figure and its caption (`executor.unfigure`). Shown as a figure (a test, a notebook of one's
    own), a wide strip whose sentence reads at the size of the prose."""
    fig, ax = plt.subplots(figsize=(7.5, 1.0))
    ax.text(0.5, 0.5, text, ha="center", va="center")
    ax.set_axis_off()
    fig.benchbook_message = text  # `glue_figure` glues the sentence, not this picture of it
    return fig


def plain_number(v: float) -> str:
    """A tick value as a reader writes it: 30, 1,000, 0.5, 0.002; never 3x10^1 or 1e-03."""
    if v == 0:
        return "0"
    if abs(v) >= 1:
        return f"{v:,.0f}" if float(v).is_integer() else f"{v:,.3g}"
    decimals = -math.floor(math.log10(abs(v))) + 1  # two significant digits, trailing zeros dropped
    return f"{v:.{decimals}f}".rstrip("0").rstrip(".")


def plain_ticks():
    """Tick labels as plain numbers (1, 10, 100), not powers of ten."""
    return FuncFormatter(lambda v, _: plain_number(v))


def times_ticks():
    """Tick labels of a ratio axis: 1×, 2×, 4×."""
    return FuncFormatter(lambda v, _: f"{plain_number(v)}×")


class _PlainLog(LogFormatter):
    """matplotlib's log-axis labelling (which ticks get a label), with each label a plain number."""

    def _num_to_string(self, x, vmin, vmax):
        return plain_number(x)


class _GroupedScalar(ScalarFormatter):
    """matplotlib's linear-axis labels, whole thousands grouped (15,000, as the log axes and the
    prose write them, where a linear axis printed 15000 beside a log axis's 10,000)."""

    def __call__(self, x, pos=None):
        s = super().__call__(x, pos)
        digits = s.lstrip("-\u2212")
        return f"{s[: len(s) - len(digits)]}{int(digits):,}" if digits.isdigit() and len(digits) > 3 else s


def plain_axes(fig) -> None:
    """Give every log axis of `fig` plain tick labels (1, 30, 100; 1, 2, 4, 8) in place of
    matplotlib's powers (10^1, 3x10^1, 2^3), whose superscripts print at 70 % of the text, and every
    linear axis its thousands grouped (`_GroupedScalar`). A formatter a figure chose itself
    (`plain_ticks`, `times_ticks`) is kept."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if axis.get_scale() == "linear" and type(axis.get_major_formatter()) is ScalarFormatter:
                old = axis.get_major_formatter()
                grouped = _GroupedScalar(useOffset=old.get_useOffset(), useMathText=old.get_useMathText())
                grouped.set_powerlimits(old._powerlimits)
                axis.set_major_formatter(grouped)
            if axis.get_scale() != "log":
                continue
            for get, put in (
                (axis.get_major_formatter, axis.set_major_formatter),
                (axis.get_minor_formatter, axis.set_minor_formatter),
            ):
                old = get()
                if isinstance(old, LogFormatterMathtext):
                    put(
                        _PlainLog(
                            base=old._base,
                            labelOnlyBase=old.labelOnlyBase,
                            minor_thresholds=old.minor_thresholds,
                            linthresh=old._linthresh,
                        )
                    )


def color(i: int) -> str:
    """The i-th colour of the book's palette."""
    return PALETTE[i % len(PALETTE)]


def ramp(value: float, top: float = 64.0) -> tuple:
    """The colour of an ordered quantity (a batch size), the same for a value in every figure: its
    place between 1 and `top` on a log scale along viridis, dark purple (1) through teal to green
    (`top` and beyond: a step of 2x is 0.14 of the ramp, far enough apart to tell), hues apart from
    the categorical palette's, so that a chapter can colour another series (a TP) by `color` beside it."""
    import matplotlib as mpl

    x = math.log2(max(float(value), 1.0)) / math.log2(top)
    return mpl.colormaps["viridis"](0.85 * min(x, 1.0))


def _texts(fig):
    """Every visible, non-empty text of a figure, with a name saying where it is."""
    out = []
    if fig._suptitle is not None:
        out.append(("suptitle", fig._suptitle))
    out += [(f"figure text {i}", t) for i, t in enumerate(fig.texts) if t is not fig._suptitle]
    for k, ax in enumerate(fig.axes):
        named = [("title", ax.title), ("left title", ax._left_title), ("right title", ax._right_title)]
        named += [("x label", ax.xaxis.label), ("y label", ax.yaxis.label)]
        if ax.axison:  # an axes switched off (`set_axis_off`) draws no tick labels
            named += [(f"x tick {t.get_text()}", t) for t in _drawn_ticks(ax.xaxis)]
            named += [(f"y tick {t.get_text()}", t) for t in _drawn_ticks(ax.yaxis)]
        named += [(f"label {t.get_text()!r}", t) for t in ax.texts]
        leg = ax.get_legend()
        if leg is not None and leg.get_visible():
            named += [(f"legend {t.get_text()!r}", t) for t in leg.get_texts()]
            if leg.get_title().get_text():
                named.append(("legend title", leg.get_title()))
        out += [(f"axes {k} {n}", t) for n, t in named]
    return [(n, t) for n, t in out if t.get_visible() and t.get_text().strip()]


def _drawn_ticks(axis):
    """The tick labels matplotlib draws: those of ticks inside the view (it lists more)."""
    lo, hi = sorted(axis.get_view_interval())
    return [t.label1 for t in axis.get_major_ticks() if lo <= t.get_loc() <= hi] if len(axis.get_major_ticks()) else []


def overlaps(fig, pad: float = 1.0) -> list[str]:
    """What collides on a drawn figure: pairs of texts whose rendered boxes intersect (shrunk by
    `pad` pixels), a legend's frame over a text not its own (an x label under a legend placed below
    the axes), and legends that cover plotted points. Empty means readable. The figure is drawn
    first: a legend places its entries only when drawn, and `finish` measures a figure as its SVG
    print does, not as a draw on the screen leaves it."""
    import numpy as np

    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    boxes = []
    for name, t in _texts(fig):
        bb = t.get_window_extent(renderer)
        if bb.width > 0 and bb.height > 0:
            boxes.append((name, bb.x0 + pad, bb.y0 + pad, bb.x1 - pad, bb.y1 - pad))
    found = []
    for k, ax in enumerate(fig.axes):  # a legend's frame (its handles too) against every text not its own
        leg = ax.get_legend()
        if leg is not None and leg.get_visible():
            lb = leg.get_window_extent(renderer)
            own = f"axes {k} legend"
            found += [
                f"axes {k} legend overlaps {n}"
                for n, x0, y0, x1, y1 in boxes
                if not n.startswith(own) and x0 < lb.x1 and lb.x0 < x1 and y0 < lb.y1 and lb.y0 < y1
            ]
    for i, (na, ax0, ay0, ax1, ay1) in enumerate(boxes):
        for nb, bx0, by0, bx1, by1 in boxes[i + 1 :]:
            if " tick " in na and " tick " in nb and na.split()[:2] == nb.split()[:2]:
                continue  # an x and a y tick label meeting in the corner: matplotlib's own layout
            if ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1:
                found.append(f"{na} overlaps {nb}")
    for k, ax in enumerate(fig.axes):
        leg = ax.get_legend()
        if leg is None or not leg.get_visible():
            continue
        lb = leg.get_window_extent(renderer)
        pts = [ln.get_transform().transform(ln.get_xydata()) for ln in ax.get_lines() if len(ln.get_xydata())]
        pts += [c.get_offset_transform().transform(c.get_offsets()) for c in ax.collections if len(c.get_offsets())]
        if pts:
            xy = np.vstack(pts)
            inside = (xy[:, 0] > lb.x0) & (xy[:, 0] < lb.x1) & (xy[:, 1] > lb.y0) & (xy[:, 1] < lb.y1)
            if inside.any():
                found.append(f"axes {k} legend covers {counted(int(inside.sum()), 'plotted point')}")
    return found
