"""No sentence the package writes prints a raw plural such as 'file(s)' (#34: "No raw (s)"): a
count takes its noun through `nouns.counted`, a list of names through `nouns.named`."""

from __future__ import annotations

import re
import tokenize

from benchbook import config
from benchbook.nouns import counted, named

RAW_PLURAL = re.compile(r"[A-Za-z]\(s\)")
#: A tool's own header where "(s)" is the unit seconds, matched as printed.
TOOL_TEXT = {'"|model|runs|latency(s)|output"', '"build_time(s)"'}  # benchmark.py's key


def raw_plurals() -> list[str]:
    found = []
    for path in sorted((config.PROJ_ROOT / "src" / "benchbook").rglob("*.py")):
        with path.open("rb") as fh:
            for tok in tokenize.tokenize(fh.readline):
                text = tok.string
                if tok.type != tokenize.STRING or text.lstrip("rbuRBUfF").startswith(('"""', "'''")):
                    continue  # docstrings may say "parameters cell(s)" to a developer
                words = re.sub(r"\{[^{}]*\}", "", text)  # an f-string's fields are code: `len(s)`
                if RAW_PLURAL.search(words) and text not in TOOL_TEXT:
                    found.append(f"{path.name}:{tok.start[0]}: {text[:80]}")
    return found


def test_no_string_the_package_writes_has_a_raw_plural():
    assert raw_plurals() == []


def test_a_count_takes_its_noun_in_the_right_number():
    assert counted(1, "file") == "1 file"
    assert counted(0, "file") == "0 files"
    assert counted(12345, "sample") == "12,345 samples"
    assert counted(2.5, "request") == "2.5 requests"
    assert counted(2, "query", "queries") == "2 queries"
    assert named("key", ["a"]) == "key a" and named("key", ["a", "b"]) == "keys a, b"
