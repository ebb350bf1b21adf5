"""Which markdown heading names the run pasted under it.

A write-up names its runs by the headings above them (`## c=32`, `### Baseline`), but not every
heading above a result block names the run in it:

* a line is a heading only as CommonMark reads one (one to six `#`, then a blank or the line's end, at
  most three spaces in, outside a fenced code block): `#Output tokens: 120861` is SGLang's own print,
  `# export VLLM_USE_MODELSCOPE=True` inside a ```bash block a shell comment;
* the title of a document (the level-1 heading its first line is) names the document: a pull
  request's or an issue's title, whatever the run under it is (a baseline without the change the
  title names), unless the document's other level-1 headings name its runs too;
* a form's section heading (`### Your current environment`, `## Modifications`) names a part of the
  form: the vocabulary is the templates' own, with their sources, in form_headings.yml;
* a heading that is the nearest heading of every run of the file tells none of them apart.

A comment the author wrote inside a code block right above a block (`# round 2`, `# Baseline`) is
the author's label for that block (`comment_label`).
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from benchbook.ingest.core import heading_words
from benchbook.ingest.text import fences

#: An ATX heading as CommonMark reads one: its `#` run (the level) and its text with any closing run taken off.
ATX_RE = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
#: A short label an author writes as a comment right above a block (`# round 2`, `# Baseline`, `# qps=4`).
COMMENT_LABEL_RE = re.compile(r"^\s*#+\s*(?P<words>[A-Za-z][\w .=/+-]{0,23}?)\s*$")


@dataclass(frozen=True)
class Outline:
    """The headings of a text, outside its fenced code blocks, and where those blocks are."""

    heads: dict[int, tuple[int, str]]  # line index -> (level, text as written), in line order
    fenced: tuple[tuple[int, int], ...]  # (opening fence, closing fence) line indices, in line order
    at: tuple[int, ...] = ()  # the headings' line indices, in order (`heads`' keys, kept for bisect)

    def in_fence(self, j: int) -> bool:
        """Whether line j lies between a code block's fences."""
        k = bisect.bisect_right(self.fenced, (j, math.inf)) - 1
        return k >= 0 and self.fenced[k][0] < j < self.fenced[k][1]

    def words(self, i: int) -> str:
        """The words of the heading on line i, as a rendered page shows them (`core.heading_words`)."""
        return heading_words(self.heads[i][1])

    def within(self, lo: int, hi: int) -> list[int]:
        """The lines of the headings in lines[lo:hi], in order."""
        return list(self.at[bisect.bisect_left(self.at, lo) : bisect.bisect_left(self.at, hi)])

    def nearest(self, j: int) -> int | None:
        """The line of the nearest heading above line j."""
        above = self.within(0, j)
        return above[-1] if above else None


def outline(lines: Sequence[str]) -> Outline:
    """The headings and code blocks of `lines`."""
    fenced = tuple((a, b) for a, b, _ in fences(lines))
    heads = {}
    for i, line in enumerate(lines):
        if line[:4].lstrip(" ")[:1] != "#":
            continue
        m = ATX_RE.match(line)
        if m:
            heads[i] = (len(m.group(1)), m.group(2) or "")
    out = Outline({}, fenced)
    kept = {i: h for i, h in heads.items() if not out.in_fence(i)}
    return Outline(kept, fenced, tuple(kept))


def _key(words: str) -> str:
    """A heading's words without case, emoji or punctuation (`📚 The doc issue` -> `the doc issue`)."""
    return " ".join(re.sub(r"[^\w ]", " ", words.casefold()).split())


@cache
def form_headings() -> frozenset[str]:
    """Every heading the cited issue forms and pull-request templates write (form_headings.yml)."""
    data = yaml.safe_load(Path(__file__).with_name("form_headings.yml").read_text(encoding="utf-8"))
    return frozenset(_key(h) for templates in data.values() for heads in templates.values() for h in heads)


def is_form_heading(words: str) -> bool:
    """Whether a heading is one of a GitHub issue form's or pull-request template's sections."""
    return _key(words) in form_headings()


def names(lines: Sequence[str], starts: Sequence[int], doc: Outline | None = None) -> dict[int, str | None]:
    """The nearest heading above each block (its first line, 0-based, in `starts`), by its line: its
    words where it may name the runs under it, None where it names none of them (the document's
    title, a form's section, the nearest heading of every run)."""
    doc = doc or outline(lines)
    nearest = [doc.nearest(s) for s in starts]
    found = {i for i in nearest if i is not None}
    first = next((j for j, s in enumerate(lines) if s.strip()), None)
    title = (
        first is not None
        and first in doc.heads
        and doc.heads[first][0] == 1
        and not any(doc.heads[i][0] == 1 for i in found - {first})
    )
    every = len(set(nearest)) == 1
    out: dict[int, str | None] = {}
    for i in found:
        words = doc.words(i)
        out[i] = None if not words or every or (title and i == first) or is_form_heading(words) else words
    return out


def comment_label(lines: Sequence[str], doc: Outline, start: int, lo: int = 0) -> str | None:
    """The label an author wrote as a comment inside a code block on the line right above a block
    (at most one blank line between them): `# round 2`, `# Baseline`. A commented-out command or a
    `key: value` line is no label."""
    j = start - 1
    if j >= lo and not lines[j].strip():
        j -= 1  # one blank line between
    if j < lo or not doc.in_fence(j):
        return None
    m = COMMENT_LABEL_RE.match(lines[j])
    return m["words"] if m and len(m["words"].split()) <= 3 else None


def load_label(max_concurrency: float, request_rate: float) -> str:
    """A run's load as its name shows it (`c=8, rate=inf`, as `analysis.serving.settings_label` names a
    run from its settings), '' where it prints none."""
    parts = [f"c={max_concurrency:g}"] * (not math.isnan(max_concurrency))
    return ", ".join(parts + [f"rate={request_rate:g}"] * (not math.isnan(request_rate)))


def run_names(bases: Sequence[str | None], loads: Sequence[str]) -> list[str]:
    """A name per run, in file order, from the name the text gives it (`bases`: its own label, or
    a heading that names it) and its load (`c=8, rate=4`; '' where none is printed). A name shared
    by runs at different loads names none of them alone: each gets its load beside it. A run the
    text gives no name is named by its load, else by its place in the file (`block 3`); a name an
    earlier run has already is counted (`c=8 #2`): another run under the same name, never the same."""
    out: list[str] = []
    for k, (base, load) in enumerate(zip(bases, loads, strict=True), start=1):
        apart = len({ld for b, ld in zip(bases, loads, strict=True) if b == base}) > 1
        name = ", ".join(x for x in (base, load if base is None or apart else "") if x) or f"block {k}"
        same = sum(1 for n in out if n == name or n.startswith(name + " #"))
        out.append(f"{name} #{same + 1}" if same else name)
    return out
