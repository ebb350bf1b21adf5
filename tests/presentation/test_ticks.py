"""Inside `ticks.placed_once()` an axis's ticks are placed once per measure or draw of its figure,
and every figure prints the same SVG as without it; an axis moved within a measure (a layout engine
run at the draw) is placed again, and a chapter asking for its tick labels outside a measure gets
them placed as before."""

from __future__ import annotations

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.axis import Axis  # noqa: E402

from benchbook.presentation import outputs, plotting, ticks  # noqa: E402

pytestmark = pytest.mark.usefixtures("themed")


def _panels():
    """Two titled panels, a log axis, a twin y-axis, aligned y labels and a legend, laid out once."""
    fig, (a, b) = plt.subplots(1, 2, figsize=plotting.panel_size(1, 2))
    a.plot([1, 10, 100, 1000], [5, 40, 70, 90], marker="o", label="throughput")
    a.set_xscale("log")
    a.set(title="Throughput against load", xlabel="concurrency", ylabel="tokens per second")
    a.legend(loc="lower right")
    b.plot([1, 2, 4, 8], [100, 190, 330, 560])
    b.twinx().plot([1, 2, 4, 8], [1.0, 0.95, 0.82, 0.7], color="k")
    b.set(title="Scaling", xlabel="GPUs")
    fig.align_ylabels()
    fig.tight_layout()
    return fig


def _moved():
    """A figure its layout engine lays out at every draw: its axes measured at their first size, then
    shrunk to make room for a label of eight lines, so that five y ticks fit where eight did."""
    fig, ax = plt.subplots(figsize=(3.0, 3.0), layout="constrained")
    ax.plot(range(100), range(100))
    ax.set_xlabel("\n".join(["a long label"] * 8))
    return fig


def _printed(make) -> str:
    fig = make()
    svg = outputs.svg(fig, plotting.finish(fig))
    plt.close(fig)
    return svg


@pytest.fixture
def placings(monkeypatch):
    """How many times an axis's ticks were placed."""
    seen = []
    place = Axis._update_ticks

    def counted(self):
        seen.append(self)
        return place(self)

    monkeypatch.setattr(Axis, "_update_ticks", counted)
    return seen


@pytest.mark.parametrize("make", [_panels, _moved])
def test_placed_once_prints_the_same_svg(make):
    alone = _printed(make)
    with ticks.placed_once():
        assert _printed(make) == alone


@pytest.fixture
def label_measures(monkeypatch):
    """How many times an axis's tick labels were measured."""
    seen = []
    measure = Axis._get_ticklabel_bboxes

    def counted(self, ticks, renderer):
        seen.append(self)
        return measure(self, ticks, renderer)

    monkeypatch.setattr(Axis, "_get_ticklabel_bboxes", counted)
    return seen


def test_a_repeat_within_a_measure_places_and_measures_nothing_again(placings, label_measures):
    _printed(_panels)
    alone, measured = len(placings), len(label_measures)
    placings.clear(), label_measures.clear()
    with ticks.placed_once():
        _printed(_panels)
    assert 0 < len(placings) < alone / 2
    assert 0 < len(label_measures) < measured / 2


def _placed_at_the_draw() -> tuple[list[str], tuple]:
    """The y tick labels as the first draw of `_moved` left them (not placed again by asking), and
    where it put the x axis's label (below the tick labels it measured)."""
    fig = _moved()
    fig.draw_without_rendering()
    axis = fig.axes[0].yaxis
    placed = [t.label1.get_text() for t in axis.majorTicks if t.get_visible()]
    label = tuple(fig.axes[0].xaxis.label.get_window_extent().bounds)
    plt.close(fig)
    return placed, label


def test_an_axis_moved_within_a_draw_is_placed_and_measured_again():
    """The layout engine measures the axes at their first size, then shrinks them: the draw places
    their ticks again, as many as now fit, and puts the axis label below the tick labels where they
    now stand."""
    alone = _placed_at_the_draw()
    assert alone[0][0] == "\N{MINUS SIGN}50"  # ticks 50 apart, not the 20 apart of the axes' first size
    with ticks.placed_once():
        assert _placed_at_the_draw() == alone


def test_outside_a_measure_every_placing_is_done(placings):
    fig = _panels()
    with ticks.placed_once():
        placings.clear()
        fig.axes[0].get_xticklabels(), fig.axes[0].get_xticklabels()
        assert len(placings) == 2  # a chapter asking twice gets them placed twice, as without the block
    plt.close(fig)


def test_placed_once_puts_matplotlib_back():
    from matplotlib.figure import Figure

    place, draw = Axis._update_ticks, Figure.draw
    with ticks.placed_once():
        assert Axis._update_ticks is not place and Figure.draw is not draw
    assert Axis._update_ticks is place and Figure.draw is draw
