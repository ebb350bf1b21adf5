"""One look for every figure in the book: a colour-blind-safe palette and consistent styling."""

from __future__ import annotations

import matplotlib.pyplot as plt
import seaborn as sns

#: Okabe-Ito, the colour-blind-safe qualitative palette; the same order in every chapter.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]


def use_theme() -> None:
    """Apply the book's seaborn theme (call once per chapter, in its setup cell).

    It does not stop the inline backend from showing every open figure at the end of the cell that
    drew it: `plt.ioff()` here would be undone, because IPython switches interactive mode back on
    when it loads the inline backend, at the chapter's first figure. Chapters show a figure through
    `glue_figure`, which closes it, so that it appears once, where its caption is.
    """
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


def glue_figure(name: str, fig) -> None:
    """Glue `fig` under `name` for a `{glue:figure}` directive, and close it so that the inline
    backend does not show an uncaptioned copy of it at the end of the cell."""
    from myst_nb import glue

    glue(name, fig, display=False)
    plt.close(fig)


def glue_all(values: dict) -> None:
    """Glue each value under its name, hidden: the chapter's prose places them."""
    from myst_nb import glue

    for name, value in values.items():
        glue(name, value, display=False)


def message_figure(text: str):
    """A small figure that says why there is nothing to plot: every `{glue:figure}` of a chapter
    must still resolve on inputs that lack the data."""
    fig, ax = plt.subplots(figsize=(4, 2))
    ax.text(0.5, 0.5, text, ha="center", va="center")
    ax.set_axis_off()
    return fig


def color(i: int) -> str:
    """The i-th colour of the book's palette."""
    return PALETTE[i % len(PALETTE)]
