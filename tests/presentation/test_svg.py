"""A figure's SVG on a page (`outputs.svg`) is matplotlib's own tight print, byte for byte, whether
or not its layout draw is skipped; and a figure is measured for readable type without being drawn
unless a layout engine moves its axes when it is drawn."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from benchbook.presentation import outputs, plotting  # noqa: E402

pytestmark = pytest.mark.usefixtures("themed")


def _log_legend_labels():
    """Log axes with plain ticks, a legend, point labels, a title and `tight_layout`'s placeholder engine."""
    fig, ax = plt.subplots()
    ax.plot([1, 10, 100, 1000], [5, 40, 70, 90], marker="o", label="throughput")
    ax.plot([1, 10, 100, 1000], [2, 20, 30, 35], marker="s", label="goodput")
    ax.set_xscale("log")
    for x, y in [(10, 40), (100, 70)]:
        ax.annotate(f"{y} tok/s", (x, y), textcoords="offset points", xytext=(4, 4))
    ax.set(xlabel="concurrency", ylabel="tokens per second", title="Throughput against load")
    ax.legend(loc="lower right")
    fig.tight_layout()
    return fig


def _panels_suptitle_twin():
    """Two panels, a suptitle, a twin axis and a text in figure coordinates, no layout engine."""
    fig, (a, b) = plt.subplots(1, 2, figsize=plotting.panel_size(1, 2))
    a.bar(["fp16", "int8", "int4"], [3.2, 1.7, 0.9])
    b.plot([1, 2, 4, 8], [100, 190, 330, 560])
    b.twinx().plot([1, 2, 4, 8], [1.0, 0.95, 0.82, 0.7], color="k")
    fig.suptitle("Precision and scaling")
    fig.text(0.01, 0.01, "source: a synthetic run")
    return fig


def _constrained():
    """Constrained layout: its engine lays the axes out again at every draw."""
    fig, axes = plt.subplots(2, 1, layout="constrained")
    for ax in axes:
        ax.plot([1, 2, 3], [3, 1, 2])
        ax.set_ylabel("latency (ms)")
    return fig


def _matplotlib_print(fig) -> str:
    buf = io.BytesIO()
    fig.canvas.print_figure(
        buf,
        format="svg",
        bbox_inches="tight",
        metadata={"Date": None},
        facecolor=fig.get_facecolor(),
        edgecolor=fig.get_edgecolor(),
        dpi=fig.dpi,
    )
    return buf.getvalue().decode("utf-8")


@pytest.mark.parametrize("make", [_log_legend_labels, _panels_suptitle_twin, _constrained])
def test_svg_is_matplotlibs_tight_print(make):
    fig = make()
    plotting.finish(fig)
    assert outputs.svg(fig) == _matplotlib_print(fig)
    assert "draw" not in vars(fig)  # the figure's own draw is back


def test_svg_skips_the_layout_draw_only_where_nothing_moves(monkeypatch):
    drawn = []
    real = matplotlib.figure.Figure.draw
    monkeypatch.setattr(matplotlib.figure.Figure, "draw", lambda self, r: (drawn.append(self), real(self, r))[1])
    still, moving = _log_legend_labels(), _constrained()
    for fig in (still, moving):
        fig.canvas.draw()  # a renderer, as `plotting.finish` leaves one
    drawn.clear()
    outputs.svg(still)
    assert drawn == [still]  # printed only: its layout draw skipped
    drawn.clear()
    outputs.svg(moving)
    assert drawn == [moving, moving]  # laid out by its engine, then printed


def test_svg_prints_again_where_matplotlib_draws_once(monkeypatch):
    """Where a print draws the figure once only (no layout draw before it), skipping that draw would
    leave the SVG empty: it is printed again as it stands."""
    fig = _panels_suptitle_twin()  # no layout engine: a print of the whole figure draws it once
    plotting.finish(fig)
    canvas = type(fig.canvas)
    real = canvas.print_figure

    def print_drawing_once(self, buf, **kw):
        return real(self, buf, **(kw | {"bbox_inches": None}))

    monkeypatch.setattr(canvas, "print_figure", print_drawing_once)
    want = _matplotlib_print(fig)
    assert want.count("<text") > 10
    assert outputs.svg(fig) == want


def test_readable_measures_without_a_draw_unless_the_layout_moves(monkeypatch):
    drawn = []
    real = matplotlib.figure.Figure.draw_without_rendering
    monkeypatch.setattr(
        matplotlib.figure.Figure, "draw_without_rendering", lambda self: (drawn.append(self), real(self))[1]
    )
    still, moving = _log_legend_labels(), _constrained()
    plotting.readable(still)
    assert drawn == []
    plotting.readable(moving)
    assert drawn and set(drawn) == {moving}
    assert not plotting._moves_when_drawn(moving)  # its layout kept as measured


@pytest.mark.parametrize("make", [_log_legend_labels, _panels_suptitle_twin, _constrained])
def test_svg_of_the_box_finish_measured_is_matplotlibs_tight_print(make):
    """`finish` hands on the box it measured the figure's width with; the SVG saved from that box,
    its tight box not computed again, is matplotlib's own tight print of the figure."""
    fig = make()
    box = plotting.finish(fig)
    assert box is not None
    assert outputs.svg(fig, box) == _matplotlib_print(fig)
    assert "draw" not in vars(fig)


def test_saved_box_is_the_box_the_print_saves_and_draws_nothing(monkeypatch):
    from matplotlib import _tight_bbox

    adjust = _tight_bbox.adjust_bbox
    fig = _log_legend_labels()
    drawn = []
    real = matplotlib.figure.Figure.draw
    monkeypatch.setattr(matplotlib.figure.Figure, "draw", lambda self, r: (drawn.append(self), real(self, r))[1])
    box = outputs.saved_box(fig)
    assert drawn == [] and _tight_bbox.adjust_bbox is adjust  # matplotlib's own function back
    root = ET.fromstring(_matplotlib_print(fig))
    assert float(root.get("width").removesuffix("pt")) == pytest.approx(box.width * 72, abs=1e-5)
    assert float(root.get("height").removesuffix("pt")) == pytest.approx(box.height * 72, abs=1e-5)
