"""The measured-energy figure gives its bars their own height, however few configurations the file
holds: a lone configuration (a llama-bench write-up with one wall reading) once got an axes about
1 px high under its legend, so the page showed an axis and a legend over no bar (#34 item 9)."""

from __future__ import annotations

import matplotlib
import pandas as pd
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from benchbook.presentation import energy as show  # noqa: E402
from benchbook.presentation.plotting import finish, use_theme  # noqa: E402


@pytest.fixture(autouse=True)
def _theme():
    use_theme()
    yield
    plt.close("all")


def _table(n: int) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "source": ["f"] * n,
            "run": [f"model-{i}.gguf" for i in range(n)],
            "scope": ["wall"] * n,
            "interval": ["run"] * n,
            "j_per_output_token": [2.16 + i for i in range(n)],
            "j_per_request": [None] * n,
        }
    )


def _bar_px(fig) -> float:
    """The height the axes gives each bar, in pixels of the figure as finished for the page."""
    finish(fig)
    fig.canvas.draw()
    ax = fig.axes[0]
    return ax.get_window_extent().height / len(ax.patches)


@pytest.mark.parametrize("n", [1, 2, 12])
def test_each_configuration_gets_a_bar_at_least_as_tall_as_its_label_line(n):
    fig = show.energy_bars(_table(n))
    assert _bar_px(fig) >= 0.8 * show.LINE_IN * fig.dpi


def test_the_old_height_left_a_lone_configuration_no_room(monkeypatch):
    monkeypatch.setattr(show, "AROUND_IN", 1.2)  # the height before: decorations took it all
    fig = show.energy_bars(_table(1))
    assert _bar_px(fig) < 0.8 * show.LINE_IN * fig.dpi
