"""A reader's re-run page, rendered by the same engine as the book: jupyter-book (Sphinx, myst-nb,
the book's theme and configuration) on a one-chapter book holding the executed notebook and the
glossary its terms link to. Directives, glue, dropdown solutions and tables therefore read exactly
as in the published chapter.

The result is `OUT/<chapter>.html` with its figures embedded, and the theme's files beside it in
`OUT/<chapter>_files/`; nothing is fetched from the network.
"""

from __future__ import annotations

import base64
import html
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import yaml

from benchbook import config, declarations


class PageError(RuntimeError):
    """The page could not be rendered, said in one sentence."""


def _book(executed: Path, chapter: str, title: str, root: Path) -> None:
    cfg = yaml.safe_load((config.PROJ_ROOT / "_config.yml").read_text(encoding="utf-8"))
    cfg["title"] = title
    cfg["only_build_toc_files"] = True
    cfg["exclude_patterns"] = ["_build/*", "**/.ipynb_checkpoints"]
    (root / "_config.yml").write_text(yaml.safe_dump(cfg, sort_keys=False), encoding="utf-8")
    toc = {"format": "jb-book", "root": chapter, "chapters": [{"file": "glossary"}]}
    (root / "_toc.yml").write_text(yaml.safe_dump(toc, sort_keys=False), encoding="utf-8")
    shutil.copy(config.BOOK_DIR / "glossary.md", root / "glossary.md")
    (root / f"{chapter}.ipynb").write_text(titled_links(executed.read_text(encoding="utf-8")), encoding="utf-8")


#: A bare `{doc}` role naming a page by its file (`` {doc}`bandwidth_roofline` ``), its target in group 1.
_BARE_DOC = re.compile(r"\{doc\}`([^`<>]+)`")


def titled_links(notebook: str) -> str:
    """The notebook's JSON text with each bare `{doc}` to another chapter given that chapter's title.
    Sphinx shows a bare link by the title of the page it finds; on a one-chapter book the other
    chapters are not there, and it would print the file name (`bandwidth_roofline`) where the book
    and the report print the title."""

    def one(m: re.Match) -> str:
        doc = m.group(1).strip().rsplit("/", 1)[-1]
        if doc not in declarations.BY_NAME:
            return m.group(0)
        title = json.dumps(declarations.chapter(doc).title)[1:-1]  # the notebook's JSON holds it
        return f"{{doc}}`{title} <{m.group(1).strip()}>`"

    return _BARE_DOC.sub(one, notebook)


_URL_ATTR = re.compile(r'(\b(?:href|src)=")(?!https?:|#|data:|mailto:|javascript:|/)([^"]*)"')


def _embed_images(page: str, site: Path) -> str:
    def one(m: re.Match) -> str:
        path = site / html.unescape(m.group(2)).split("?")[0]
        if m.group(1).startswith("src") and path.suffix.lower() in (".png", ".jpg", ".jpeg", ".svg") and path.is_file():
            mime = "image/svg+xml" if path.suffix.lower() == ".svg" else f"image/{path.suffix.lower().lstrip('.')}"
            return (
                f'{m.group(1)}data:{mime.replace("jpg", "jpeg")};base64,{base64.b64encode(path.read_bytes()).decode()}"'
            )
        return m.group(0)

    return _URL_ATTR.sub(one, page)


def _import_engine() -> None:
    """Import jupyter-book and every Sphinx extension the book's configuration loads (myst-nb's
    pulls in jupyter-cache and SQLAlchemy): about half of a one-page build's CPU on a fresh process."""
    import importlib

    import jupyter_book.sphinx  # noqa: F401
    from jupyter_book.config import get_final_config

    cfg = yaml.safe_load((config.PROJ_ROOT / "_config.yml").read_text(encoding="utf-8"))
    final, _ = get_final_config(user_yaml=cfg, cli_config={"latex_individualpages": False}, sourcedir=config.PROJ_ROOT)
    for name in [*final.get("extensions", []), final.get("html_theme"), "myst_nb.sphinx_ext", "sphinx.builders.html"]:
        if name:
            importlib.import_module(name)


def warm_engine():
    """Import the book's engine in a background thread (returned, started), while a kernel
    executes the chapter: the render that follows then starts with its imports made. A failure
    here is left for `build_html` to report."""
    import threading

    def load():
        try:
            _import_engine()
        except Exception:  # reported, if it persists, by build_html
            pass

    t = threading.Thread(target=load, daemon=True)
    t.start()
    return t


def build_html(root: Path) -> Path:
    """Build the jupyter-book project in `root` in this process (no second Python to start and no
    `jupyter-book` script needed beside the interpreter); returns its html folder. Sphinx's output
    is kept and its last line given in the PageError when the build fails."""
    import contextlib
    import io

    from jupyter_book.sphinx import build_sphinx

    site = root / "_build" / "html"
    log = io.StringIO()
    with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
        code = build_sphinx(
            str(root),
            str(site),
            noconfig=True,
            path_config=str(root / "_config.yml"),
            confoverrides={"latex_individualpages": False},
            builder="html",
            quiet=True,
        )
    if code != 0 or not site.is_dir():
        last = (log.getvalue().strip().splitlines() or ["no output"])[-1]
        raise PageError(f"the page could not be rendered ({last[:200]})")
    return site


def render(executed: Path, out: Path, title: str, banner: str = "") -> Path:
    """Render `executed` (an executed chapter notebook) to `out` (an .html path), with `banner`
    (HTML) above the chapter; returns `out`."""
    chapter = out.stem
    with tempfile.TemporaryDirectory(prefix="benchbook-page-") as tmp:
        root = Path(tmp)
        _book(executed, chapter, title, root)
        try:
            site = build_html(root)
        except PageError as exc:
            raise PageError(f"{chapter}: {exc}") from None
        page_path = site / f"{chapter}.html"
        if not page_path.is_file():
            raise PageError(f"{chapter}: the page could not be rendered (no {chapter}.html written)")
        page = page_path.read_text(encoding="utf-8")
        page = _embed_images(page, site)
        assets = f"{chapter}_files"
        page = _URL_ATTR.sub(lambda m: f'{m.group(1)}{assets}/{m.group(2)}"', page)
        if banner:
            page = re.sub(r"(<article[^>]*>)", lambda m: m.group(1) + banner, page, count=1)
        page = page.replace(str(root), ".")
        target = out.parent / assets
        staging = Path(tempfile.mkdtemp(prefix=f".{assets}-", dir=out.parent))
        try:
            for keep in ("_static", "_sources", "glossary.html", "genindex.html", "search.html", "searchindex.js"):
                src = site / keep
                if src.is_dir():
                    shutil.move(src, staging / keep)  # a rename on one file system; the site is thrown away
                elif keep.endswith(".html"):
                    # these pages now live one folder below the chapter's page: point their links up to it
                    text = src.read_text(encoding="utf-8").replace(f'href="{chapter}.html', f'href="../{chapter}.html')
                    (staging / keep).write_text(text, encoding="utf-8")
                elif src.is_file():
                    shutil.copy(src, staging / keep)
            if target.exists():
                shutil.rmtree(target)
            os.replace(staging, target)
        finally:
            if staging.exists():
                shutil.rmtree(staging, ignore_errors=True)
        fd, tmp_page = tempfile.mkstemp(suffix=".html", dir=out.parent, prefix=f".{chapter}-")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(page)
        os.chmod(tmp_page, 0o644)
        os.replace(tmp_page, out)
    return out
