"""Inside `titles.placed()` a title is placed without its y-axes' tight boxes where their offset
text is empty, and every figure prints the same SVG as without it; an offset text is still measured."""

from __future__ import annotations

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.axis import YAxis  # noqa: E402

from benchbook.presentation import outputs, plotting, titles  # noqa: E402

pytestmark = pytest.mark.usefixtures("themed")


def _titled(offset: bool = False):
    """Two titled panels, one with a twin y-axis; with `offset`, y values that print an offset text."""
    if offset:
        plt.rcParams["axes.formatter.useoffset"] = True
    fig, (a, b) = plt.subplots(1, 2, figsize=plotting.panel_size(1, 2))
    base = 1_000_000.0 if offset else 0.0
    a.plot([1, 2, 3], [base + 1, base + 3, base + 2])
    a.set(title="Throughput", ylabel="tokens per second")
    b.plot([1, 2, 4, 8], [100, 190, 330, 560])
    b.twinx().plot([1, 2, 4, 8], [1.0, 0.95, 0.82, 0.7], color="k")
    b.set_title("Scaling")
    fig.tight_layout()
    return fig


def _printed(offset: bool = False) -> str:
    fig = _titled(offset)
    box = plotting.finish(fig)
    svg = outputs.svg(fig, box)
    plt.close(fig)
    return svg


@pytest.fixture
def y_boxes(monkeypatch):
    """How many y-axis tight boxes were computed."""
    seen = []
    measure = YAxis.get_tightbbox

    def counted(self, *a, **kw):
        seen.append(self)
        return measure(self, *a, **kw)

    monkeypatch.setattr(YAxis, "get_tightbbox", counted)
    return seen


@pytest.mark.parametrize("offset", [False, True])
def test_placed_prints_the_same_svg(offset):
    alone = _printed(offset)
    with titles.placed():
        assert _printed(offset) == alone
    assert ("1e6" in alone) == offset  # the offset text printed where the axis has one


def test_placed_leaves_out_the_title_s_y_axis_boxes(y_boxes):
    _printed()
    alone = len(y_boxes)
    y_boxes.clear()
    with titles.placed():
        _printed()
    assert 0 < len(y_boxes) < alone


def test_placed_puts_matplotlib_back():
    measure = YAxis.get_tightbbox
    with titles.placed():
        assert YAxis.get_tightbbox is not measure
    assert YAxis.get_tightbbox is measure
