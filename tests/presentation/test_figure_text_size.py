"""Every text of a figure, exponents and legends included, reads at least MIN_TEXT_PX once the page
shows it: the size is computed from the figure as the chapter saves it (SVG, tight box), the size of
each text in it and the width the column gives the figure in a 1300 px and an 800 px window
(`plotting.FIGURE_PX`), no browser needed. Log axes print plain numbers (30, 1,000; 1, 4, 16), not
powers of ten whose superscripts print at 70 % of the text (#34)."""

from __future__ import annotations

import importlib

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from benchbook import checks, config  # noqa: E402
from benchbook.chapter import setup  # noqa: E402
from benchbook.presentation import audit as audit_show  # noqa: E402
from benchbook.presentation import foundations  # noqa: E402
from benchbook.presentation import reproduction as rep_show  # noqa: E402
from benchbook.presentation.plotting import (  # noqa: E402
    FIGURE_PX,
    MIN_TEXT_PX,
    finish,
    plain_axes,
    plain_number,
    rendered_text_px,
    times_ticks,
    use_theme,
)

TOPICS = [
    "attention_kernels",
    "bandwidth_roofline",
    "batch_saturation",
    "perf_per_watt",
    "quantization_regimes",
    "serving_saturation",
    "tp_scaling",
    "tracking",
]


@pytest.fixture(autouse=True)
def _theme():
    use_theme()
    yield
    plt.close("all")


def _too_small(fig) -> list[str]:
    """Each text under MIN_TEXT_PX at a window width, with its size there."""
    return [
        f"{window} px window: {text!r} at {px:.1f} px"
        for window, figure_px in FIGURE_PX.items()
        for px, text in rendered_text_px(fig, figure_px)
        if px < MIN_TEXT_PX
    ]


def _tick_texts(fig) -> list[str]:
    fig.draw_without_rendering()
    return [
        t.get_text()
        for ax in fig.axes
        for axis in (ax.xaxis, ax.yaxis)
        for t in axis.get_ticklabels() + axis.get_ticklabels(minor=True)
        if t.get_text()
    ]


def test_a_7pt_label_in_a_figure_wider_than_the_column_renders_under_10px_until_finished():
    """An 11-inch figure (about 1,060 px as saved) shrinks to 688 px in a 1300 px window: its 7 pt
    label (9.3 px unshrunk) prints at about 6 px. `finish` (what `glue_figure` does) enlarges it."""
    fig, ax = plt.subplots(figsize=(11, 3))
    ax.plot([0, 1], [0, 1])
    ax.annotate("a small label", (0.5, 0.5), fontsize=7)
    small = _too_small(fig)
    assert any("'a small label'" in s for s in small) and any(s.startswith("800 px") for s in small)
    finish(fig)
    assert _too_small(fig) == []


def test_a_figure_narrower_than_the_column_shows_at_its_own_width():
    """A 4-inch figure is shown at its own width (1 pt = 4/3 px), not stretched: 8 pt reads at about
    10.7 px, 7 pt at 9.3 px, whatever the column."""
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.set_axis_off()
    ax.text(0.1, 0.6, "eight points", fontsize=8)
    sizes = dict((t, px) for px, t in rendered_text_px(fig, FIGURE_PX[1300]))
    assert sizes["eight points"] == pytest.approx(8 * 4 / 3)
    ax.text(0.1, 0.2, "seven points", fontsize=7)
    assert [s for s in _too_small(fig) if "seven points" in s] and not [s for s in _too_small(fig) if "eight" in s]


def test_a_figure_narrower_than_the_column_gets_its_small_type_enlarged():
    """A 4-inch figure is shown at its own width, not stretched to the column: its 7 pt label reads at
    9.3 px in any window, and `finish` enlarges it (measured as if stretched to the column, 7 pt
    looked large enough)."""
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [0, 1])
    ax.annotate("seven points", (0.5, 0.5), fontsize=7)
    assert [s for s in _too_small(fig) if "seven points" in s]
    finish(fig)
    assert _too_small(fig) == []


def test_type_at_the_edge_of_a_figure_is_enlarged_within_finishs_passes():
    """A legend outside the axes widens the figure as its type grows; an SVG's box grows with every
    step of type, so type set just large enough for one pass's width is too small for the next:
    `finish` sets it as much further ahead as the box grew, and is done within its passes (it hands
    on the box it measured), every text at 10 px or more."""
    fig, ax = plt.subplots(figsize=(9, 3))
    for i in range(3):
        ax.plot([0, 1], [i, i + 1], label=f"a long series name number {i}")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=7)
    fig.tight_layout()
    assert finish(fig) is not None
    assert _too_small(fig) == []


def test_an_exponent_counts_at_its_own_size():
    """matplotlib draws a log axis's 10^1 with the 1 at 70 % of the tick size: on a figure as wide
    as the column, an 11 pt tick keeps its exponent at about 9.4 px, under the limit; plain labels
    have none."""
    fig, ax = plt.subplots(figsize=(9, 3))
    ax.plot([20, 70], [1e-5, 3e5])
    ax.set_xscale("log")
    ax.set_yscale("log")
    before = _too_small(fig)
    assert before and all("1300 px" in s or "800 px" in s for s in before)
    assert any("$" in t for t in _tick_texts(fig))
    finish(fig)
    assert _too_small(fig) == []


def test_log_axes_print_plain_numbers_and_keep_a_chosen_formatter():
    """A decade axis prints 0.0001 … 10,000; a short one labels its minor ticks 20, 30, 40, 60 (not
    3x10^1); a base-2 axis prints 1, 4, 16 (not 2^2); an axis given `times_ticks` keeps 1×, 2×."""
    fig, axes = plt.subplots(1, 2, figsize=(9, 3))
    axes[0].plot([1e-4, 1e4], [20, 70])
    axes[0].set_xscale("log")
    axes[0].set_yscale("log")
    axes[1].plot([1, 256], [1, 8])
    axes[1].set_xscale("log", base=2)
    axes[1].set_yscale("log", base=2)
    axes[1].yaxis.set_major_formatter(times_ticks())
    plain_axes(fig)
    ticks = _tick_texts(fig)
    assert not any("$" in t or "^" in t or "e-" in t for t in ticks), ticks
    assert {"0.0001", "1", "10,000", "30", "60", "4", "16", "2×", "8×"} <= set(ticks)


@pytest.mark.parametrize(
    ("value", "text"),
    [(30, "30"), (1000, "1,000"), (0.5, "0.5"), (0.002, "0.002"), (0.00003, "0.00003"), (2.5, "2.5"), (0, "0")],
)
def test_plain_number(value, text):
    assert plain_number(value) == text


@pytest.mark.parametrize("chapter", TOPICS)
def test_every_figure_of_a_chapter_reads_at_10px_in_both_windows(chapter):
    """Each figure a topic chapter draws from its default input, finished as `glue_figure` finishes
    it: every text at least MIN_TEXT_PX at both window widths, and no tick label a power of ten."""
    topic = importlib.import_module(f"benchbook.topics.{chapter}")
    figures = topic.page(topic.analyse(setup(chapter, {}))).figures
    bad = []
    for name, fig in figures.items():
        if fig is None:
            continue
        finish(fig)
        bad += [f"{name}: {s}" for s in _too_small(fig)]
        bad += [f"{name}: tick {t!r}" for t in _tick_texts(fig) if "$" in t]
        plt.close(fig)
    assert not bad, "\n".join(bad)


def test_the_appendix_and_foundations_figures_read_at_10px():
    files = checks.expand(str(config.RAW_DIR))
    figs = {
        "defects": audit_show.defects_figure(audit_show.defect_counts(checks.audit_all(files))),
        "agreement": rep_show.agreement_figure(checks.reproduce_all(files)),
        "foundations": foundations.figure(),
    }
    bad = []
    for name, fig in figs.items():
        finish(fig)
        bad += [f"{name}: {s}" for s in _too_small(fig)]
    assert not bad, "\n".join(bad)


def test_a_linear_axis_groups_its_thousands_as_a_log_axis_does_and_keeps_small_numbers_as_they_are():
    """perf_per_watt's throughput axis read 15000 beside the lesson's 10,000 (a log axis): every linear
    axis groups whole thousands (15,000, -2,500); decimals and a figure's own formatter are kept."""
    fig, (big, ratio) = plt.subplots(1, 2)
    big.plot([-3000, 20000], [0.5, 1.25])
    big.set_xticks([-2500, 500, 15000])
    ratio.plot([1, 8], [1, 8])
    ratio.yaxis.set_major_formatter(times_ticks())
    finish(fig)
    assert {"15,000", "\u22122,500", "500"} <= set(_tick_texts(fig)) and "15000" not in _tick_texts(fig)
    assert {"0.5", "1.0"} <= {t.get_text() for t in big.get_yticklabels()}
    assert all(t.get_text().endswith("×") for t in ratio.get_yticklabels() if t.get_text())
