"""A change to the book's Sphinx extension writes every page again (#34: the built book is what the
package makes). Sphinx re-reads only pages whose source changed, so after a stylesheet rule was
removed the lead's build kept it in four pages whose sources had not changed (the sources page's
`<wbr>` breaks); the extension's `env_version` follows its source, and Sphinx starts afresh when it
changes. The render stamp carries it too, so an unchanged tree is rendered again."""

from __future__ import annotations

import pytest

from benchbook import build, config
from benchbook.presentation import sphinx_book


def _sphinx(src, out):
    from sphinx.application import Sphinx

    app = Sphinx(str(src), str(src), str(out), str(out / ".doctrees"), "html", status=None, warning=None)
    app.build()


def test_the_version_follows_the_source():
    assert sphinx_book.version(b"a") != sphinx_book.version(b"b") and sphinx_book.version(b"a") > 0
    with open(sphinx_book.__file__, "rb") as f:
        assert sphinx_book.ENV_VERSION == sphinx_book.version(f.read())


def test_a_page_whose_source_did_not_change_is_written_again_only_when_the_extension_changed(tmp_path, monkeypatch):
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    (src / "conf.py").write_text('extensions = ["benchbook.presentation.sphinx_book"]\n')
    (src / "index.rst").write_text("Title\n=====\n\nA page.\n")
    _sphinx(src, out)
    page = out / "index.html"
    assert "A page." in page.read_text()
    page.write_text("as an older extension made it")
    _sphinx(src, out)  # the same extension: Sphinx leaves an unchanged page alone
    assert page.read_text() == "as an older extension made it"
    monkeypatch.setattr(sphinx_book, "ENV_VERSION", sphinx_book.ENV_VERSION + 1)
    _sphinx(src, out)
    assert "A page." in page.read_text()


@pytest.mark.parametrize("changed", [False, True])
def test_an_unchanged_tree_is_rendered_again_when_the_extension_changed(tmp_path, monkeypatch, changed):
    monkeypatch.setattr(config, "HTML_DIR", tmp_path / "html")
    monkeypatch.setattr(config, "CACHE_DIR", tmp_path / "cache")
    config.HTML_DIR.mkdir()
    config.CACHE_DIR.mkdir()
    (config.HTML_DIR / "index.html").write_text("built")
    (config.CACHE_DIR / "html.sha256").write_text(f"tree {sphinx_book.ENV_VERSION}")
    runs = []

    class Done:
        returncode = 0

    monkeypatch.setattr(build.subprocess, "run", lambda cmd, **kw: runs.append(cmd) or Done())
    if changed:
        monkeypatch.setattr(sphinx_book, "ENV_VERSION", sphinx_book.ENV_VERSION + 1)
    build.render("tree", log=lambda *_: None)
    assert bool(runs) == changed
    assert (config.CACHE_DIR / "html.sha256").read_text() == f"tree {sphinx_book.ENV_VERSION}"
