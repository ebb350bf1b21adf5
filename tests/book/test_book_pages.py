"""The book as a learner reads it, measured in headless Chromium on the built pages: the answer on
the first screen of every topic chapter, glued text in the body's weight, tables that fit the column
(at most MAX_ROWS rows unless folded), SVG figures at the column's width with every text at least
MIN_TEXT_PX as rendered, two worked exercises per topic chapter, the foundations page linked from
every roofline chapter, the glossary's terms and the front page's findings.

Uses the built site of tests/book/test_browser.py (BENCHBOOK_TEST_HTML=<folder> tests a built copy).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_browser import ARGS, CHROMIUM, server, site  # noqa: F401  (the built site, served, as the browser tests see it)

from benchbook.declarations import CHAPTERS
from benchbook.presentation.tables import MAX_ROWS

pytestmark = pytest.mark.browser

#: The chapters that teach a topic: each opens with a bottom line and has worked exercises.
TOPICS = [c.name for c in CHAPTERS if c.box.leads]
#: The chapters that place measurements under a roofline, so link the foundations page.
ROOFLINE_CHAPTERS = [
    "bandwidth_roofline",
    "batch_saturation",
    "serving_saturation",
    "tp_scaling",
    "quantization_regimes",
    "attention_kernels",
]
MIN_TEXT_PX = 10.0
MAX_PANELS = 4
VIEWPORT = {"width": 1300, "height": 900}

#: Everything measured on one page, in one evaluation.
MEASURE = r"""
async () => {
  // the words of a table's headers that the browser broke across lines (a word in two line boxes)
  const brokenWords = (t) => {
    const out = [];
    for (const th of t.querySelectorAll('th')) {
      const walk = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        for (const m of n.textContent.matchAll(/[^\s-]+/g)) {  // a break after a hyphen is a break between words
          const r = document.createRange();
          r.setStart(n, m.index);
          r.setEnd(n, m.index + m[0].length);
          const tops = new Set([...r.getClientRects()].map(b => Math.round(b.top)));
          if (tops.size > 1) out.push(m[0]);
        }
      }
    }
    return out;
  };
  const col = document.querySelector('article.bd-article') || document.querySelector('main');
  const colBox = col.getBoundingClientRect();
  const style = getComputedStyle(col);
  const colWidth = colBox.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const out = {colWidth, box: null, bold: [], tables: [], figures: [], solutions: [], links: []};
  const box = document.querySelector('div.admonition.bottom-line');
  if (box) {
    const r = box.getBoundingClientRect();
    out.box = {top: r.top + window.scrollY, text: box.innerText};
  }
  for (const s of document.querySelectorAll('span.pasted-text')) {
    const w = parseInt(getComputedStyle(s).fontWeight), pw = parseInt(getComputedStyle(s.parentElement).fontWeight);
    if (w > pw) out.bold.push(s.innerText.slice(0, 60));
  }
  for (const t of col.querySelectorAll('table')) {
    if (t.closest('details')) continue;
    const rows = t.querySelectorAll('tbody tr').length;
    // a name kept whole (a chapter table's span.benchbook-name, a word of a code span) on more than one line
    const lines = e => { const r = document.createRange(); r.selectNodeContents(e);
      return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size; };
    const cut = [...t.querySelectorAll('span.benchbook-name, span.pre')].filter(e => lines(e) > 1).map(e => e.innerText);
    const scrolls = t.closest('div.benchbook-scroll, div.pst-scrollable-table-container') !== null;
    out.tables.push({rows, width: t.getBoundingClientRect().width, head: t.innerText.slice(0, 60), broken: brokenWords(t),
      cut, scrolls});
  }
  for (const img of col.querySelectorAll('img')) {
    if (img.closest('details') || img.offsetParent === null) continue;
    const src = img.getAttribute('src') || '';
    const fig = {src, width: img.getBoundingClientRect().width, svg: src.endsWith('.svg'), sizes: [], panels: 0, viewBox: 0};
    if (fig.svg) {
      const text = await (await fetch(img.src)).text();
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      const root = doc.documentElement;
      fig.viewBox = parseFloat((root.getAttribute('viewBox') || '0 0 0 0').split(/\s+/)[2]);
      fig.panels = doc.querySelectorAll('g[id^="axes_"]').length;
      for (const t of doc.querySelectorAll('text, tspan')) {  // a tspan: a mathtext part, e.g. an exponent
        const st = t.getAttribute('style') || '';
        const m = st.match(/font(?:-size)?:\s*(?:[a-z]+\s+)*([\d.]+)px/);
        if (m && t.textContent.trim()) fig.sizes.push([parseFloat(m[1]), t.textContent.trim().slice(0, 30)]);
      }
      fig.glyphs = doc.querySelectorAll('use[xlink\\:href^="#DejaVu"], path[id^="DejaVu"]').length;
    }
    out.figures.push(fig);
  }
  for (const d of col.querySelectorAll('details.dropdown, div.dropdown')) {
    const title = (d.querySelector('summary, .admonition-title') || {}).innerText || '';
    if (/^Solution/.test(title.trim())) out.solutions.push(d.textContent);
  }
  out.links = [...col.querySelectorAll('a[href]')].map(a => a.getAttribute('href'));
  return out;
}
"""


@pytest.fixture(scope="module")
def browser():
    """Chromium for this module only: closed before tests/book/test_browser.py starts its own (two sync
    Playwright sessions cannot run at once)."""
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` (Debian's chromium package)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def measured(site, server, browser) -> dict[str, dict]:  # noqa: F811
    """Every book page measured at a 1300 px wide window (the text column's width as the theme lays it out)."""
    pages = [p for p in sorted(site.rglob("*.html")) if p.relative_to(site).parts[0] in ("book", "notebooks")]
    out = {}
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    for path in pages:
        rel = path.relative_to(site).as_posix()
        page.goto(f"{server}/{rel}", wait_until="load")
        out[rel] = page.evaluate(MEASURE)
    ctx.close()
    return out


def _topic(rel: str) -> str | None:
    stem = Path(rel).stem
    return stem if rel.startswith("notebooks/") and stem in TOPICS else None


def test_every_topic_chapter_opens_with_its_bottom_line(measured):
    """A bottom-line box holding numbers starts on the first screen (900 px) of every topic chapter."""
    seen, bad = set(), []
    for rel, m in measured.items():
        ch = _topic(rel)
        if not ch:
            continue
        seen.add(ch)
        box = m["box"]
        if box is None:
            bad.append(f"{rel}: no bottom-line box")
        elif box["top"] > VIEWPORT["height"] - 80:
            bad.append(f"{rel}: the bottom line starts at {box['top']:.0f} px, below the first screen")
        elif not re.search(r"\d", box["text"]):
            bad.append(f"{rel}: the bottom line holds no number")
    assert seen == set(TOPICS), f"topic chapters not built: {sorted(set(TOPICS) - seen)}"
    assert not bad, "\n".join(bad)


def test_glued_text_is_in_the_body_weight(measured):
    bad = [
        f"{rel}: {len(m['bold'])} bold glued passage(s), e.g. {m['bold'][0]!r}"
        for rel, m in measured.items()
        if m["bold"]
    ]
    assert not bad, "\n".join(bad)


def test_tables_in_the_main_flow_are_short_and_fit_the_column_or_scroll_in_their_box(measured):
    """A table wider than the column (its names kept whole, #34 item 9) scrolls sideways in its box,
    never runs past the column."""
    bad = []
    for rel, m in measured.items():
        for t in m["tables"]:
            if t["rows"] > MAX_ROWS:
                bad.append(f"{rel}: a {t['rows']}-row table in the main flow ({t['head']!r})")
            if t["width"] > m["colWidth"] + 1 and not t["scrolls"]:
                bad.append(
                    f"{rel}: a table {t['width']:.0f} px wide in a {m['colWidth']:.0f} px column ({t['head']!r})"
                )
    assert not bad, "\n".join(bad)


def test_table_headers_wrap_between_words(measured):
    """No header of a table in the main flow is broken inside a word (#28: an 11-column runs table
    broke "concurrency" and "throughput" in two)."""
    bad = [
        f"{rel}: a header word broken across lines: {', '.join(t['broken'][:3])} ({t['head']!r})"
        for rel, m in measured.items()
        for t in m["tables"]
        if t["broken"]
    ]
    assert not bad, "\n".join(bad)


def test_no_name_in_a_table_breaks_across_lines(measured):
    """Table cells broke "bench_one_ / batch_server" and "w8a8_sparse_ / smooth_gptq" (#34 item 9): a name in
    a table is on one line."""
    bad = [
        f"{rel}: a name broken across lines: {', '.join(t['cut'][:3])} ({t['head']!r})"
        for rel, m in measured.items()
        for t in m["tables"]
        if t["cut"]
    ]
    assert not bad, "\n".join(bad)


def test_figures_are_svg_readable_and_column_wide(measured):
    """Every figure is an SVG whose text is text, at least MIN_TEXT_PX as rendered, in at most
    MAX_PANELS panels, drawn at the text column's width."""
    bad = []
    for rel, m in measured.items():
        for f in m["figures"]:
            name = f"{rel}: {f['src'].rsplit('/', 1)[-1][:12]}"
            if not f["svg"]:
                bad.append(f"{name} is not an SVG")
                continue
            if not f["sizes"]:
                bad.append(f"{name} has no text kept as text")
                continue
            scale = f["width"] / f["viewBox"]
            small = [(s * scale, t) for s, t in f["sizes"] if s * scale < MIN_TEXT_PX]
            if small:
                px, t = min(small)
                bad.append(f"{name}: {len(small)} text(s) under {MIN_TEXT_PX:g} px, the smallest {px:.1f} px ({t!r})")
            if f["panels"] > MAX_PANELS:
                bad.append(f"{name}: {f['panels']} panels")
            if f["width"] < 0.9 * m["colWidth"]:
                bad.append(f"{name}: {f['width']:.0f} px wide in a {m['colWidth']:.0f} px column")
    assert not bad, "\n".join(bad)


def test_every_topic_chapter_has_two_worked_exercises(measured):
    """At least two folded solutions that show arithmetic in numbers and end in an answer."""
    bad = []
    for rel, m in measured.items():
        if not _topic(rel):
            continue
        worked = [s for s in m["solutions"] if "Answer:" in s and re.search(r"\d[\d,.]* */|= *\d", s)]
        if len(worked) < 2:
            bad.append(f"{rel}: {len(worked)} worked exercise(s)")
    assert not bad, "\n".join(bad)


def test_roofline_chapters_link_the_foundations_page(measured):
    bad = [
        ch
        for ch in ROOFLINE_CHAPTERS
        if not any("roofline_in_one_page" in h for h in measured.get(f"notebooks/{ch}.html", {"links": []})["links"])
    ]
    assert not bad, f"no link to the roofline page from: {', '.join(bad)}"


@pytest.mark.parametrize("term", ["SLO", "Welch", "GPTQ", "AWQ", "SmoothQuant", "Roofline", "Sparsity"])
def test_glossary_defines(site, term):  # noqa: F811
    text = (site / "book" / "glossary.html").read_text(encoding="utf-8")
    assert re.search(rf'<dt id="term-{re.escape(term)}', text), f"the glossary lacks {term}"


def test_front_page_lists_findings_with_numbers_and_chapters(site):  # noqa: F811
    text = (site / "book" / "intro.html").read_text(encoding="utf-8")
    section = text.split('id="what-the-book-finds"', 1)[-1].split("<section", 1)[0]
    items = re.findall(r"<li>(.*?)</li>", section, flags=re.S)
    found = [i for i in items if re.search(r"\d", re.sub(r"<[^>]+>", "", i)) and "notebooks/" in i]
    assert len(found) >= 5, f"{len(found)} findings with a number and a chapter link"
