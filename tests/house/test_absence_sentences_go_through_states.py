"""Every sentence a wording file has that says the input does not state, name, record or print something
is classified in `absence_sentences.yml` (issue #35 item 2): one said of the file's content ("states")
sits in a template branch whose condition reads a value a function decided with `context.states`
(the one absence rule: stated / unread naming the line / absent), and this test checks both; any other
kind says why it is no claim about the file's content (the tool's format, the book's tables, the
tool's definition, the page itself) or, as "left", what it rests on instead. A new absence sentence
fails here until it is classified, so none slips past the rule unseen."""

from __future__ import annotations

import importlib
import inspect
import re
from functools import cache
from pathlib import Path

import pytest
import yaml

from benchbook import config

ROOT = config.PROJ_ROOT
REGISTRY = Path(__file__).with_name("absence_sentences.yml")
#: The kinds of absence sentence; only "states" claims an absence in the file's content by itself.
KINDS = {"states", "format", "table", "tool", "parsed", "page", "left"}
#: The words of an absence: the input (output, file, format) does not state / name / record / print /
#: say / give / report, names / prints / records / gives / reports / states no, not named / printed /
#: recorded, unnamed, a fact "not stated", "no TP stated".
ABSENCE = re.compile(
    r"\b(?:does|do)\s+not\s+(?:state|name|record|print|say|give|report)\b"
    r"|\b(?:names|prints|records|gives|reports|states)\s+no\b"
    r"|\bnot\s+(?:named|printed|recorded)\b|\bunnamed\b"
    r"|\b(?:precision|tp|device|model|gpu|date|scope|power)\s+not\s+stated\b"
    r"|\bno\s+(?:tp|device|model|gpu|concurrency cap|power limit)\s+(?:is\s+)?stated\b",
    re.I,
)
#: A Jinja statement (`{% if unnamed %}`): its words are the template's logic, not the page's.
TAG = re.compile(r"{%.*?%}", re.S)
#: A Jinja expression with no words of its own (`{{ unnamed }}`; `{{ s.model or "the model ..." }}` has some).
VALUE = re.compile(r"{{[^'\"}]*}}")


def wording_files() -> list[Path]:
    """The files that hold a page's sentences: the chapters' claims files and every YAML or text file of
    wording under book/ and the package."""
    found = [*ROOT.glob("notebooks/*.yml"), *ROOT.glob("book/*.yml")]
    found += [*(ROOT / "src" / "benchbook").rglob("*.yml"), *(ROOT / "src" / "benchbook").rglob("*.txt")]
    return sorted(set(found))


def _leaves(obj, path=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(v, (*path, str(k)))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _leaves(v, (*path, str(i)))
    elif isinstance(obj, str):
        yield ".".join(path), obj


def _flat(text: str) -> str:
    """A template as this test reads it: runs of white space as one space."""
    return " ".join(text.split())


@cache
def leaves() -> dict[tuple[str, str], str]:
    """(file, key path) -> the template text of each wording leaf."""
    out = {}
    for path in wording_files():
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        data = yaml.safe_load(text) if path.suffix == ".yml" else {"text": text}
        for key, leaf in _leaves(data):
            out[(rel, key)] = _flat(leaf)
    return out


def found(leaf: str) -> list[tuple[int, int]]:
    """The spans of the absence words in a template's text outside its Jinja statements."""
    blank = VALUE.sub(lambda m: " " * len(m.group(0)), TAG.sub(lambda m: " " * len(m.group(0)), leaf))
    return [m.span() for m in ABSENCE.finditer(blank)]


def registry() -> list[dict]:
    return yaml.safe_load(REGISTRY.read_text(encoding="utf-8"))["sentences"]


def _spans(leaf: str, phrase: str) -> list[tuple[int, int]]:
    return [(m.start(), m.start() + len(phrase)) for m in re.finditer(re.escape(phrase), leaf)]


def test_every_absence_sentence_of_a_wording_file_is_classified():
    texts, entries, missing = leaves(), registry(), []
    for (file, key), leaf in texts.items():
        covered = [s for e in entries if (e["file"], e["key"]) == (file, key) for s in _spans(leaf, _flat(e["phrase"]))]
        for a, b in found(leaf):
            if not any(lo <= a and b <= hi for lo, hi in covered):
                missing.append(f"{file} {key}: ...{leaf[max(0, a - 60) : b + 40]}...")
    assert not missing, "absence sentences not in tests/house/absence_sentences.yml:\n" + "\n".join(missing)


@pytest.mark.parametrize("entry", registry(), ids=lambda e: f"{e['file'].split('/')[-1]}:{e['key']}:{e['phrase'][:30]}")
def test_each_classified_sentence_is_still_there_and_says_what_decides_it(entry):
    leaf = leaves().get((entry["file"], entry["key"]))
    assert leaf is not None, f"no leaf {entry['key']} in {entry['file']}"
    assert _flat(entry["phrase"]) in leaf, f"{entry['phrase']!r} is no longer in {entry['file']} {entry['key']}"
    assert entry["kind"] in KINDS
    assert entry.get("decided_by") and entry.get("why")


@pytest.mark.parametrize(
    "entry", [e for e in registry() if e["kind"] == "states"], ids=lambda e: f"{e['key']}:{e['phrase'][:30]}"
)
def test_an_absence_of_the_files_content_is_decided_by_the_one_rule(entry):
    """Its deciding function calls `context.states`, and the sentence holding it is said under, or goes on
    through, a template condition that reads the value that function decided (`guard`)."""
    module, _, name = entry["states"].rpartition(".")
    source = inspect.getsource(getattr(importlib.import_module(module), name))
    assert "context.states(" in source, f"{entry['states']} does not call context.states"
    leaf = leaves()[(entry["file"], entry["key"])]
    assert guarded(leaf, _flat(entry["phrase"]), entry["guard"]), (
        f"{entry['phrase']!r} is not under a condition on {entry['guard']}"
    )


def guarded(leaf: str, phrase: str, guard: str) -> bool:
    """Whether a condition (`{% if %}`, `{% elif %}`, or `{{ x or "..." }}`) on `guard` stands before the
    end of the sentence that holds `phrase` in the template `leaf`."""
    at = leaf.index(phrase) + len(phrase)
    stop = re.search(r"\.(?:\s|{|$)", leaf[at:])  # the end of the sentence holding the phrase
    upto = leaf[: at + (stop.start() if stop else len(leaf) - at)]
    guards = [m.group(0) for m in TAG.finditer(upto) if re.match(r"{%-?\s*(?:if|elif)\b", m.group(0))]
    guards += re.findall(r"{{[^}]*\bor\b[^}]*}}", upto)  # `{{ s.model or "..." }}`
    return any(re.search(rf"(?<![\w.]){re.escape(guard)}\b", g) for g in guards)


def test_the_guard_check_tells_a_sentence_said_under_the_rule_from_one_said_without_it():
    under = (
        '{% if said.status == "unread" %}line {{ line }} speaks of one{% else %}the input does not name it{% endif %}.'
    )
    assert guarded(under, "the input does not name it", "said.status")
    bare = "{% if not device %}the input does not name it{% endif %}. {% if said.status %}x{% endif %}"
    assert not guarded(bare, "the input does not name it", "said.status")


def test_the_check_finds_an_unclassified_absence_and_ignores_template_logic():
    assert found("The output does not name the device.") == [(11, 24)]
    assert found("{% if unnamed %}Runs of {{ unnamed }}{% endif %}") == []
    assert found('{{ s.model or "the model the output does not name" }}') == [(36, 49)]
    assert found("The roofline does not count the framework's overhead.") == []
