"""A text measured once per process, not once per figure.

matplotlib keeps a text's measured size (width, height, descent) per renderer, and every figure has
renderers of its own (Agg for its layout, SVG for its print): three chapters' twelve figures measured
897 texts, of which 406 differ (the same tick labels, axis labels and fonts in figure after figure),
0.5 s of the chapters' 5 s of CPU. Inside `shared()`, renderers of one kind share what they measured. A
measure depends on the text, its font properties, whether it is mathtext, the resolution and the
font and mathtext settings (which name the fonts a family resolves to), so those are the key: the
numbers, and every figure drawn with them, are the same as each renderer's own measure.
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
    their measured texts (`matplotlib.text._get_text_metrics_function`, put back after)."""
    from matplotlib import text

    measured: dict[tuple, tuple] = {}
    per_renderer: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def metrics_function(renderer, *_):
        try:
            return per_renderer[renderer]
        except KeyError:
            pass
        kind, settings, ref = type(renderer), _settings(), weakref.ref(renderer)

        def metrics(s, fontprop, ismath, dpi):
            r = ref()
            key = (kind, getattr(r, "dpi", None), settings, s, fontprop, ismath, dpi)
            try:
                return measured[key]
            except KeyError:
                found = measured[key] = r.get_text_width_height_descent(s, fontprop, ismath=ismath)
                return found

        per_renderer[renderer] = metrics
        return metrics

    before = text._get_text_metrics_function
    text._get_text_metrics_function = metrics_function
    try:
        yield
    finally:
        text._get_text_metrics_function = before
