"""Where a chapter's glued values and displays go: the one door its code shows things through.

In a kernel or the report's old IPython shell they go through myst-nb's `glue` and IPython's
`display`, as a notebook records them. While `recording` (a chapter's cells run in plain Python,
`executor.run_plain`), the same calls append the same outputs (mime bundles, the glue's
papermill prefix and scrapbook name) to the cell being run, with no IPython or myst-nb imported.
A figure is kept as the figure, and drawn (made readable, then SVG) by `draw`, which the
executor calls at the end of the chapter's run, in its settings.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator

#: myst-nb's prefix of a glued value's formats (`myst_nb.ext.glue.GLUE_PREFIX`).
GLUE_PREFIX = "application/papermill.record/"
#: The kind of output a figure waiting to be drawn is held in, until `svg` draws it.
FIGURE = "application/vnd.benchbook.figure"


class Recorder:
    """The outputs of the cell being run (`cell`, a list a notebook cell holds as its outputs)."""

    def __init__(self) -> None:
        self.cell: list = []


_recorder: Recorder | None = None


@contextlib.contextmanager
def recording() -> Iterator[Recorder]:
    """Record, instead of display, what is glued or displayed inside the block."""
    global _recorder
    before, _recorder = _recorder, Recorder()
    try:
        yield _recorder
    finally:
        _recorder = before


def recording_now() -> bool:
    return _recorder is not None


def _output(data: dict, metadata: dict | None = None) -> None:
    _recorder.cell.append({"output_type": "display_data", "data": data, "metadata": metadata or {}})


def _bundle(value, markdown: bool) -> dict:
    """The formats a kernel records of `value`: text/markdown for Markdown, a Styler's or a
    DataFrame's HTML beside its repr, a figure (drawn later), else its repr."""
    if markdown:
        return {"text/markdown": value, "text/plain": "<IPython.core.display.Markdown object>"}
    if hasattr(value, "savefig"):
        return {FIGURE: value, "text/plain": repr(value)}
    data = {"text/plain": repr(value)}
    html = getattr(value, "_repr_html_", None)
    if html is not None:
        data["text/html"] = html()
    return data


def glue(name: str, value, markdown: bool = False) -> None:
    """Glue `value` under `name`, hidden (`{glue:text}`, `{glue:md}` with `markdown`, `{glue:figure}`)."""
    if _recorder is None:
        from myst_nb import glue as myst_glue

        if markdown:
            from IPython.display import Markdown

            value = Markdown(value)
        myst_glue(name, value, display=False)
        return
    data = {GLUE_PREFIX + k: v for k, v in _bundle(value, markdown).items()}
    _output(data, {"scrapbook": {"name": name, "mime_prefix": GLUE_PREFIX}})


def display(value, markdown: bool = False) -> None:
    """Show `value` where the cell stands: a table, or Markdown with `markdown`."""
    if _recorder is None:
        from IPython.display import Markdown
        from IPython.display import display as ipy_display

        ipy_display(Markdown(value) if markdown else value)
        return
    _output(_bundle(value, markdown))


def display_raw(data: dict) -> None:
    """Emit `data` (mime type -> value) as one output, as IPython's `display(data, raw=True)`."""
    if _recorder is None:
        from IPython.display import display as ipy_display

        ipy_display(data, raw=True)
        return
    _output(dict(data))


def draw(nb: dict) -> None:
    """Draw each figure the cells left waiting, in place, as `plotting.glue_figure` draws a glued one
    for a kernel: made ready for the page (`plotting.finish`), then the SVG a kernel records (`svg`)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from benchbook.presentation.plotting import finish

    for cell in nb["cells"]:
        for out in cell.get("outputs", []) if cell["cell_type"] == "code" else []:
            data = out.get("data", {})
            for key in [k for k in data if k.endswith(FIGURE)]:
                fig = data.pop(key)
                if not hasattr(fig.canvas, "get_renderer"):  # closed (`glue_figure`): the inline backend's Agg
                    FigureCanvasAgg(fig)
                if key.startswith(GLUE_PREFIX):  # a figure left open is shown as drawn, as by the inline backend
                    finish(fig)
                data[key.removesuffix(FIGURE) + "image/svg+xml"] = svg(fig)


def svg(fig) -> str:
    """A figure as a kernel's inline backend draws it for the book (`plotting.use_theme`): SVG, the
    tight box, no date, the figure's own colours and resolution."""
    buf = io.BytesIO()
    fig.canvas.print_figure(
        buf,
        format="svg",
        bbox_inches="tight",
        metadata={"Date": None},
        facecolor=fig.get_facecolor(),
        edgecolor=fig.get_edgecolor(),
        dpi=fig.dpi,
    )
    return buf.getvalue().decode("utf-8")
