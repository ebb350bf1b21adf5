"""A file the book names is there: a page that says where a test, a script or a table lives
(`tests/cli/test_rerun.py`, `data/hardware.csv`) names a path of this repository, so that a reader
who looks finds it (run_on_your_data named `tests/test_rerun.py` after the tests moved by layer)."""

from __future__ import annotations

import re

from benchbook import config

#: A path of this repository written in a code span, under a top folder no source tool's repository
#: shares with it (`benchmarks/benchmark_latency.py` is vLLM's, so `benchmarks/` is left out).
NAMED = re.compile(r"`((?:tests|src/benchbook|data|notebooks|book)/[\w./-]*)`")


def missing_paths(text: str) -> list[str]:
    out = []
    for path in NAMED.findall(text):
        if any(ch in path for ch in "*<>") or path.endswith("/..."):
            continue
        if not (config.PROJ_ROOT / path).exists():
            out.append(path)
    return out


def test_every_repository_path_a_page_names_exists():
    pages = sorted(config.BOOK_DIR.glob("*.md")) + sorted(config.NOTEBOOKS_DIR.glob("*.md"))
    bad = {p.name: missing_paths(p.read_text(encoding="utf-8")) for p in pages}
    assert {k: v for k, v in bad.items() if v} == {}


def test_the_path_check_finds_a_moved_file():
    assert missing_paths("checked by (`tests/test_rerun.py`)") == ["tests/test_rerun.py"]
    assert missing_paths("see `tests/cli/test_rerun.py` and `data/hardware.csv`") == []


#: A link to a book page by its path alone: a report on someone else's file prints the path as text.
BARE_BOOK_LINK = re.compile(r"\{doc\}`\.\./book/[^<`]*`")


def test_a_chapter_links_a_book_page_with_its_title():
    """perf_per_watt's report printed "measured in ../book/roofline_in_one_page" where the book shows
    a link: a chapter names a book page as {doc}`Title <../book/page>`."""
    bare = {p.name: BARE_BOOK_LINK.findall(p.read_text(encoding="utf-8")) for p in config.NOTEBOOKS_DIR.glob("*.md")}
    assert {k: v for k, v in bare.items() if v} == {}
    assert BARE_BOOK_LINK.findall("in {doc}`../book/roofline_in_one_page` (measured)")
    assert not BARE_BOOK_LINK.findall("in {doc}`The roofline in one page <../book/roofline_in_one_page>`")
