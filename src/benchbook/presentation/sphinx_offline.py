"""A Sphinx extension for a book that reads offline: no live-code (thebe) scripts on any page.

jupyter-book 1.x always loads sphinx-thebe, which puts a CDN address and its loader on every page
(twice, which also logs a console error), even with launch buttons off. This book runs nothing in
the browser, so the extension removes those listeners before any page is written.
"""

from __future__ import annotations


def _drop_thebe(app) -> None:
    for event, listeners in app.events.listeners.items():
        keep = [x for x in listeners if not getattr(x.handler, "__module__", "").startswith("sphinx_thebe")]
        if event != "builder-inited":
            listeners[:] = keep
        else:  # keep its static path: its CSS is still linked by the theme
            listeners[:] = [x for x in listeners if x in keep or x.handler.__name__ == "st_static_path"]


def setup(app):
    app.connect("builder-inited", _drop_thebe, priority=100)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
