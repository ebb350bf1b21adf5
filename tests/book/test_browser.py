"""The published book, tested as a reader sees it: built, served on localhost, opened in Chromium.

Every page loads with the network blocked, without console errors and without a failed request,
its figures are drawn, every internal link and anchor resolves, the search page finds things, and
no page shows a traceback, a machine path, stderr noise, a raw pandas table (a NaN/None cell, an
index column, "…" cells or a "rows × columns" footer), a script from the network or a link to a
repository that does not exist. A screenshot of every page (the whole page for a chapter) lands in
_build/screenshots/.

The book is built with `benchbook.build.build()` (cached by content, so cheap when up to date).
BENCHBOOK_TEST_HTML=<folder> tests an already-built site instead (for working on a partial book), or
the output folder of `benchbook run CHAPTER -o FOLDER` (its pages are the HTML files at the top).
"""

from __future__ import annotations

import functools
import html.parser
import http.server
import os
import re
import shutil
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from conftest import Prose, repeats

from benchbook import build, config

pytestmark = pytest.mark.browser

#: The chromium on PATH, as `make browser` looks for it (Debian's package puts it in /usr/bin).
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-gpu"]
#: Console errors known to be harmless: the theme's on a fresh profile (no stored theme preference).
KNOWN_CONSOLE_ERRORS = ("Got invalid theme mode",)
SHOTS = config.BUILD_DIR / "screenshots"


@pytest.fixture(scope="session")
def site() -> Path:
    given = os.environ.get("BENCHBOOK_TEST_HTML")
    if given:
        return config.resolve(given)
    try:
        index = build.build(log=lambda *_: None)
    except build.BuildError as exc:
        pytest.fail(f"the book does not build: {exc}")
    return index.parent


def _pages(site: Path) -> list[Path]:
    """The reader's pages: book/ and notebooks/ of the book (not the generated index pages); in a
    `benchbook run` folder, the chapter pages at its top."""
    if not (site / "notebooks").is_dir() and not (site / "book").is_dir():
        return sorted(site.glob("*.html"))
    return [p for p in sorted(site.rglob("*.html")) if p.relative_to(site).parts[0] in ("book", "notebooks")]


def _chapter(rel: str) -> str | None:
    """The chapter a page shows (its notebook's name), None for other pages."""
    if not rel.startswith("notebooks/") and "/" in rel:
        return None
    stem = Path(rel).stem
    return stem if (config.NOTEBOOKS_DIR / f"{stem}.md").is_file() else None


@pytest.fixture(scope="session")
def server(site):
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output clean
        pass


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` (Debian's chromium package)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _figure_expected(rel: str) -> bool:
    """A chapter page whose source glues a figure must show one."""
    name = _chapter(rel)
    return bool(name) and "{glue:figure}" in (config.NOTEBOOKS_DIR / f"{name}.md").read_text(encoding="utf-8")


def _local(url: str) -> bool:
    return urlsplit(url).hostname in ("127.0.0.1", "localhost", None)


def test_every_page_loads_clean_offline_with_its_figures(site, server, browser):
    """Each page with every request off localhost refused: none may be made, none may fail."""
    pages = _pages(site)
    assert pages, "no pages were built"
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    for path in pages:
        rel = path.relative_to(site).as_posix()
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        ctx.route("**/*", lambda route: route.continue_() if _local(route.request.url) else route.abort())
        page = ctx.new_page()
        errors, outside, failed = [], [], []
        page.on(
            "console",
            lambda m, errors=errors: (
                errors.append(m.text)
                if m.type == "error"
                and not any(k in m.text for k in KNOWN_CONSOLE_ERRORS)
                and not m.text.startswith("Failed to load resource")  # counted, with its URL, by "response"
                else None
            ),
        )
        page.on(
            "pageerror",
            lambda e, errors=errors: None if any(k in str(e) for k in KNOWN_CONSOLE_ERRORS) else errors.append(str(e)),
        )
        page.on(
            "response",
            lambda r, errors=errors: (
                errors.append(f"HTTP {r.status} {urlsplit(r.url).path}")
                if r.status >= 400 and not r.url.endswith("/favicon.ico")
                else None
            ),
        )
        page.on("request", lambda r, outside=outside: None if _local(r.url) else outside.append(r.url))
        page.on("requestfailed", lambda r, failed=failed: failed.append(f"{r.url} ({r.failure})"))
        resp = page.goto(f"{server}/{rel}", wait_until="load")
        page.wait_for_timeout(150)
        if resp is None or resp.status != 200:
            problems.append(f"{rel}: HTTP {resp.status if resp else 'no response'}")
        imgs = page.eval_on_selector_all(
            "main img, article img",
            "els => els.map(e => [e.getAttribute('alt') || e.src.slice(0, 40), e.complete, e.naturalWidth])",
        )
        broken = [a for a, done, w in imgs if not done or w == 0]
        if broken:
            problems.append(f"{rel}: empty or broken images {broken}")
        if _figure_expected(rel) and not [1 for _, _, w in imgs if w > 50]:
            problems.append(f"{rel}: the chapter glues figures but the page shows none")
        if errors:
            problems.append(f"{rel}: console errors {errors}")
        if outside:
            problems.append(f"{rel}: requests leaving localhost {sorted(set(outside))}")
        if failed:
            problems.append(f"{rel}: failed requests {sorted(set(failed))}")
        shot = SHOTS / (rel.replace("/", "__").removesuffix(".html") + ".png")
        page.screenshot(path=str(shot), full_page=bool(_chapter(rel)))
        ctx.close()
    assert not problems, "\n".join(problems)


def test_search_page_finds_roofline(site, server, browser):
    if not (site / "search.html").is_file():
        pytest.skip("a `benchbook run` folder has no search page of its own")
    page = browser.new_page()
    page.goto(f"{server}/search.html?q=roofline", wait_until="load")
    page.wait_for_selector("ul.search li", timeout=15000)
    hits = page.eval_on_selector_all("ul.search li a", "els => els.map(e => e.getAttribute('href'))")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "search_roofline.png"))
    page.close()
    assert hits, "searching 'roofline' found nothing"


class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()
        self.srcs: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.ids.add(a["name"])
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"])
        if tag == "img" and a.get("src"):
            self.srcs.append(a["src"])


@functools.cache
def _parse(path: Path) -> _Links:
    p = _Links()
    p.feed(path.read_text(encoding="utf-8", errors="replace"))
    return p


def test_internal_links_and_anchors_resolve(site):
    """Crawl every <a href> and <img src> that stays inside the site, from every page."""
    bad = []
    for path in sorted(site.rglob("*.html")):
        if "_static" in path.parts or "_sources" in path.parts:
            continue
        links = _parse(path)
        for href in links.hrefs + links.srcs:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:", "data:")):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            rel = path.relative_to(site).as_posix()
            if not target.exists():
                bad.append(f"{rel}: {href} (no such file)")
                continue
            if parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in _parse(target).ids:
                bad.append(f"{rel}: {href} (no anchor #{parts.fragment})")
    assert not bad, "\n".join(sorted(set(bad)))


def test_no_tracebacks_machine_paths_or_stderr(site, machine_path):
    bad = []
    for path in _pages(site) + [p for p in [site / "index.html"] if p.is_file()]:
        text = path.read_text(encoding="utf-8", errors="replace")
        rel = path.relative_to(site).as_posix()
        for what, pattern in (
            ("a traceback", r"Traceback \(most recent call last\)|<span class=\"ansi-red-fg\">[A-Za-z]*Error"),
            ("stderr output", r"class=\"output stderr\""),
            ("a warning in an output", r"(?:Warning|DeprecationWarning|FutureWarning|UserWarning):"),
            ("an error output", r"class=\"output traceback\""),
        ):
            if re.search(pattern, text):
                bad.append(f"{rel}: {what}")
        leak = machine_path(text)
        if leak:
            bad.append(f"{rel}: machine path {leak!r}")
    assert not bad, "\n".join(bad)


#: Markdown a reader should never see as typed: a code span's backticks, bold stars, and a command
#: line's `--flag` turned into a dash by smart quotes ("–request-rate").
SHOWN_MARKUP = re.compile(r"`[^`\n]{1,60}`?|\*\*\w|(?<![\w–])[–—][a-z][\w-]*")


#: A Markdown list glued inline (`{glue:md}` in a paragraph): its items run on as one paragraph that
#: opens with the item marker ("- Batch 1: ... - Batch 2: ..."); a list is glued as a block.
RAW_LIST = re.compile(r"<p>\s*(?:<span[^>]*>\s*)*[-*+] \S[^<]{0,40}")


def markup_problems(text: str) -> list[str]:
    parser = Prose()
    parser.feed(text)
    prose = " ".join(" ".join(parser.parts).split())
    shown = [f"shows {m.group(0)!r}" for m in SHOWN_MARKUP.finditer(prose)][:3]
    return shown + [f"runs a list on as a paragraph: {m.group(0)!r}" for m in RAW_LIST.finditer(text)][:3]


def _every_page(site: Path, problems) -> list[str]:
    """`problems(html)` of each reader's page, each line led by the page's path in the site."""
    bad = []
    for path in _pages(site):
        rel = path.relative_to(site).as_posix()
        bad += [f"{rel}: {p}" for p in problems(path.read_text(encoding="utf-8", errors="replace"))]
    return bad


def test_prose_shows_no_markdown_marks(site):
    """A value glued as plain text is shown as typed: its backticks stay and its `--` becomes a dash."""
    bad = _every_page(site, markup_problems)
    assert not bad, "\n".join(bad)


FIGURE = re.compile(r"<figure\b.*?</figure>", re.S)


def empty_figures(text: str) -> list[str]:
    """Figure blocks that hold no picture: a caption standing over nothing (#34 item 9: a figure with
    no data is not drawn, and its caption goes with it)."""
    out = []
    for m in FIGURE.finditer(text):
        if not re.search(r"<img\b|<svg\b", m.group(0)):
            caption = re.sub(r"<[^>]+>", "", m.group(0))
            out.append(f"a figure with no picture: {' '.join(caption.split())[:80]!r}")
    return out


def test_no_figure_or_caption_stands_without_its_picture(site):
    bad = _every_page(site, empty_figures)
    assert not bad, "\n".join(bad)


def test_the_empty_figure_check_finds_a_caption_over_nothing():
    drawn = '<figure class="align-default"><img src="a.svg"/><figcaption>Fig. 1 Throughput.</figcaption></figure>'
    empty = '<figure class="align-default"><figcaption>Fig. 2 Latency against load.</figcaption></figure>'
    assert empty_figures(drawn) == []
    assert empty_figures(drawn + empty) == ["a figure with no picture: 'Fig. 2 Latency against load.'"]


#: A sentence long enough that saying it twice on one page is a repeat, not a shared phrase.
def test_each_sentence_is_said_once_and_no_count_prints_a_raw_plural(site):
    """On every page but the claims ledger, which lists each claim with its own rule and reason."""
    bad = [b for b in _every_page(site, repeats) if not b.startswith("notebooks/claims_ledger.html: says")]
    assert not bad, "\n".join(bad)


def test_the_repeat_check_finds_a_sentence_said_twice_and_a_raw_plural():
    said = "The knee is at max concurrency 128, where the server held 86 requests in flight."
    assert repeats(f"<p>{said}</p><p>Answer: 91. {said}</p>")
    assert repeats("<p>It finds 2 problem(s).</p>")
    assert repeats(f"<p>{said}</p><pre>{said}</pre>") == []  # code is not prose


def test_the_repeat_check_finds_a_paragraph_said_again_with_a_clause():
    """#34: a figure's place saying "No run prints a mean TPOT" over the chapter's sentence that says it
    again with "so ...": too short and with no full stop between, the sentence count misses it."""
    short = "No run prints a mean TPOT"
    assert repeats(f"<p>{short}</p><p>{short}, so per-user speed cannot be shown.</p>")
    assert repeats(f"<p>{short}.</p><p>Per-user speed cannot be shown.</p>") == []
    assert repeats(f"<p>{short}</p><p>Next: the serving curve.</p><p>{short}, so per-user speed.</p>") == []


def test_markup_check_tells_marks_shown_from_marks_rendered():
    assert markup_problems("<p>rate (`–request-rate inf`) and run `c=100`</p>")
    assert markup_problems("<p>a <b>**bold</b></p>")
    assert markup_problems("<p>set –output-len to 128</p>")
    rendered = "<p>rate (<code>--request-rate inf</code>) over 1–4 GPUs – a range; <em>x</em></p>"
    assert markup_problems(rendered) == []
    assert markup_problems("<table><tr><td>`num_requests`</td></tr></table>") == []
    assert markup_problems("<p>- Batch 1: fastest on TP 2. - Batch 2: fastest on TP 2.</p>")
    assert markup_problems("<ul><li><p>Batch 1: fastest on TP 2.</p></li></ul><p>A range 1 - 4.</p>") == []


#: What pandas prints for a missing value; a reader's table says "–" or why instead.
MISSING_CELLS = {"NaN", "nan", "None", "<NA>", "NaT"}
#: What pandas prints where it cuts a table (a row of these) or a long text (at the end of the cell).
TRUNCATED_CELLS = ("…", "...")
ROWS_FOOTER = re.compile(r"\b\d+ rows × \d+ columns\b")


class _Tables(html.parser.HTMLParser):
    """Every table of a page: its class attribute and the text of each cell."""

    def __init__(self):
        super().__init__()
        self.tables: list[dict] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append({"class": dict(attrs).get("class") or "", "cells": []})
        elif tag in ("td", "th") and self.tables:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1]["cells"].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def table_problems(text: str) -> list[str]:
    """What in a page's HTML shows a table printed raw: a missing-value or truncation cell, a
    "rows × columns" footer, a pandas table that did not go through `tables.show`."""
    parser = _Tables()
    parser.feed(text)
    bad = []
    for i, t in enumerate(parser.tables, 1):
        if "dataframe" in t["class"].split() and "benchbook-table" not in t["class"].split():
            bad.append(f"table {i} is printed raw by pandas (not through tables.show)")
        cells = t["cells"]
        for what, hits in (
            ("missing-value cells", [c for c in cells if c in MISSING_CELLS]),
            ("truncation cells", [c for c in cells if c in TRUNCATED_CELLS or c.endswith(TRUNCATED_CELLS)]),
        ):
            if hits:
                bad.append(f"table {i} has {len(hits)} {what} ({hits[0]!r})")
    footer = ROWS_FOOTER.search(re.sub(r"<[^>]+>", " ", text))
    if footer:
        bad.append(f"a pandas truncation footer {footer.group(0)!r}")
    return bad


def test_tables_are_printed_for_reading(site):
    """No NaN/None cell, no cut table, no raw pandas table on any page."""
    bad = _every_page(site, table_problems)
    assert not bad, "\n".join(bad)


def test_table_check_finds_raw_pandas():
    """The check above fails on what pandas prints raw, and passes what tables.show prints."""
    import numpy as np
    import pandas as pd

    from benchbook.presentation import tables

    df = pd.DataFrame({"tp": range(80), "ms": [np.nan] + [1.5] * 79, "gpu": [None] + ["A100"] * 79})
    with pd.option_context("display.max_rows", 10):
        raw = df._repr_html_()
    found = " ".join(table_problems(raw))
    assert "printed raw" in found and "missing-value" in found and "truncation cells" in found
    assert "rows × " in found
    assert table_problems(tables.show(df).to_html()) == []


def test_notebook_pages_offer_their_ipynb(site):
    """Each chapter page links its .ipynb for download (the theme's download button)."""
    missing = []
    for path in sorted((site / "notebooks").glob("*.html")):
        hrefs = _parse(path).hrefs
        if not any(h.endswith(f"{path.stem}.ipynb") for h in hrefs):
            missing.append(path.name)
    assert not missing, f"no .ipynb download link on: {', '.join(missing)}"


#: Repositories that do not exist: the project's placeholder organisation on the forges.
DEAD_REPOSITORIES = re.compile(r"(?:github|gitlab)\.com/benchbook(?:/|\b)", re.I)


def test_pages_load_nothing_remote_and_link_no_repository(site):
    """Offline reading: no script or stylesheet from the network, no live-code loader, and no
    repository or launch link unless _config.yml names a repository."""
    import re

    import yaml

    repo = (yaml.safe_load((config.PROJ_ROOT / "_config.yml").read_text()).get("repository") or {}).get("url")
    bad = []
    for path in sorted(site.rglob("*.html")):
        text = path.read_text(encoding="utf-8", errors="replace")
        rel = path.relative_to(site).as_posix()
        for m in re.finditer(r"<(?:script|link|img)\b[^>]*(?:src|href)=\"(https?:)?//[^\"]+\"", text):
            if "<link" in m.group(0) and 'rel="canonical"' in m.group(0):
                continue
            bad.append(f"{rel}: {m.group(0)[:120]}")
        if "THEBE_JS_URL" in text or "unpkg.com" in text:
            bad.append(f"{rel}: live-code loader")
        if not repo and re.search(r"mybinder\.org|colab\.research\.google\.com|github\.com/benchbook", text):
            bad.append(f"{rel}: repository or launch link with no repository configured")
        for m in re.finditer(r"<a\b[^>]*>", text):
            tag = m.group(0)
            href = (re.search(r'href="([^"]*)"', tag) or [None, ""])[1]
            if DEAD_REPOSITORIES.search(href):
                bad.append(f"{rel}: a link to a repository that does not exist: {href}")
            elif "btn-source-" in tag and not (repo and href.startswith(repo.rstrip("/"))):
                bad.append(f"{rel}: a repository button that is not the configured repository: {href}")
    assert not bad, "\n".join(bad[:20])
