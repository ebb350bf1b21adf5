"""A text measured and laid out once per process, not once per figure.

matplotlib keeps a text's measured size (width, height, descent) per renderer, and every figure has
renderers of its own (Agg for its layout, SVG for its print): three chapters' twelve figures measured
897 texts, of which 406 differ (the same tick labels, axis labels and fonts in figure after figure),
0.5 s of the chapters' 5 s of CPU. Inside `shared()`, renderers of one kind share what they measured. A
measure depends on the text, its font properties, whether it is mathtext, the resolution and the
font and mathtext settings (which name the fonts a family resolves to), so those are the key: the
numbers, and every figure drawn with them, are the same as each renderer's own measure.

A text's layout (`Text._get_layout`: its lines placed around its anchor, the box they fill, rotated
and aligned) is computed again at every tight box, layout and draw that asks where the text stands:
2,200 layouts for those twelve figures, of a few hundred different texts (a tick label is laid out by
the chapter's `tight_layout`, each box the SVG saves, the label beside it and the print), 0.45 s of
CPU. A layout is the text's own: made from its measures and its properties (string, font, rotation,
alignments, line spacing, the figure's resolution), never from where it stands, which its callers add
after. Inside `shared()` one layout is kept per such key and handed out again as a copy.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Iterator

#: The settings a measure depends on besides the text's own font properties.
_SETTINGS = ("text.", "font.", "mathtext.")


def _settings() -> tuple:
    import matplotlib as mpl

    return tuple(
        (k, tuple(v) if isinstance(v, list) else v) for k, v in mpl.rcParams.items() if k.startswith(_SETTINGS)
    )


@contextlib.contextmanager
def shared() -> Iterator[None]:
    """Inside the block, renderers of one kind (class and resolution) under the same settings share
    their measured texts (`matplotlib.text._get_text_metrics_function`) and their texts' layouts
    (`matplotlib.text.Text._get_layout`), both put back after."""
    from matplotlib import text

    measured: dict[tuple, tuple] = {}
    laid_out: dict[tuple, tuple] = {}
    per_renderer: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def renderer_key(renderer) -> tuple:
        """What a renderer's measures depend on: its kind, its resolution, the settings when it first measured."""
        try:
            return per_renderer[renderer][0]
        except KeyError:
            pass
        key = (type(renderer), getattr(renderer, "dpi", None), _settings())
        ref = weakref.ref(renderer)

        def metrics(s, fontprop, ismath, dpi):
            try:
                return measured[key + (s, fontprop, ismath, dpi)]
            except KeyError:
                found = measured[key + (s, fontprop, ismath, dpi)] = ref().get_text_width_height_descent(
                    s, fontprop, ismath=ismath
                )
                return found

        per_renderer[renderer] = key, metrics
        return key

    def metrics_function(renderer, *_):
        renderer_key(renderer)
        return per_renderer[renderer][1]

    lay_out = text.Text._get_layout

    def get_layout(self, renderer):
        if self.get_wrap():  # a wrapped text's lines depend on where it stands
            return lay_out(self, renderer)
        key = (
            renderer_key(renderer),
            type(self),
            self.get_figure(root=True).dpi,
            self.get_text(),
            self._fontproperties,
            self.get_usetex(),
            self._parse_math,
            self._linespacing,
            self._multialignment,
            self._horizontalalignment,
            self._verticalalignment,
            self.get_rotation(),
            self.get_rotation_mode(),
        )
        try:
            box, lines, corner = laid_out[key]
        except KeyError:
            box, lines, corner = found = lay_out(self, renderer)
            laid_out[key] = found  # a font changed after is hashed anew: no longer this key's
        return box.frozen(), list(lines), corner

    before = text._get_text_metrics_function
    text._get_text_metrics_function = metrics_function
    text.Text._get_layout = get_layout
    try:
        yield
    finally:
        text._get_text_metrics_function = before
        text.Text._get_layout = lay_out
