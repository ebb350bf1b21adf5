"""Where a chapter's glued values and displays go: the one door its code shows things through.

In a kernel or the report's old IPython shell they go through myst-nb's `glue` and IPython's
`display`, as a notebook records them. While `recording` (a chapter's cells run in plain Python,
`executor.run_plain`), the same calls append the same outputs (mime bundles, the glue's
papermill prefix and scrapbook name) to the cell being run, with no IPython or myst-nb imported.
A figure is kept as the figure, and drawn (made readable, then SVG) by a `Drawing`, which the
executor starts after the cell that glued it (on the second core) and finishes at the end of the
chapter's run, in the chapter's settings.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator

#: myst-nb's prefix of a glued value's formats (`myst_nb.ext.glue.GLUE_PREFIX`).
GLUE_PREFIX = "application/papermill.record/"
#: The kind of output a figure waiting to be drawn is held in, until `svg` draws it.
FIGURE = "application/vnd.benchbook.figure"


class Recorder:
    """The outputs of the cell being run (`cell`, a list a notebook cell holds as its outputs), and
    whether the figures glued will be drawn (`draws`: a test of a page's words leaves them undrawn)."""

    def __init__(self, draws: bool = True) -> None:
        self.cell: list = []
        self.draws = draws


_recorder: Recorder | None = None


@contextlib.contextmanager
def recording(draws: bool = True) -> Iterator[Recorder]:
    """Record, instead of display, what is glued or displayed inside the block; `draws` False where
    no figure glued there will be drawn."""
    global _recorder
    before, _recorder = _recorder, Recorder(draws)
    try:
        yield _recorder
    finally:
        _recorder = before


def recording_now() -> bool:
    return _recorder is not None


def figures_drawn() -> bool:
    """Whether a figure made now will be drawn: always, except inside a recording that draws none."""
    return _recorder is None or _recorder.draws


def _json_default(obj):
    """What the kernel's JSON packer makes of a value JSON lacks (numpy numbers, dates, bytes)."""
    import base64
    import datetime
    import numbers

    if isinstance(obj, numbers.Integral):
        return int(obj)
    if isinstance(obj, numbers.Real):
        return float(obj)
    if isinstance(obj, bytes):
        return base64.b64encode(obj).decode("ascii")
    if isinstance(obj, (datetime.date, datetime.datetime)):
        return obj.isoformat()
    raise TypeError(f"{type(obj).__name__} is not JSON serializable")


def _wire(value):
    """`value` as it arrives from a kernel: through JSON."""
    return json.loads(json.dumps(value, default=_json_default))


def _output(data: dict, metadata: dict | None = None) -> None:
    """Append an output to the cell being run, its values as a kernel's JSON carries them (a figure
    waiting to be drawn kept as it is)."""
    figure = {k: data.pop(k) for k in [k for k in data if k.endswith(FIGURE)]}
    out = {"output_type": "display_data", "data": _wire(data) | figure, "metadata": _wire(metadata or {})}
    _recorder.cell.append(out)


def _bundle(value, markdown: bool) -> dict:
    """The formats a kernel records of `value`: text/markdown for Markdown, a Styler's or a
    DataFrame's HTML beside its repr, a figure (drawn later), else its repr."""
    if markdown:
        return {"text/markdown": value, "text/plain": "<IPython.core.display.Markdown object>"}
    if hasattr(value, "savefig"):
        return {FIGURE: value, "text/plain": repr(value)}
    if type(value).__module__ == "numpy" and hasattr(value, "item"):  # a plain number, as `chapter.setup` shows it
        value = value.item()
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
    """Show `value` where the cell stands: a table, or Markdown with `markdown`. A table with no rows
    is not shown, as a figure with no data is not drawn: its header alone says nothing, and the page's
    sentence before it says why it is empty (a report on a file the chapter read no row of showed five
    bare headers)."""
    if not markdown and _no_rows(value):
        return
    if _recorder is None:
        from IPython.display import Markdown
        from IPython.display import display as ipy_display

        ipy_display(Markdown(value) if markdown else value)
        return
    _output(_bundle(value, markdown))


def _no_rows(value) -> bool:
    """Whether `value` is a table (a DataFrame, or a Styler of one) with no rows."""
    frame = getattr(value, "data", value)
    return hasattr(frame, "columns") and hasattr(frame, "shape") and frame.shape[0] == 0


def display_raw(data: dict) -> None:
    """Emit `data` (mime type -> value) as one output, as IPython's `display(data, raw=True)`."""
    if _recorder is None:
        from IPython.display import display as ipy_display

        ipy_display(data, raw=True)
        return
    _output(dict(data))


def _waiting(nb: dict) -> list[tuple[dict, str]]:
    """(output data, key) of each figure the cells left waiting to be drawn, in the page's order."""
    return [
        (data, key)
        for cell in nb["cells"]
        for out in (cell.get("outputs", []) if cell["cell_type"] == "code" else [])
        for data in [out.get("data", {})]
        for key in [k for k in data if k.endswith(FIGURE)]
    ]


class Drawing:
    """A chapter's figures, each drawn in place as `plotting.glue_figure` draws a glued one for a
    kernel: made ready for the page (`plotting.finish`), then the SVG a kernel records (`svg`).

    With `workers` 2, `start` forks a copy of this process as soon as the cells have left figures
    waiting (the executor calls it after each cell), where a core is free (`forked.take`: in a
    report, one no other process of it uses): the copy draws them on that core while this process
    runs the chapter's remaining cells (its tables), and `finish` then draws with it, each taking
    the next figure not yet taken (`forked.Shared`). `finish` draws the figures left one by one
    here, forking a copy for the rest as soon as a core is free (another chapter's process ended
    its work)."""

    def __init__(self, nb: dict, workers: int = 1) -> None:
        self.nb, self.workers = nb, workers
        self.queued: list[tuple[dict, str]] = []
        self.shared = None

    def start(self, least: int = 1) -> None:
        """Start drawing the figures waiting now in a forked copy, where two workers may draw, at
        least `least` figures wait, a core is free, and no copy is drawing already."""
        from benchbook import forked

        if self.shared is not None or self.workers < 2 or not forked.can_fork():
            return
        waiting = _waiting(self.nb)
        if len(waiting) < least or not waiting or not forked.take():
            return
        import matplotlib.backends.backend_agg  # noqa: F401 - imported before the fork: the copy imports nothing
        import matplotlib.backends.backend_svg  # noqa: F401
        import matplotlib.text  # noqa: F401

        import benchbook.presentation.plotting  # noqa: F401

        figures = [(data[key], key) for data, key in waiting]
        self.queued = waiting
        self.shared = forked.Shared(len(figures), lambda i: _drawn(*figures[i]), copy=True)

    def cancel(self) -> None:
        """Stop the copy where the chapter failed and its figures are not wanted."""
        if self.shared is not None:
            self.shared.cancel()

    def finish(self) -> None:
        """Draw every figure still waiting, in place: with a copy where one is drawing or a core is
        free (`start`), else the next one here."""
        while True:
            self.start(least=2)  # once the cells are done, a copy for one figure would only race this process for it
            if self.shared is not None:
                drawn = self.shared.results()
                for i, (data, key) in enumerate(self.queued):
                    data.pop(key)
                    data[key.removesuffix(FIGURE) + "image/svg+xml"] = drawn[i]
                self.shared, self.queued = None, []
                continue
            waiting = _waiting(self.nb)
            if not waiting:
                return
            data, key = waiting[0]
            data[key.removesuffix(FIGURE) + "image/svg+xml"] = _drawn(data.pop(key), key)


def draw(nb: dict, workers: int = 1) -> None:
    """Draw each figure the cells left waiting, in place (`Drawing`), by `workers` processes."""
    Drawing(nb, workers).finish()


def _drawn(fig, key: str) -> str:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from benchbook.presentation.plotting import finish

    if not hasattr(fig.canvas, "get_renderer"):  # closed (`glue_figure`): the inline backend's Agg
        FigureCanvasAgg(fig)
    box = None
    if key.startswith(GLUE_PREFIX):  # a figure left open is shown as drawn, as by the inline backend
        box = finish(fig)
    return svg(fig, box)


def svg(fig, box=None) -> str:
    """A figure as a kernel's inline backend draws it for the book (`plotting.use_theme`): SVG, the
    tight box, no date, the figure's own colours and resolution. `box`: that tight box, as
    `saved_box` measured it of the figure as it stands (`plotting.finish` hands it on), saved
    without computing it again: the same bytes, a third less work.

    `print_figure(bbox_inches="tight")` draws a figure twice: first with its drawing switched off, to
    lay it out before it measures the tight box, then to print it. The tight box lays out what it
    measures itself (ticks, tick labels, axis labels, titles, legends), so where no layout engine
    moves the axes at a draw (`plotting._moves_when_drawn`) the first draw changes nothing and is
    skipped: the same bytes (tests/presentation/test_svg.py holds them to matplotlib's own print),
    a quarter less work. Where the print did not draw twice, it is printed again as it stands."""
    from benchbook.presentation.plotting import _moves_when_drawn

    if _moves_when_drawn(fig):  # laid out again by its engine at the print: its box is the print's
        return _printed(fig)
    if box is not None and fig.get_layout_engine() is None:  # a given box and no engine: one draw, the print
        return _printed(fig, box=box)
    draws: list = []
    text = _printed(fig, draws, box)
    if len(draws) == 2:  # the layout draw skipped, the print drawn
        return text
    return _printed(fig, box=box)


class _Boxed(Exception):
    """A print stopped where matplotlib has computed the box it saves (the exception's argument)."""


def saved_box(fig):
    """The box (inches, its padding included) that `svg` saves of `fig` as it now stands: matplotlib's
    own tight print of it, stopped where it has computed that box, before anything is drawn (its
    layout draw, with drawing off, skipped, as `svg` skips it: the figure is measured as laid out).
    `plotting.readable` measures a figure's width as saved with it, and `svg` then saves that box
    without computing it again: one tight box per figure, where the two computed one each."""
    from matplotlib import _tight_bbox

    adjust = _tight_bbox.adjust_bbox

    def stop(fig, bbox_inches, *args, **kwargs):
        raise _Boxed(bbox_inches)

    _tight_bbox.adjust_bbox = stop
    try:
        _printed(fig, [])
    except _Boxed as boxed:
        return boxed.args[0]
    finally:
        _tight_bbox.adjust_bbox = adjust
    raise RuntimeError("matplotlib's print saved no tight box")


def _printed(fig, draws: list | None = None, box=None) -> str:
    """The SVG as `svg` prints it, of `box` (inches) or else the tight box; with `draws`, the first
    draw of the figure is skipped and each draw's renderer appended to `draws`."""
    buf = io.BytesIO()
    own = fig.__dict__.get("draw")
    if draws is not None:

        def draw(renderer, draw=fig.draw):
            draws.append(renderer)
            if len(draws) > 1:
                draw(renderer)

        fig.draw = draw
    try:
        fig.canvas.print_figure(
            buf,
            format="svg",
            bbox_inches="tight" if box is None else box,
            metadata={"Date": None},
            facecolor=fig.get_facecolor(),
            edgecolor=fig.get_edgecolor(),
            dpi=fig.dpi,
        )
    finally:
        if draws is not None:
            if own is None:
                del fig.draw
            else:
                fig.draw = own
    return buf.getvalue().decode("utf-8")
