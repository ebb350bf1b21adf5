"""Helpers shared by the test files."""

from __future__ import annotations

import html.parser
import itertools
import os
import re
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import settings

from benchbook import config, executor
from benchbook.presentation import wording

# Tests sit in one folder per layer (ingest, analysis, checks, claims, presentation, book, cli, house);
# a few import a synthetic table from a test file of another layer by its module name.
_LAYERS = [p for p in Path(__file__).parent.iterdir() if p.is_dir() and p.name.isidentifier() and p.name != "fixtures"]
sys.path[:0] = [str(p) for p in sorted(_LAYERS)]

#: `make test` draws the same examples on every run, so a commit green here is green in CI; `make fuzz`
#: draws new ones, many more, to find what the fixed draw misses (its failures become plain tests).
EXPLORE = os.environ.get("BENCHBOOK_HYPOTHESIS") == "explore"
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False, max_examples=1500)
settings.load_profile("explore" if EXPLORE else "repeatable")
#: Damaged copies per parser and fuzz test: the suite's time stays bounded; `make fuzz` takes many.
FUZZ_EXAMPLES = 1500 if EXPLORE else 40


def _markers() -> list[str]:
    """This machine's paths as the build knows them (project, home, temporary folder, Python
    prefix), the folder the project sits in, and the usual roots of home folders."""
    parent = str(config.PROJ_ROOT.parent).rstrip("/") + "/"
    found = {*executor.machine_paths(), "/home/", "/Users/"}
    if len(parent) > 1:
        found.add(parent)
    return sorted(found)


#: A path that names a machine, not inside a longer word or URL: no output may show one.
MACHINE_PATH = re.compile(r"(?<![\w.])(" + "|".join(re.escape(m) for m in _markers()) + ")")


def find_machine_path(text: str, *also: str) -> str | None:
    """The first machine path in `text` (see `_markers`, or one of `also`), with 40 characters
    either side so a failure shows where; None when there is none."""
    m = MACHINE_PATH.search(text)
    hits = [m.start()] if m else []
    hits += [text.find(s) for s in also if s in text]
    if not hits:
        return None
    at = min(hits)
    return text[max(0, at - 40) : at + 40]


def one_row(df, **match):
    """The single row of `df` whose columns equal `match`; fails, naming the match, if not exactly one."""
    sub = df
    for col, value in match.items():
        sub = sub[sub[col] == value]
    assert len(sub) == 1, (match, len(sub))
    return sub.iloc[0]


@pytest.fixture(scope="session")
def machine_path():
    """`find_machine_path`, for tests: one definition of what counts as a leaked path."""
    return find_machine_path


def glued_text(data: dict) -> str:
    """A glued value as the page shows it (glue stores it under a papermill.record/ prefix)."""
    plain = {k.removeprefix("application/papermill.record/"): v for k, v in data.items()}
    v = plain["text/markdown"] if "text/markdown" in plain else plain.get("text/plain") or ""  # "": glued as nothing
    return "".join(v) if isinstance(v, list) else v


def only_parse_error(parse, text):
    """Fuzz oracle: `parse` either refuses `text` with ParseError (None) or accounts for every
    number it read as kept or rejected (the Parsed result)."""
    from benchbook.ingest import ParseError

    try:
        p = parse(text, "x")
    except ParseError:
        return None
    assert p.cells_read == len(p.table) + len(p.rejected)
    return p


#: The topic chapters: each publishes a claims ledger, on the seeds and on a reader's run.
TOPICS = [
    "tp_scaling",
    "quantization_regimes",
    "perf_per_watt",
    "bandwidth_roofline",
    "serving_saturation",
    "batch_saturation",
    "attention_kernels",
]


@pytest.fixture
def worded(tmp_path, monkeypatch):
    """Word a claim by one inline template, through a throwaway chapter's wording file."""
    monkeypatch.setattr(config, "NOTEBOOKS_DIR", tmp_path)
    names = itertools.count()

    def word(claim, shown, topic):
        name = f"demo{next(names)}"
        spec = {"claims": {claim.id: {"topic": topic, "shown": shown}}}
        (tmp_path / f"{name}.claims.yml").write_text(yaml.safe_dump(spec))
        return wording.word(name, claim)

    return word


def cell(df, metric, statistic):
    """The one tidy row of `metric` at `statistic` (a parser test's lookup: exactly one must exist)."""
    hit = df[(df["metric"] == metric) & (df["statistic"] == statistic)]
    assert len(hit) == 1, (metric, statistic, len(hit))
    return hit.iloc[0]


#: Markdown a `{glue:text}` value would show as typed: a code span's backticks, bold stars, and a
#: `--` that Sphinx's smart quotes turn into a dash ("–request-rate").
MARKUP = re.compile(r"`|\*\*|--")


def markup_in_plain_glue(nb: dict) -> list[str]:
    """The values a page shows through `{glue:text}` that hold Markdown: glue them as Markdown and
    show them with `{glue:md}`, or the reader sees the marks."""
    glued = _glued(nb)
    md = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    names = dict.fromkeys(re.findall(r"\{glue:text\}`([A-Za-z0-9_]+)", md))
    return [f"{n} shows Markdown as text: {glued[n][:80]!r}" for n in names if MARKUP.search(glued.get(n, ""))]


def _glued(nb: dict) -> dict[str, str]:
    glued = {}
    for c in nb["cells"]:
        for o in c.get("outputs", []) if c["cell_type"] == "code" else []:
            name = o.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                glued[name] = glued_text(o["data"]).strip("'\"")
    return glued


def page_text(nb: dict) -> str:
    """The prose a reader sees: markdown with every glued value put in its place."""
    glued = _glued(nb)
    md = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    # a glued block (```{glue:md} name ... ```), such as the bottom-line box, reads as its text too
    md = re.sub(r"```\{glue:md\} ([A-Za-z0-9_]+)\n(?::[^\n]*\n)*```", lambda m: glued.get(m.group(1), ""), md)
    return re.sub(r"\{glue:(?:text|md)\}`([A-Za-z0-9_]+)(?::[^`]*)?`", lambda m: glued.get(m.group(1), ""), md)


class Prose(html.parser.HTMLParser):
    """A page's prose: its text outside code, scripts, styles and tables printed from data."""

    SKIP = {"pre", "code", "script", "style", "table", "kbd", "samp"}

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        self._skip += tag in self.SKIP

    def handle_endtag(self, tag):
        self._skip -= tag in self.SKIP and self._skip > 0

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


REPEAT_CHARS = 50
RAW_PLURAL = re.compile(r"\b\w+\(s\)")


def repeats(text: str) -> list[str]:
    """Sentences of a page's prose (its article: not the navigation, which repeats the headings) said
    more than once, and count nouns printed with a raw "(s)"."""
    body = re.search(r"<article\b.*</article>", text, re.S)
    parser = Prose()
    parser.feed(body.group(0) if body else text)
    prose = " ".join(" ".join(parser.parts).split())
    sentences = [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", prose) if len(s) >= REPEAT_CHARS]
    seen: dict[str, int] = {}
    for s in sentences:
        seen[s] = seen.get(s, 0) + 1
    out = [f"says {n} times: {s[:100]!r}" for s, n in seen.items() if n > 1]
    out += [f"says again with more: {a[:100]!r}" for a in restated(body.group(0) if body else text)]
    return out + [f"prints {m.group(0)!r}" for m in RAW_PLURAL.finditer(prose)][:3]


PARAGRAPH = re.compile(r"<p\b[^>]*>(.*?)</p>", re.S)


def restated(text: str) -> list[str]:
    """Paragraphs whose whole text opens the paragraph right after them, which says it again with a
    clause added ("No run prints X." over "No run prints X, so ..."): too short, or with no full stop
    between them, for the count of whole sentences to see."""
    paras = []
    for m in PARAGRAPH.finditer(text):
        parser = Prose()
        parser.feed(m.group(1))
        paras.append(" ".join(" ".join(parser.parts).split()).rstrip(".").lower())
    words = re.compile(r"[^\W\d_]{2,}")
    return [
        a for a, b in zip(paras, paras[1:], strict=False) if len(words.findall(a)) >= 3 and b.startswith(a) and b != a
    ]


@pytest.fixture
def themed():
    """The book's theme inside a saved rc context, as a chapter sets it; every figure closed after
    (the figure tests of tests/presentation use it)."""
    import matplotlib
    import matplotlib.pyplot as plt

    from benchbook.presentation import plotting

    with matplotlib.rc_context():
        plotting.use_theme()
        yield
    plt.close("all")
