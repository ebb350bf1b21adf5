"""A chapter run for its words alone (`draw=False`, a fixture page's test) leaves its figures to be laid
out if they are ever drawn; a run that draws them lays them out as `fig.tight_layout()` does. A figure
left to be laid out is laid out when it is drawn after all."""

from __future__ import annotations

import matplotlib

matplotlib.use("agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.layout_engine import PlaceHolderLayoutEngine, TightLayoutEngine  # noqa: E402

from benchbook.presentation import outputs  # noqa: E402
from benchbook.presentation.plotting import finish, tight  # noqa: E402


def _figure():
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([1, 2, 3], [10, 200, 3000])
    ax.set_ylabel("a long label that needs room, tokens per second")
    ax.set_title("a title")
    return fig


def test_a_figure_no_one_draws_is_not_laid_out():
    fig = _figure()
    before = fig.axes[0].get_position().bounds
    with outputs.recording(draws=False):
        tight(fig, rect=(0, 0.05, 1, 1))
    assert isinstance(fig.get_layout_engine(), TightLayoutEngine)
    assert fig.get_layout_engine().get()["rect"] == (0, 0.05, 1, 1)
    assert fig.axes[0].get_position().bounds == before
    plt.close(fig)


def test_a_figure_to_be_drawn_is_laid_out_at_once():
    for drawn in (outputs.recording(draws=True), outputs.recording()):
        fig = _figure()
        before = fig.axes[0].get_position().bounds
        with drawn:
            tight(fig)
        assert isinstance(fig.get_layout_engine(), PlaceHolderLayoutEngine)
        assert fig.axes[0].get_position().bounds != before
        plt.close(fig)
    fig = _figure()
    tight(fig)  # outside any recording: a notebook of one's own, a test
    assert isinstance(fig.get_layout_engine(), PlaceHolderLayoutEngine)
    plt.close(fig)


def test_a_figure_left_to_be_laid_out_is_laid_out_when_drawn():
    fig = _figure()
    before = fig.axes[0].get_position().bounds
    with outputs.recording(draws=False):
        tight(fig)
    finish(fig)  # as `outputs.Drawing` makes a glued figure ready for the page
    assert fig.axes[0].get_position().bounds != before
    assert isinstance(fig.get_layout_engine(), PlaceHolderLayoutEngine)  # kept as drawn: the SVG does not redo it
    plt.close(fig)
