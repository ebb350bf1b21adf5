"""Every topic chapter on every real public output of its tool kept in tests/fixtures: it runs,
publishes a ledger that re-judges clean, prints no missing value, warning or raw HTML, and says
what the fixture's truth card (`<file>.truth.yml`, written by reading the file; format in the
project's card guide) says a reader needs, and none of the false statements it lists. These are
the readers' runs; the seeds are only one input among them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from conftest import TOPICS, markup_in_plain_glue, page_text, repeats

from benchbook import config, declarations, ingest, report, rerun
from benchbook.claims import from_notebook
from benchbook.claims.rules import MISSING_WORDS, check
from benchbook.ingest import vllm_serve
from benchbook.presentation import page_html

CARD_KEYS = {"fixture", "origin", "run", "chapters", "must_say", "must_not_say", "notes"}
RUN_KEYS = {"devices", "device_count", "model", "precision", "load", "requests", "speculative", "metrics"}

GLOSSARY = page_html.read_glossary((config.BOOK_DIR / "glossary.md").read_text(encoding="utf-8"))

#: Raw HTML a reader would see as markup: a tag or an escaped entity left in the prose.
RAW_HTML = re.compile(
    r"</?(?:div|span|p|br|table|tr|td|th|b|i|em|strong|code|pre|a|img|ul|li|sup|sub)\b[^>]*>|&(?:lt|gt|amp|nbsp|quot);"
)
#: A Python warning (`UserWarning: ...`) or traceback shown in an output or glued into the prose; the
#: chapters' own "**Warning:** ... is not a result" wording for a figure beyond physics is not one.
WARNING = re.compile(r"\b\w+Warning:|Traceback \(most recent call last\)|warnings\.warn")


def card_path(source: Path) -> Path:
    """The truth card beside a fixture file, or beside a sweep's TIMESTAMP folder."""
    return source.with_name(source.name + ".truth.yml")


def load_card(source: Path) -> dict | None:
    path = card_path(source)
    return yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else None


def _is_sweep_file(path: Path) -> bool:
    return vllm_serve.sweep_params(path.parent.name) is not None


def real_fixtures() -> list[Path]:
    """Each real public output in tests/fixtures (a sweep folder counts once, as its TIMESTAMP
    folder): synthetic_* files and folders, READMEs, cards and `benchbook report`'s pairs are not."""
    found = []
    for path in sorted(config.FIXTURES_DIR.rglob("*")):
        rel = path.relative_to(config.FIXTURES_DIR).parts
        if not path.is_file() or path.name == "README.md" or path.name.endswith(".truth.yml"):
            continue
        if rel[0] == "compare" or any(p.startswith("synthetic") for p in rel):
            continue
        found.append(path.parent.parent if _is_sweep_file(path) else path)
    return sorted(set(found))


def _cases():
    cases = []
    for chapter in TOPICS:
        tools = set(declarations.chapter(chapter).tools)
        sweeps = set()
        for path in sorted(config.FIXTURES_DIR.rglob("*")):
            if not path.is_file() or path.name in ("README.md",) or path.name.endswith(".truth.yml"):
                continue
            if "compare" in path.parts:
                continue
            if _is_sweep_file(path):  # a vllm bench sweep: the folder is the input
                root = path.parent.parent  # the sweep's TIMESTAMP folder
                if "vllm-bench-serve" in tools and root not in sweeps:
                    sweeps.add(root)
                    cases.append(_param(chapter, root, root.parent.name))
                continue
            try:
                found = ingest.detect(ingest._load_text(path))
            except ingest.ParseError:
                continue
            if set(found) & tools:
                cases.append(_param(chapter, path, path.name))
    return cases


def _param(chapter: str, path: Path, name: str):
    """One chapter on one fixture; xfail (strict) where its card marks a line `# FAILS: why`."""
    card = card_path(path)
    marks = []
    if card.is_file():
        reasons = re.findall(r"#\s*FAILS(?:\[([\w,]+)\])?:\s*(.+)", card.read_text(encoding="utf-8"))
        why = [r for chapters, r in reasons if not chapters or chapter in chapters.split(",")]
        if why:
            marks.append(pytest.mark.xfail(reason="; ".join(why), strict=True))
    return pytest.param(chapter, path, id=f"{chapter}-{name}", marks=marks)


def _shown_outputs(nb: dict) -> str:
    """What code cells print where a reader can see it: streams and plain/markdown displays that
    are not glued values (glued ones are in `page_text`)."""
    out = []
    for c in nb["cells"]:
        if c["cell_type"] != "code" or "remove-cell" in c.get("metadata", {}).get("tags", []):
            continue
        for o in c.get("outputs", []):
            if o.get("output_type") == "stream":
                out.append("".join(o.get("text", "")))
            elif o.get("output_type") == "error":
                out.append("Traceback (most recent call last) " + o.get("ename", ""))
            elif not o.get("metadata", {}).get("scrapbook"):
                v = o.get("data", {}).get("text/markdown") or o.get("data", {}).get("text/plain") or ""
                out.append("".join(v) if isinstance(v, list) else v)
    return "\n".join(out)


def page_problems(text: str, shown: str) -> list[str]:
    """The no-missing-value, no-warning, no-raw-HTML rule every page obeys."""
    prose = re.sub(r"`[^`\n]*`", "", text)  # code spans may name values such as `--request-rate inf`
    problems = [f"prints {m.group(0)!r}" for m in MISSING_WORDS.finditer(prose)][:5]
    problems += [f"prints raw HTML {m.group(0)!r}" for m in RAW_HTML.finditer(prose)][:3]
    problems += [f"prints a warning {m.group(0)!r}" for m in WARNING.finditer(prose + "\n" + shown)][:3]
    return problems


#: A number in scientific notation (5.23e+03): a count or a rate a reader should see in digits.
SCIENTIFIC = re.compile(r"(?<![\w.])\d+(?:\.\d+)?e[+-]?\d+\b", re.I)
#: Chapters whose prose prints every number through the wording filters, never in scientific notation.
PLAIN_NUMBERS = ("serving_saturation",)


def notation_problems(chapter: str, text: str) -> list[str]:
    """Numbers a page prints in scientific notation, outside code spans (a page quoting the input may)."""
    if chapter not in PLAIN_NUMBERS:
        return []
    prose = re.sub(r"`[^`\n]*`", "", text)
    return [f"prints {m.group(0)!r} in scientific notation" for m in SCIENTIFIC.finditer(prose)][:3]


def card_lines(card: dict, key: str, chapter: str | None = None) -> list[str]:
    """A card's `must_say` or `must_not_say` regexes for one chapter's page: a list holds for every page
    the card names; a mapping gives each chapter its own (two pages of one file state different facts)."""
    lines = card.get(key) or []
    if isinstance(lines, dict):
        return [r for ch, rs in lines.items() if chapter is None or ch == chapter for r in rs or []]
    return list(lines)


def card_problems(card: dict, chapter: str, text: str) -> list[str]:
    """The card's must_say regexes the page does not match and must_not_say ones it does."""
    if chapter not in card.get("chapters", []):
        return []
    flat = re.sub(r"\s+", " ", text)
    missing = [f"does not say /{r}/" for r in card_lines(card, "must_say", chapter) if not re.search(r, flat, re.I)]
    false = [
        f"says /{r}/: {m.group(0)!r}"
        for r in card_lines(card, "must_not_say", chapter)
        if (m := re.search(r, flat, re.I))
    ]
    return missing + false


@pytest.mark.notebooks
@pytest.mark.parametrize("chapter,path", _cases())
def test_chapter_on_a_real_output(tmp_path, chapter, path):
    # run and rendered as `benchbook report` runs and renders a chapter: in plain Python, its page by
    # `page_html` (the same page as the executed notebook's: test_plain_pages_say_what_the_notebook_says.py)
    with ingest.once():  # each file read once, as `benchbook report` reads it
        prep = rerun.prepare(chapter, {}, [str(path)])
        rerun.keep_outputs_inside(prep, tmp_path)
        nb = report.run_plain(prep, draw=False)  # the text is tested here; the figures by their own tests
    ledger = json.loads(json.dumps(from_notebook(nb)))
    assert check(ledger) == []
    shown = page_html.page(nb, chapter, {}, GLOSSARY)  # every role and directive the page uses is rendered
    text = page_text(nb)
    problems = page_problems(text, _shown_outputs(nb)) + notation_problems(chapter, text) + markup_in_plain_glue(nb)
    problems += repeats(shown)  # each sentence said once (#34), no raw plural
    card = load_card(path)
    if card is not None:
        problems += card_problems(card, chapter, text)
    assert not problems, f"{chapter} on {path.name}: " + "; ".join(problems)


def test_every_real_fixture_has_a_truth_card():
    missing = [str(p.relative_to(config.FIXTURES_DIR)) for p in real_fixtures() if not card_path(p).is_file()]
    assert not missing, f"no truth card beside {missing}"


@pytest.mark.parametrize(
    "path", [card_path(p) for p in real_fixtures() if card_path(p).is_file()], ids=lambda p: p.name
)
def test_truth_card_is_complete(path):
    card = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert CARD_KEYS <= set(card), f"{path.name} lacks {sorted(CARD_KEYS - set(card))}"
    assert RUN_KEYS <= set(card["run"]), f"{path.name} run lacks {sorted(RUN_KEYS - set(card['run']))}"
    assert card["fixture"] == path.name.removesuffix(".truth.yml")
    assert set(card["chapters"]) <= set(TOPICS), card["chapters"]
    for key in ("must_say", "must_not_say"):
        if isinstance(card.get(key), dict):
            assert set(card[key]) <= set(card["chapters"]), f"{path.name} {key} names a chapter it does not list"
    for r in card_lines(card, "must_say") + card_lines(card, "must_not_say"):
        re.compile(r)
    readme = (path.parent / "README.md").read_text(encoding="utf-8")
    assert card["fixture"] in readme or card["fixture"] in str(path.parent), (
        f"{card['fixture']} has no origin in README"
    )


def test_card_check_fails_a_page_that_misses_a_fact_or_states_a_false_one():
    card = {"chapters": ["serving_saturation"], "must_say": [r"1,?000 requests"], "must_not_say": [r"no E2EL"]}
    assert card_problems(card, "serving_saturation", "We read 1,000 requests; E2EL p99 is 3 s.") == []
    assert len(card_problems(card, "serving_saturation", "We read 999 requests. The output has no E2EL line.")) == 2
    assert card_problems(card, "tp_scaling", "anything") == []


def test_a_card_may_give_each_chapter_its_own_lines():
    card = {"chapters": ["serving_saturation", "batch_saturation"], "must_say": {"batch_saturation": [r"0\.13 req/s"]}}
    assert card_problems(card, "batch_saturation", "10 requests at 0.13 req/s") == []
    assert card_problems(card, "serving_saturation", "0.134 req/s") == []  # the line is the batch page's only
    assert len(card_problems(card, "batch_saturation", "0.134 req/s")) == 1


def test_page_rule_catches_nan_warning_and_raw_html():
    assert page_problems("TTFT rises 3 %.", "") == []
    assert page_problems("TTFT is nan ms.", "")
    assert page_problems("TTFT is <span>3</span> ms.", "")
    assert page_problems("ok", "UserWarning: something")


def test_page_rule_tells_a_python_warning_from_the_chapters_own_warning_wording():
    assert page_problems("**Warning: the bandwidth is not a result.** 169% of the peak is beyond physics.", "") == []
    assert page_problems("ok", "serving.py:498: UserWarning: Data has no positive values")


def test_a_serving_page_may_not_print_a_count_in_scientific_notation():
    said = "Run `Offline`: 41.1 req/s x 1.51e+03 s mean latency = 6.21e+04 requests in flight on average."
    assert len(notation_problems("serving_saturation", said)) == 2
    assert notation_problems("serving_saturation", "41.1 req/s x 1,511 s = 62,093 requests; `1e+06` quoted") == []
    assert notation_problems("tp_scaling", said) == []


def test_plain_glue_check_finds_markdown_a_reader_would_see_as_typed():
    def nb(how: str, value: str) -> dict:
        out = {
            "output_type": "display_data",
            "metadata": {"scrapbook": {"name": "note"}},
            "data": {"text/plain": value},
        }
        return {
            "cells": [
                {"cell_type": "code", "source": "", "outputs": [out]},
                {"cell_type": "markdown", "source": f"Runs: {{glue:{how}}}`note`"},
            ]
        }

    assert markup_in_plain_glue(nb("text", "'taken as `--request-rate inf`'"))
    assert markup_in_plain_glue(nb("md", "'taken as `--request-rate inf`'")) == []
    assert markup_in_plain_glue(nb("text", "'1,000 requests in 12.5 s'")) == []
