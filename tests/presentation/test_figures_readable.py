"""Every figure of the attention, power, bandwidth and reproduction chapters, built from the
presentation functions on the seed and on every fixture of the chapter's tool: no text collides with
another, no legend covers data, and the points drawn are the points the data has."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from benchbook import checks, config, ingest  # noqa: E402
from benchbook.analysis import attention, bandwidth, power  # noqa: E402
from benchbook.presentation import attention as att_show  # noqa: E402
from benchbook.presentation import bandwidth as bw_show  # noqa: E402
from benchbook.presentation import labels  # noqa: E402
from benchbook.presentation import power as pw_show  # noqa: E402
from benchbook.presentation import reproduction as rep_show  # noqa: E402
from benchbook.presentation.plotting import overlaps, use_theme  # noqa: E402

SEED = config.PROJ_ROOT / "data" / "raw" / "rtx_pro_6000" / "004_6d4f73623fb8afcd.txt"
FIXTURES = config.PROJ_ROOT / "tests" / "fixtures"


def _inputs(tool: str) -> list[Path]:
    return [SEED] + sorted(
        f for f in (FIXTURES / tool).iterdir() if f.name != "README.md" and not f.name.endswith(".truth.yml")
    )


def _id(p: Path) -> str:
    return p.name


@pytest.fixture(autouse=True)
def _theme():
    use_theme()
    yield
    plt.close("all")


def _markers(ax) -> int:
    """Data points drawn as markers on `ax` (scatter offsets and line vertices with a marker)."""
    n = sum(len(c.get_offsets()) for c in ax.collections if not hasattr(c, "get_segments"))
    return n + sum(len(ln.get_xydata()) for ln in ax.get_lines() if ln.get_marker() not in (None, "None", ""))


@pytest.mark.parametrize("src", _inputs("attention-gym"), ids=_id)
def test_attention_figures(src):
    df, _ = ingest.read_all([src], tool="attention-gym")
    k = attention.with_work(attention.kernels(df))
    sp = attention.speedups(k)
    pts = attention.roofline_points(k)
    peaks = attention.peaks("", [src.read_text(encoding="utf-8", errors="replace")], 0.0, 0.0)
    figs = {
        "tflops": att_show.tflops_figure(k),
        "speedup": att_show.speedup_figure(sp),
        "roof": att_show.roofline_figure(pts, peaks),
    }
    for name, fig in figs.items():
        assert overlaps(fig) == [], name
    drawable = sp[sp["flex_vs_sdpa"].notna() & sp["density"].notna()]
    ax = figs["speedup"].axes[0]
    if len(drawable):
        shown = np.vstack([c.get_offsets() for c in ax.collections])
        assert sorted(shown[:, 1]) == pytest.approx(sorted(drawable["flex_vs_sdpa"]))
        assert ax.get_legend() is None and figs["speedup"].legends, "the legend sits outside the axes"
    bars = [b.get_height() for b in figs["tflops"].axes[0].patches if np.isfinite(b.get_height())]
    fw = k[k["pass"] == "fw"]
    if len(fw):
        assert max(bars) == pytest.approx(fw["tflops"].max())


@pytest.mark.parametrize("src", _inputs("llama-bench"), ids=_id)
def test_power_figures(src):
    df, _ = ingest.read_all([src], tool="llama-bench")
    chosen = power.pick_model(df)
    kept, _ = power.hold_fixed(df, chosen)
    table = power.energy(power.rate_table(kept, chosen), None)
    if not power.has_power(table):  # the chapter draws none of them: a figure needs data
        assert pw_show.throughput_figure(table.iloc[0:0], chosen) is None
        return
    figs = {
        "throughput": pw_show.throughput_figure(table, chosen),
        "energy": pw_show.energy_figure(table, 0.1),
        "cv": pw_show.cv_figure(table),
        "lesson": pw_show.lesson_figure(),
    }
    for name, fig in figs.items():
        assert overlaps(fig) == [], name
    for ax, (test, g) in zip(figs["energy"].axes, table.groupby("test", sort=True), strict=True):
        assert ax.get_title() == test
        assert sorted(p.get_height() for p in ax.patches) == pytest.approx(sorted(g["j_per_tok"]))


@pytest.mark.parametrize("src", _inputs("llama-bench"), ids=_id)
def test_bandwidth_figures(src):
    df, _ = ingest.read_all([src], tool="llama-bench")
    kept, _ = bandwidth.reduce(bandwidth.generation_rows(df))
    pts = bandwidth.points(kept, "", {}, 0.0, 0.0)
    figs = {
        "ceiling": bw_show.ceiling_figure(pts),
        "fraction": bw_show.fraction_figure(pts),
        "roofline": bw_show.roofline_figure(pts),
    }
    for name, fig in figs.items():
        assert overlaps(fig) == [], name
    placed = bw_show.placed(pts)
    ax = figs["ceiling"].axes[0]
    if len(placed):
        assert _markers(ax) == len(placed)
        names = {bandwidth.label(r) for _, r in placed.iterrows()}
        assert {t.get_text() for t in ax.texts} <= names
        widths = sorted(b.get_width() for b in figs["fraction"].axes[0].patches)
        assert widths == pytest.approx(sorted(100 * placed["fraction_of_peak"]))
    else:
        assert _markers(ax) == 0 and figs["ceiling"].axes[0].texts[0].get_text() == bw_show.NO_RESULTS
    roof = figs["roofline"].axes[0].get_legend()
    if roof is not None:  # a point keeps its kind's colour and name from the ceiling figure (not one per model)
        ceiling = {t.get_text() for leg in figs["ceiling"].legends for t in leg.get_texts()}
        kinds = {t.get_text() for t in roof.get_texts() if not t.get_text().endswith("roofline")}
        assert kinds and kinds <= ceiling


#: The fixture folders of the tools the reproduction appendix recomputes (those of the raw files).
CHECKED_TOOLS = ["attention-gym", "hf-batch-sweep", "llama-bench", "sglang-quant-report", "tgi-benchmark"]
CHECKED_TOOLS += ["vllm-bench-serve"]


@pytest.mark.parametrize("src", [config.RAW_DIR] + [FIXTURES / t for t in CHECKED_TOOLS], ids=lambda p: p.name)
def test_reproduction_figure(src):
    table = checks.reproduce_all(checks.expand(str(src)))
    fig = rep_show.agreement_figure(table)
    assert overlaps(fig) == []
    diffs = rep_show.differences(table)
    if len(diffs):
        ax = fig.axes[0]
        assert sum(len(c.get_offsets()) for c in ax.collections) == len(diffs)
        assert ax.get_legend() is None and fig.legends, "the legend sits below the axes, off the strips"


def test_overlaps_finds_a_collision_and_place_avoids_it():
    """The check fires on two labels drawn on the same spot; `labels.place` puts the second one
    elsewhere or leaves it out, and never on a plotted point."""
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.scatter([1, 1.001, 2], [1, 1.001, 2])
    ax.annotate("first label", (1, 1))
    ax.annotate("second label", (1.001, 1.001))
    assert any("first label" in o and "second label" in o for o in overlaps(fig))
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.scatter([1, 1.001, 2], [1, 1.001, 2])
    left_out = labels.place(ax, [(1, 1, "first label"), (1.001, 1.001, "second label"), (2, 2, "third")])
    assert overlaps(fig) == []
    assert len(ax.texts) + len(left_out) == 3 and "first label" not in left_out


def test_legend_on_points_is_found():
    """A legend drawn over the data is reported (the design moves legends outside the axes)."""
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.scatter(np.linspace(0, 1, 50), np.full(50, 1.0), label="points")
    ax.set_ylim(0.95, 1.05)
    ax.legend(loc="center")
    assert any("legend covers" in o for o in overlaps(fig))


@pytest.mark.parametrize(("below", "collides"), [(-0.12, True), (-0.45, False)])
def test_a_legend_below_the_axes_is_found_on_the_x_label(below, collides):
    """A legend placed under the axes whose frame runs over the x label is reported (the TP fit
    figure's legend touched "tensor-parallel GPUs (TP)"); one placed clear of it is not."""
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([1, 2, 4, 8], [4, 3, 2, 1], label="bs 1: a=21±7, b=1.4±0.9, c=8±6")
    ax.set_xlabel("tensor-parallel GPUs (TP)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, below))
    assert any("legend overlaps axes 0 x label" in o for o in overlaps(fig)) == collides


def test_the_tp_fit_figure_keeps_its_legends_off_the_x_labels():
    from benchbook.analysis import tp
    from benchbook.presentation import tp as tp_show
    from benchbook.presentation.plotting import finish

    src = sorted((config.RAW_DIR / "tgi_bloomz_tp").glob("*.txt"))
    df, _ = ingest.read_all(src, tool="tgi-benchmark")
    fits = tp.scaling_fits(tp.main_config(tp.combine(tp.wide(df))[0]))
    assert fits, "the seed has four TPs: a fit to draw"
    fig = tp_show.plot_fits(fits, sorted({x for f in fits for x in f["points"]["tp"]}))
    finish(fig)
    assert overlaps(fig) == []


def test_agreement_figure_plots_the_log_relative_difference():
    """Points: 101 vs 100 (1 % -> 0), 100 vs 100 (exact -> -4), 55 vs 50 (10 % -> 1); a zero or missing
    published value is left out; the one disagreement is coloured apart."""
    import pandas as pd

    table = pd.DataFrame(
        {
            "tool": ["tgi", "tgi", "llama", "llama", "tgi"],
            "published": [100.0, 100.0, 50.0, 0.0, None],
            "recomputed": [101.0, 100.0, 55.0, 3.0, 4.0],
            "agrees": [True, True, False, False, False],
        }
    )
    fig = rep_show.agreement_figure(table)
    ax = fig.axes[0]
    xs = sorted(float(x) for c in ax.collections for x, _ in c.get_offsets())
    assert xs == pytest.approx([-4.0, 0.0, 1.0])
    fig.draw_without_rendering()
    ticks = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert ticks[0] == "exact" and ticks[1:] == ["0.001", "0.01", "0.1", "1", "10"]  # percents, not log10
    assert [t.get_text() for t in fig.legends[0].get_texts()] == [
        "agrees at the printed precision",
        "disagrees at the printed precision",
    ]
    assert overlaps(fig) == []


def _columns(fig) -> int:
    """Panels side by side: the distinct left edges of the figure's axes."""
    return len({round(ax.get_position().x0, 2) for ax in fig.axes})


def test_multi_panel_figures_put_at_most_two_panels_side_by_side(tmp_path):
    """A page scales a figure to its text column: three panels in a row (11 inches) printed their labels
    at 7 pt, too small to read (#28). Figures of three or more panels stack them two abreast at most."""
    import pandas as pd

    from benchbook.analysis import serving
    from benchbook.presentation import serving as srv_show
    from benchbook.presentation.plotting import panel_grid, panel_size

    r, _ = serving.load([SEED])
    fig = srv_show.plot_latency_tradeoff(r.assign(x=serving.sweep_x(r, "max_concurrency")), "max_concurrency")
    assert len(fig.axes) == 3 and _columns(fig) == 1 and fig.get_figwidth() <= 7.5
    three = pd.DataFrame(
        [
            {"test": t, "power_limit_w": w, "mean": m, "std": 1.0}
            for t in ("pp512", "tg128", "pp2048")
            for w, m in ((200, 10), (300, 12))
        ]
    )
    fig = pw_show.throughput_figure(three, "m")
    assert len(fig.axes) == 3 and _columns(fig) == 2 and fig.get_figwidth() <= 8.5
    fig, axes = panel_grid(5)
    assert len(fig.axes) == len(axes) == 5 and _columns(fig) == 2  # the sixth cell of the grid is removed
    with pytest.raises(ValueError, match="at most two panels side by side"):
        panel_size(1, 3)


def _drawn(monkeypatch) -> list:
    """The figures drawn from now on (`Figure.draw`, a print's draw included)."""
    drawn: list = []
    real = matplotlib.figure.Figure.draw
    monkeypatch.setattr(matplotlib.figure.Figure, "draw", lambda self, r: (drawn.append(self), real(self, r))[1])
    return drawn


def test_finish_measures_a_tight_layout_figure_without_a_draw_and_hands_on_the_box_its_svg_saves(monkeypatch):
    """`fig.tight_layout()` lays a figure out once (it leaves a placeholder engine that does nothing):
    `finish` measures the box its SVG saves without drawing it (its tight box lays out what it
    measures), and the SVG saved from that box, drawn once, is matplotlib's own tight print."""
    from benchbook.presentation import outputs
    from benchbook.presentation.plotting import finish

    fig, ax = plt.subplots(figsize=(4, 3))
    ax.scatter([1, 2], [1, 2], label="points")
    ax.annotate("a label", (1, 1))
    ax.set_title("a title")
    ax.legend(loc="upper left")
    fig.tight_layout()
    drawn = _drawn(monkeypatch)
    box = finish(fig)
    assert drawn == [] and box is not None
    svg = outputs.svg(fig, box)
    assert drawn == [fig]
    assert svg == outputs.svg(fig)  # the tight box computed again: the same bytes


def test_finish_lays_a_constrained_figure_out_once_and_keeps_that_layout():
    """Constrained layout places the axes at a draw: `finish` draws it, keeps that layout (no engine
    lays it out again) and hands on the box its SVG saves of it."""
    from benchbook.presentation import outputs
    from benchbook.presentation.plotting import _moves_when_drawn, finish

    fig, ax = plt.subplots(figsize=(4, 3), layout="constrained")
    ax.scatter([1, 2], [1, 2])
    ax.annotate("a label", (1, 1))
    ax.set_title("a title")
    box = finish(fig)
    assert not _moves_when_drawn(fig) and box is not None
    assert outputs.svg(fig, box) == outputs.svg(fig)


def test_finish_hands_on_no_box_where_it_hid_a_label():
    """Two point labels on one spot: `finish` hides the second, so the figure is no longer as measured."""
    from benchbook.presentation.plotting import finish

    fig, ax = plt.subplots(figsize=(4, 3))
    ax.scatter([1, 1.001, 2], [1, 1.001, 2])
    ax.annotate("first label", (1, 1))
    ax.annotate("second label", (1.001, 1.001))
    fig.tight_layout()
    assert finish(fig) is None  # the box it measured holds the hidden label: the SVG measures its own
    assert [t.get_visible() for t in ax.texts] == [True, False] and overlaps(fig) == []


def lines_under_legends(fig) -> list[str]:
    """Drawn lines that pass under (or along) an axes' legend: each line's points, and 50 between each
    pair, in display coordinates, against the legend's frame widened by half the line's width
    (`plotting.overlaps` reads points, not lines)."""
    import numpy as np

    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    out = []
    for ax in fig.axes:
        leg = ax.get_legend()
        if leg is None:
            continue
        box = leg.get_window_extent(renderer)
        for line in ax.get_lines():
            xy = line.get_transform().transform(np.asarray(line.get_xydata(), dtype=float))
            t = np.linspace(0, 1, 50)[:, None]
            pts = np.vstack([a + t * (b - a) for a, b in zip(xy[:-1], xy[1:], strict=True)] or [xy])
            w = line.get_linewidth() * fig.dpi / 72 / 2  # a line along the frame's edge still runs into it
            inside = (
                (pts[:, 0] > box.x0 - w)
                & (pts[:, 0] < box.x1 + w)
                & (pts[:, 1] > box.y0 - w)
                & (pts[:, 1] < box.y1 + w)
            )
            if inside.any():
                out.append(str(line.get_label()))
    return out


def test_the_quantization_lesson_legend_sits_clear_of_its_lines():
    """The legend sat lower left, on the bf16 line at 1x; between the 2x and 1x lines it covers none."""
    import matplotlib.pyplot as plt

    from benchbook.analysis import quant
    from benchbook.presentation import quant as quant_show
    from benchbook.presentation.plotting import finish, use_theme

    use_theme()
    lesson = quant.Lesson(device="A100-SXM4-80GB", tflops=312.0, int8_tops=624.0, bandwidth_gb_s=2039.0, example=False)
    fig = quant_show.lesson_figure(lesson)
    finish(fig)  # as the page shows it: the type enlarged to read at 10 px
    assert lines_under_legends(fig) == []
    fig.axes[0].legend(loc="lower left")
    assert "bf16" in lines_under_legends(fig)
    plt.close(fig)
