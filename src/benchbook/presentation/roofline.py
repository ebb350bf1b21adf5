"""The roofline drawn: the device's two roofs, its ridge, and measured points beneath them."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.analysis import roofline
from benchbook.presentation.plotting import color


def plot_roofline(
    ax,
    g,
    points: pd.DataFrame | None = None,
    *,
    peak_tflops: float | None = None,
    hue_col: str | None = None,
    xlim=(0.1, 10_000),
) -> None:
    """Draw the roofline of `g` on `ax` (log-log) and, optionally, measured points with columns
    `intensity_flop_per_byte` and `achieved_tflops`."""
    peak = g.fp16_tflops if peak_tflops is None else peak_tflops
    x = np.logspace(np.log10(xlim[0]), np.log10(xlim[1]), 200)
    ax.plot(x, roofline.attainable_tflops(x, g, peak), color="black", lw=2, label=f"{g.name} roofline")
    mark_ridge(ax, roofline.ridge(peak, g.bandwidth_gb_s), peak, color="grey")
    plot_points(ax, points, hue_col=hue_col)


def mark_ridge(ax, ridge: float, peak_tflops: float, **text) -> None:
    """The ridge of a roofline: a dotted vertical line, named just under the compute roof."""
    ax.axvline(ridge, color="grey", ls=":", lw=1)
    ax.annotate(
        f"ridge {ridge:.0f} FLOP/B",
        (ridge, peak_tflops),
        textcoords="offset points",
        xytext=(5, -15),
        fontsize=8,
        **text,
    )


def plot_points(ax, points: pd.DataFrame | None, *, hue_col: str | None = None) -> None:
    """Measured points (`intensity_flop_per_byte`, `achieved_tflops`) on log-log axes, under no
    roof: what a chart shows of a run whose device nobody names."""
    if points is not None and len(points):
        groups = points.groupby(hue_col, sort=False) if hue_col else [(None, points)]
        for i, (name, grp) in enumerate(groups):
            ax.scatter(
                grp["intensity_flop_per_byte"],
                grp["achieved_tflops"],
                color=color(i),
                zorder=3,
                label=str(name) if name is not None else None,
            )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (FLOP/byte)")
    ax.set_ylabel("performance (TFLOP/s)")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)
