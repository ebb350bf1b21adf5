"""A Sphinx extension for the book's look on the page: glued text in the body's weight, figures at
the text column's width, folded tables and the bottom-line box; a code span in a book table is never
broken (`bench_one_ / batch_server` reads as two words), only after a hyphen between its parts as a
chapter table's names (`break_code_words`): a table too wide for the column scrolls sideways (the
theme's scroll box), as a chapter's tables do (`tables.SCROLL`).

myst-nb styles every glued passage bold (`span.pasted-text`), which turns the book's prose, made
of glued numbers and sentences, into walls of bold. The stylesheet is written by the extension
itself, so the book needs no static folder of its own.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

CSS_NAME = "benchbook.css"


def version(source: bytes) -> int:
    """A positive number that changes with the extension's source."""
    return int.from_bytes(hashlib.sha256(source).digest()[:4], "big") or 1


#: This extension's `env_version`: Sphinx discards its saved environment and writes every page again
#: when it changes, so a page whose source did not change is never left as an older extension made it
#: (the front page rewritten, the sources page still carrying the `<wbr>` breaks of a removed rule).
ENV_VERSION = version(Path(__file__).read_bytes())

CSS = """
/* glued numbers and sentences read as the prose around them */
span.pasted-text { font-weight: inherit; }
/* figures fill the text column (SVG scales without blur) */
figure img[src$=".svg"], .cell_output img[src$=".svg"] { width: 100%; height: auto; }
/* the answer first: the bottom-line box under a chapter's question */
div.admonition.bottom-line { border-left-width: 0.4rem; }
div.admonition.bottom-line ul { margin-bottom: 0; }
/* cells stay compact and prose wraps; a table whose names do not fit scrolls in its box (tables.SCROLL) */
table.benchbook-table { max-width: 100%; font-size: 0.85em; }
table.benchbook-table td, table.benchbook-table th { padding: 0.2em 0.4em; white-space: normal; }
/* a header or a book page's table breaks a long word rather than run past the column */
table.benchbook-table th { overflow-wrap: anywhere; }
article table.table td, article table.table th { overflow-wrap: break-word; }
article table.table { width: 100%; font-size: 0.9em; }
/* a name in a book page's table (a tool, a file, a chapter) is never cut ("inferenc / ex"): a code span wraps
   only at its spaces (Sphinx sets each word of it in its own span.pre), and a table too wide scrolls */
article table.table code { white-space: normal; }
article table.table span.pre { white-space: nowrap; }
/* a long table folds away under a one-line summary */
details.benchbook-fold { margin: 0.5em 0 1em; }
details.benchbook-fold > summary { cursor: pointer; color: var(--pst-color-link, #0a7d91); }
"""


#: A table in a page's HTML body, and a word of a code span in it (Sphinx sets each in its own span.pre).
TABLE = re.compile(r"<table\b.*?</table>", re.S)
PRE_WORD = re.compile(r'<span class="pre">([^<]+)</span>')


def break_code_words(body: str) -> str:
    """`body` with each code word in a table cut where a chapter table's name may break (`tables.name_parts`:
    after a hyphen between lettered parts, `text-generation-` / `benchmark`), each part still a span.pre
    kept on one line and a `<wbr>` between them; never at `_`, `.` or `/`. The sources page's tool column
    was as wide as `text-generation-benchmark` and made its table scroll at 1300 px. Code outside a table
    is left as it is."""
    from benchbook.presentation.tables import name_parts

    def word(m: re.Match) -> str:
        return "<wbr>".join(f'<span class="pre">{p}</span>' for p in name_parts(m[1]))

    return TABLE.sub(lambda t: PRE_WORD.sub(word, t[0]), body)


def _page(app, pagename, templatename, context, doctree) -> None:
    if "body" in context:
        context["body"] = break_code_words(context["body"])


def _write_css(app, exc) -> None:
    if exc is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static" / CSS_NAME
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.is_file() or target.read_text(encoding="utf-8") != CSS:
        target.write_text(CSS, encoding="utf-8")


def setup(app):
    app.add_css_file(CSS_NAME)
    app.connect("build-finished", _write_css)
    app.connect("html-page-context", _page)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": ENV_VERSION}
