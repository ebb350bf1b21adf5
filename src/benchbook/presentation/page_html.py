"""An executed chapter notebook as one self-contained HTML page, without Sphinx: the report's pages.

The chapter's own MyST text is the page's prose (teachers edit the notebook, nothing here repeats
it), read with markdown-it and the MyST syntax the chapters use: `{glue:text}`, `{glue:md}` and
`{glue:figure}` filled from the cells' glued outputs as myst-nb fills them, `{doc}` (a link where
the page is in the report, else its title), `{term}` (a link to the glossary at the page's foot,
which holds the terms the page uses), admonitions (a `dropdown` one folded as `<details>`), `{rubric}`, the
parameters cell as the run's parameters, and each cell's shown outputs (tables as their HTML,
figures as inline SVG, Markdown) where the cell stands. A role or directive the book does not use
is refused (`PageError`), never printed raw.
"""

from __future__ import annotations

import base64
import html
import re
from ast import literal_eval
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.myst_role import myst_role_plugin

from benchbook import declarations
from benchbook.presentation import outputs, tables
from benchbook.presentation.sphinx_book import CSS as BOOK_CSS


class PageError(ValueError):
    """The page uses MyST this renderer does not know, said in one sentence."""


#: What myst-nb shows of an output with several formats, first found first (its HTML priority).
PRIORITY = ("text/html", "image/svg+xml", "image/png", "image/jpeg", "text/markdown", "text/plain")
ADMONITIONS = {"admonition", "note", "tip", "hint", "important", "warning", "caution", "attention", "danger", "error"}

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.6; color: #222;
  margin: 0; }
main { max-width: 52rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
nav.benchbook-nav { max-width: 52rem; margin: 0 auto; padding: 0.6rem 1.5rem; font-size: 0.9em; }
a { color: #0a7d91; }
code { font-size: 0.9em; background: #f3f4f5; padding: 0 0.2em; border-radius: 3px; }
pre { background: #f6f8fa; padding: 0.6em 0.8em; overflow-x: auto; font-size: 0.85em; line-height: 1.4; }
pre code { background: none; padding: 0; font-size: 1em; }
pre.cell_input { white-space: pre-wrap; overflow-wrap: anywhere; }
div.admonition, details.admonition { border-left: 0.2rem solid #0a7d91; background: #f7fbfc;
  padding: 0.4em 1em; margin: 1em 0; }
div.admonition.tip { border-color: #009E73; background: #f4fbf8; }
p.admonition-title, details.admonition > summary { font-weight: 600; margin: 0.3em 0; }
details.admonition > summary { cursor: pointer; }
figure { margin: 1.5em 0; }
figure img { width: 100%; height: auto; }  /* figures fill the text column, as in the book */
figcaption { font-size: 0.9em; color: #444; }
table { border-collapse: collapse; margin: 0.8em 0; }
td, th { border-bottom: 1px solid #ddd; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
.cell_output { overflow-x: auto; }
table.benchbook-table.benchbook-whole-headers th { overflow-wrap: normal; }
dl.glossary dt { font-weight: 600; margin-top: 0.6em; }
"""

_ROLE_TARGET = re.compile(r"^(.*?)\s*<([^<>]+)>$", re.S)


@dataclass
class Context:
    """What a page's roles and directives are filled from: the glued outputs by name, the report's
    chapters (name -> title: `{doc}` links to them), the glossary (term -> definition) and the
    terms the page used (`{term}`), for the glossary at its foot."""

    glued: dict[str, dict]
    chapters: dict[str, str] = field(default_factory=dict)
    glossary: dict[str, str] = field(default_factory=dict)
    used: dict[str, str] = field(default_factory=dict)


def _parser() -> MarkdownIt:
    """MyST as the book's configuration enables it: CommonMark with tables, colon fences,
    definition lists and roles; quotes made curly (`smartquotes_action: qe`)."""
    md = MarkdownIt("commonmark", {"typographer": True}).enable(["table", "smartquotes"])
    md.use(colon_fence_plugin).use(deflist_plugin).use(myst_role_plugin).use(anchors_plugin, max_level=3)
    md.add_render_rule("myst_role", _role)
    md.add_render_rule("fence", _directive)
    md.add_render_rule("colon_fence", _directive)
    return md


def glued_value(data: dict) -> dict:
    """A glued output's formats without myst-nb's prefix."""
    return {k.removeprefix(outputs.GLUE_PREFIX): v for k, v in data.items()}


def glued(nb: dict) -> dict[str, dict]:
    """Every value the notebook's cells glued, by name (the last gluing wins, as in myst-nb)."""
    found = {}
    for cell in nb["cells"]:
        for out in cell.get("outputs", []) if cell["cell_type"] == "code" else []:
            name = (out.get("metadata") or {}).get("scrapbook", {}).get("name")
            if name:
                found[name] = glued_value(out.get("data", {}))
    return found


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def plain_text(value: dict, spec: str = "") -> str:
    """`{glue:text}`: the value's text/plain, its quotes removed and `spec` applied, as myst-nb's
    `format_plain_text` does."""
    text = _text(value.get("text/plain", ""))
    try:
        v = literal_eval(text)
    except (SyntaxError, ValueError):
        v = text
    if not spec:
        return str(v)
    kind = spec[-1]
    if kind == "s":
        v = str(v)
    elif kind in "bcdoxX":
        v = int(v)
    elif kind in "eEfFgGn%":
        v = float(v)
    return format(v, spec)


def _target(content: str) -> tuple[str, str]:
    m = _ROLE_TARGET.match(content.strip())
    return (m.group(1), m.group(2)) if m else (content.strip(), content.strip())


def term_id(term: str) -> str:
    return "term-" + re.sub(r"[^A-Za-z0-9]+", "-", term).strip("-")


def _role(self, tokens, idx, options, env) -> str:
    tok = tokens[idx]
    name, content = tok.meta["name"], tok.content
    ctx: Context = env["context"]
    if name in ("glue:text", "glue:md", "glue"):
        key, _, spec = content.partition(":")
        value = ctx.glued.get(key.strip())
        if value is None:  # nothing glued under the name: nothing shown, as myst-nb shows it
            return ""
        if name == "glue:md" and "text/markdown" in value:
            return COMMONMARK.renderInline(_text(value["text/markdown"]))
        return html.escape(plain_text(value, spec if name == "glue:text" else ""))
    if name == "doc":
        title, target = _target(content)
        doc = target.rsplit("/", 1)[-1]
        if doc in ctx.chapters:
            shown = ctx.chapters[doc] if title == target else title
            return f'<a class="reference internal" href="{html.escape(doc)}.html">{html.escape(shown)}</a>'
        if title == target and doc in declarations.BY_NAME:  # as Sphinx shows a bare {doc}: the page's title
            title = declarations.chapter(doc).title
        return f'<span class="xref std std-doc">{html.escape(title)}</span>'
    if name == "term":
        title, target = _target(content)
        key = next((t for t in ctx.glossary if t.lower() == target.lower()), None)
        if key is None:
            raise PageError(f"the glossary has no term {target!r}")
        ctx.used[key] = ctx.glossary[key]
        return f'<a class="reference internal" href="#{term_id(key)}">{html.escape(title)}</a>'
    raise PageError(f"the role {{{name}}} is not one the book's pages use")


def _options(content: str) -> tuple[dict, str]:
    """A directive's `:key: value` lines, and its body after them."""
    opts, lines = {}, content.splitlines(keepends=True)
    while lines and (m := re.match(r"^:([\w-]+):\s*(.*)$", lines[0].rstrip("\n"))):
        opts[m.group(1)] = m.group(2).strip()
        lines.pop(0)
    return opts, "".join(lines).lstrip("\n")


def _directive(self, tokens, idx, options, env) -> str:
    tok = tokens[idx]
    info = tok.info.strip()
    m = re.match(r"^\{([\w:-]+)\}\s*(.*)$", info)
    if not m:  # a plain code block
        return f"<pre><code>{html.escape(tok.content)}</code></pre>\n"
    name, arg = m.group(1), m.group(2).strip()
    opts, body = _options(tok.content)
    ctx: Context = env["context"]
    if name in ADMONITIONS:
        classes = opts.get("class", "").split()
        title = MYST.renderInline(arg, env) if arg else name.capitalize()
        inner = MYST.render(body, env)
        kinds = " ".join(c for c in (name if name != "admonition" else "", *classes) if c)
        if "dropdown" in classes:
            return f'<details class="admonition {kinds}"><summary>{title}</summary>\n{inner}</details>\n'
        return f'<div class="admonition {kinds}">\n<p class="admonition-title">{title}</p>\n{inner}</div>\n'
    if name == "rubric":  # a heading outside the page's outline, as Sphinx writes it
        return f'<p class="rubric">{MYST.renderInline(arg, env)}</p>\n'
    if name == "glue:md":
        value = ctx.glued.get(arg)
        if value is None:
            return ""
        text = _text(value.get("text/markdown", plain_text(value)))
        return MYST.render(text, env) if opts.get("format") == "myst" else COMMONMARK.render(text)
    if name == "glue:figure":
        value = ctx.glued.get(arg)
        if value is None:
            return ""
        anchor = f' id="{html.escape(opts["name"])}"' if "name" in opts else ""
        caption = f"<figcaption>\n{MYST.render(body, env)}</figcaption>\n" if body.strip() else ""
        return f"<figure{anchor}>\n{image(value)}\n{caption}</figure>\n"
    raise PageError(f"the directive {{{name}}} is not one the book's pages use")


def image(value: dict) -> str:
    """A figure output as an inline image (none for a figure left undrawn: `outputs.draw`)."""
    if "image/svg+xml" in value:
        svg = _text(value["image/svg+xml"])
    else:
        for mime in ("image/png", "image/jpeg"):
            if mime in value:
                return f'<img alt="" src="data:{mime};base64,{_text(value[mime]).strip()}"/>'
        return ""
    return f'<img alt="" src="data:image/svg+xml;base64,{base64.b64encode(svg.encode()).decode()}"/>'


def output_html(out: dict, env: dict) -> str:
    """One cell output as the page shows it (nothing for a glued value: the prose places those)."""
    kind = out.get("output_type")
    if kind == "stream":
        return f'<pre class="output stream {out.get("name", "")}">{html.escape(_text(out.get("text", "")))}</pre>\n'
    if kind == "error":
        return f'<pre class="output error">{html.escape(out.get("ename", ""))}: {html.escape(out.get("evalue", ""))}</pre>\n'
    if (out.get("metadata") or {}).get("scrapbook"):
        return ""
    data = out.get("data", {})
    mime = next((m for m in PRIORITY if m in data), None)
    if mime is None:  # a record for the tests or the ledger: not shown
        return ""
    if mime in ("image/svg+xml", "image/png", "image/jpeg"):
        return image(data) + "\n"
    if mime == "text/html":
        return _text(data[mime]) + "\n"
    if mime == "text/markdown":
        return COMMONMARK.render(_text(data[mime]))
    return f'<pre class="output text_plain">{html.escape(_text(data[mime]))}</pre>\n'


def _merged(outs: list) -> list:
    """Consecutive writes to one stream as one output (`nb_merge_streams`)."""
    merged = []
    for o in outs:
        if o.get("output_type") == "stream" and merged and merged[-1].get("output_type") == "stream":
            if merged[-1].get("name") == o.get("name"):
                merged[-1] = {**merged[-1], "text": _text(merged[-1]["text"]) + _text(o.get("text", ""))}
                continue
        merged.append(o)
    return merged


def cell_html(cell: dict, env: dict) -> str:
    """A code cell as the book shows it by its tags: the parameters cell's code, the outputs of a
    `remove-input` cell, nothing of a `remove-cell` one."""
    tags = (cell.get("metadata") or {}).get("tags", [])
    if "remove-cell" in tags:
        return ""
    parts = []
    if "remove-input" not in tags:
        parts.append(f'<pre class="cell_input"><code>{html.escape(_text(cell.get("source", "")))}</code></pre>\n')
    if "remove-output" not in tags:
        parts += [output_html(o, env) for o in _merged(cell.get("outputs", []))]
    body = "".join(p for p in parts if p)
    if not body:
        return ""
    kinds = " ".join(["cell", *(f"tag_{t}" for t in tags)])
    return f'<div class="{kinds}">\n{body}</div>\n'


def read_glossary(markdown: str) -> dict[str, str]:
    """The terms of the book's glossary page (its `{glossary}` block): term -> definition."""
    m = re.search(r"```\{glossary\}\n(.*?)^```", markdown, re.S | re.M)
    terms: dict[str, str] = {}
    term = None
    for line in (m.group(1) if m else "").splitlines():
        if line.strip() and not line[0].isspace():
            term = line.strip()
            terms[term] = ""
        elif term is not None and line.strip():
            terms[term] = (terms[term] + " " + line.strip()).strip()
    return terms


def _glossary_html(ctx: Context, env: dict) -> str:
    if not ctx.used:
        return ""
    items = "".join(
        f'<dt id="{term_id(t)}">{html.escape(t)}</dt><dd>{MYST.renderInline(d, env)}</dd>\n'
        for t, d in sorted(ctx.used.items(), key=lambda kv: kv[0].lower())
    )
    return f'<section id="glossary">\n<h2>Glossary</h2>\n<dl class="glossary">\n{items}</dl>\n</section>\n'


def body(nb: dict, ctx: Context) -> str:
    """The page's article: each cell in order, markdown through MyST, code cells by their tags."""
    env = {"context": ctx}
    parts = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            parts.append(MYST.render(_text(cell["source"]), env))
        elif cell["cell_type"] == "code":
            parts.append(cell_html(cell, env))
    parts.append(_glossary_html(ctx, env))
    return "".join(parts)


#: The characters of header words this page's text column holds side by side: `tables.HEADER_CHARS`
#: is the book's column (about 700 px); this page's is `main`'s 52rem less its padding, 784 px.
HEADER_CHARS = tables.HEADER_CHARS * 784 // 700
_TABLE = re.compile(r'<table\b[^>]*class="dataframe benchbook-table"[^>]*>.*?</table>', re.S)
_COLUMN_HEADING = re.compile(r'<th\b[^>]*class="col_heading level0[^"]*"[^>]*>(.*?)</th>', re.S)


def whole_headers(article: str) -> str:
    """Each table whose header words fit this page's column side by side marked to wrap its headers
    between words only (`tables.header_fits` decides by the book's column, narrower than this one:
    there a header may break anywhere, "dtyp / e", where this page has room for it whole)."""

    def one(m: re.Match) -> str:
        heads = [html.unescape(re.sub(r"<[^>]*>", "", h)) for h in _COLUMN_HEADING.findall(m.group(0))]
        if not heads or not tables.header_fits(heads, HEADER_CHARS):
            return m.group(0)
        return m.group(0).replace(
            'class="dataframe benchbook-table"', 'class="dataframe benchbook-table benchbook-whole-headers"', 1
        )

    return _TABLE.sub(one, article)


def document(title: str, article: str, nav: str = "") -> str:
    """A whole page: its own styles (no file beside it, nothing fetched), a line of links, the article."""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8"/>\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1"/>\n'
        f"<title>{html.escape(title)}</title>\n<style>{CSS}{BOOK_CSS}</style>\n</head>\n<body>\n"
        + (f'<nav class="benchbook-nav">{nav}</nav>\n' if nav else "")
        + f'<main>\n<article class="bd-article">\n{article}</article>\n</main>\n</body>\n</html>\n'
    )


def page(nb: dict, title: str, chapters: dict[str, str], glossary: dict[str, str], nav: str = "") -> str:
    """The executed notebook `nb` as one HTML page titled `title`."""
    return document(title, whole_headers(body(nb, Context(glued(nb), chapters, glossary))), nav)


def markdown_page(title: str, markdown: str, nav: str = "") -> str:
    """A page of MyST text with no cells (the report's index)."""
    return document(title, MYST.render(markdown, {"context": Context({})}), nav)


#: The chapters' MyST (its rules are the functions above).
MYST = _parser()
#: A glued value with no `:format: myst` is CommonMark, as myst-nb renders it (no roles, no directives).
COMMONMARK = MarkdownIt("commonmark")
