"""The settings seaborn's `set_theme(context="notebook", style="whitegrid")` makes, written out, so
that drawing the book's figures does not import seaborn (a tenth of a report's imports): the
book's look is these settings, the Okabe-Ito cycle and `plotting.use_theme`'s own.

They are seaborn 0.13's `plotting_context("notebook")` and `axes_style("whitegrid")` with its
`font="sans-serif"`, except the default colour map: seaborn's "rocket" exists only where seaborn
is imported, so matplotlib's own stays (every figure that maps colours names its map).
tests/presentation/test_theme.py holds them equal to what seaborn sets.
"""

from __future__ import annotations

#: seaborn's "notebook" context: sizes of lines, ticks and type.
CONTEXT = {
    "axes.linewidth": 1.25,
    "grid.linewidth": 1,
    "lines.linewidth": 1.5,
    "lines.markersize": 6,
    "patch.linewidth": 1,
    "xtick.major.width": 1.25,
    "ytick.major.width": 1.25,
    "xtick.minor.width": 1,
    "ytick.minor.width": 1,
    "xtick.major.size": 6,
    "ytick.major.size": 6,
    "xtick.minor.size": 4,
    "ytick.minor.size": 4,
    "font.size": 12,
    "axes.labelsize": 12,
    "axes.titlesize": 12,
    "xtick.labelsize": 11,
    "ytick.labelsize": 11,
    "legend.fontsize": 11,
    "legend.title_fontsize": 12,
}

#: seaborn's "whitegrid" style: colours, grid, spines and fonts.
STYLE = {
    "figure.facecolor": "white",
    "axes.labelcolor": ".15",
    "xtick.direction": "out",
    "ytick.direction": "out",
    "xtick.color": ".15",
    "ytick.color": ".15",
    "axes.axisbelow": True,
    "grid.linestyle": "-",
    "text.color": ".15",
    "font.family": "sans-serif",
    "font.sans-serif": ["Arial", "DejaVu Sans", "Liberation Sans", "Bitstream Vera Sans", "sans-serif"],
    "lines.solid_capstyle": "round",
    "patch.edgecolor": "w",
    "patch.force_edgecolor": True,
    "xtick.top": False,
    "ytick.right": False,
    "axes.grid": True,
    "axes.facecolor": "white",
    "axes.edgecolor": ".8",
    "grid.color": ".8",
    "axes.spines.left": True,
    "axes.spines.bottom": True,
    "axes.spines.right": True,
    "axes.spines.top": True,
    "xtick.bottom": False,
    "ytick.left": False,
}


def apply(palette: list[str]) -> None:
    """Set the theme, and `palette` as the colour cycle (as RGB, as seaborn sets a palette)."""
    import matplotlib as mpl

    mpl.rcParams.update(CONTEXT)
    mpl.rcParams.update(STYLE)
    mpl.rcParams["axes.prop_cycle"] = mpl.cycler("color", [mpl.colors.to_rgb(c) for c in palette])
