"""Inside `text_metrics.shared()` figures share what their renderers measured and the layouts of
their texts, and print the same SVG as each figure measuring its texts itself; a changed font
setting is measured again, and a text whose font changed is laid out again."""

from __future__ import annotations

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import text as mtext  # noqa: E402
from matplotlib.backends.backend_agg import RendererAgg  # noqa: E402

from benchbook.presentation import outputs, plotting, text_metrics  # noqa: E402

pytestmark = pytest.mark.usefixtures("themed")


@pytest.fixture
def measures(monkeypatch):
    """How many texts Agg renderers measured themselves."""
    seen = []
    measure = RendererAgg.get_text_width_height_descent

    def counted(self, s, prop, ismath):
        seen.append(s)
        return measure(self, s, prop, ismath)

    monkeypatch.setattr(RendererAgg, "get_text_width_height_descent", counted)
    return seen


def _figure(title: str):
    fig, ax = plt.subplots()
    ax.plot([1, 10, 100, 1000], [5, 40, 70, 90], marker="o", label="throughput")
    ax.set_xscale("log")
    ax.set(xlabel="concurrency", ylabel="tokens per second", title=title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    return fig


def _svgs() -> list[str]:
    out = []
    for title in ["Throughput against load", "Goodput against load"]:
        fig = _figure(title)
        plotting.finish(fig)
        out.append(outputs.svg(fig))
        plt.close(fig)
    return out


def test_shared_measures_print_the_same_svg():
    alone = _svgs()
    with text_metrics.shared():
        shared = _svgs()
    assert shared == alone


def test_a_second_figure_measures_only_its_new_texts(measures):
    _svgs()
    alone = len(measures)
    measures.clear()
    with text_metrics.shared():
        _svgs()
    assert 0 < len(measures) < alone
    assert measures.count("concurrency") == 1  # the axis label both figures carry, measured once


def test_a_changed_font_setting_is_measured_again():
    def width() -> float:
        fig = plt.figure()
        t = fig.text(0.5, 0.5, "tokens per second")
        w = t.get_window_extent(fig.canvas.get_renderer()).width
        plt.close(fig)
        return w

    with text_metrics.shared():
        sans = width()
        matplotlib.rcParams["font.sans-serif"] = ["DejaVu Serif"]
        serif = width()
    assert serif != sans
    assert serif == width()  # as measured by its own renderer


def test_matplotlib_measures_as_before_after_the_block():
    before = mtext._get_text_metrics_function
    with text_metrics.shared():
        assert mtext._get_text_metrics_function is not before
    assert mtext._get_text_metrics_function is before


def _extent(fig, t) -> tuple:
    return tuple(t.get_window_extent(fig.canvas.get_renderer()).bounds)


def test_a_text_laid_out_again_after_its_font_changed():
    """A layout is kept by the text's font as it was: a text made larger after is laid out again,
    as its own renderer lays it out."""
    fig = plt.figure()
    t = fig.text(0.5, 0.5, "tokens per second")
    size, small = t.get_fontsize(), _extent(fig, t)
    t.set_fontsize(20)
    large = _extent(fig, t)
    t.set_fontsize(size)
    with text_metrics.shared():
        assert _extent(fig, t) == small
        t.set_fontsize(20)
        assert _extent(fig, t) == large
    plt.close(fig)


def test_one_layout_per_text_and_renderer_kind(monkeypatch):
    laid_out = []
    lay_out = mtext.Text._get_layout

    def counted(self, renderer):
        laid_out.append(self.get_text())
        return lay_out(self, renderer)

    monkeypatch.setattr(mtext.Text, "_get_layout", counted)
    with text_metrics.shared():
        _svgs()
    assert laid_out.count("concurrency") == 2  # the axis label both figures carry: once by Agg, once by the SVG
