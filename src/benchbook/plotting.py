"""One look for every figure in the book: a colour-blind-safe palette and consistent styling."""

from __future__ import annotations

import matplotlib.pyplot as plt
import seaborn as sns

#: Okabe-Ito, the colour-blind-safe qualitative palette; the same order in every chapter.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]


def use_theme() -> None:
    """Apply the book's seaborn theme (call once per chapter, in its setup cell).

    Interactive mode is switched off, so a figure appears only where the chapter glues or shows it
    (with its caption), never a second time at the end of the cell that drew it.
    """
    plt.ioff()
    sns.set_theme(context="notebook", style="whitegrid", palette=PALETTE)
    plt.rcParams.update(
        {
            "figure.figsize": (7.5, 4.5),
            "figure.dpi": 100,
            "savefig.dpi": 100,
            "axes.titleweight": "bold",
            "axes.spines.top": False,
            "axes.spines.right": False,
            "legend.frameon": False,
        }
    )


def color(i: int) -> str:
    """The i-th colour of the book's palette."""
    return PALETTE[i % len(PALETTE)]
