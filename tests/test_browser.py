"""The published book, tested as a reader sees it: built, served on localhost, opened in Chromium.

Every page loads without console errors and without a request leaving localhost, its figures are
drawn, every internal link and anchor resolves, the search page finds things, and no page shows a
traceback, a machine path or stderr noise. Screenshots land in _build/screenshots/.

The book is built with `benchbook.build.build()` (cached by content, so cheap when up to date).
BENCHBOOK_TEST_HTML=<folder> tests an already-built site instead (for working on a partial book).
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
    """The reader's pages: the root page, book/ and notebooks/ (not the generated index pages)."""
    pages = [p for p in sorted(site.rglob("*.html")) if p.relative_to(site).parts[0] in ("book", "notebooks")]
    return pages


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
    """A notebook page whose source glues a figure must show one."""
    if not rel.startswith("notebooks/"):
        return False
    src = config.NOTEBOOKS_DIR / (Path(rel).stem + ".md")
    return src.is_file() and "{glue:figure}" in src.read_text(encoding="utf-8")


def test_every_page_loads_clean_offline_with_its_figures(site, server, browser):
    pages = _pages(site)
    assert pages, "no pages were built"
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    for path in pages:
        rel = path.relative_to(site).as_posix()
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        errors, outside = [], []
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
        page.on(
            "request",
            lambda r, outside=outside: (
                outside.append(r.url) if urlsplit(r.url).hostname not in ("127.0.0.1", "localhost", None) else None
            ),
        )
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
        page.screenshot(path=str(SHOTS / (rel.replace("/", "__").removesuffix(".html") + ".png")), full_page=False)
        ctx.close()
    assert not problems, "\n".join(problems)


def test_search_page_finds_roofline(site, server, browser):
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
    for path in _pages(site) + [site / "index.html"]:
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


def test_notebook_pages_offer_their_ipynb(site):
    """Each chapter page links its .ipynb for download (the theme's download button)."""
    missing = []
    for path in sorted((site / "notebooks").glob("*.html")):
        hrefs = _parse(path).hrefs
        if not any(h.endswith(f"{path.stem}.ipynb") for h in hrefs):
            missing.append(path.name)
    assert not missing, f"no .ipynb download link on: {', '.join(missing)}"


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
    assert not bad, "\n".join(bad[:20])
