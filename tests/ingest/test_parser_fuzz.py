"""Every parser on damaged copies of its real fixtures: truncated, bytes flipped, lines shuffled, or
re-encoded. The only failure allowed is ParseError (one sentence naming the file); anything parsed
accounts for every number it read as kept or rejected (`only_parse_error`)."""

from __future__ import annotations

import pytest
from conftest import FUZZ_EXAMPLES, only_parse_error
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchbook import config, ingest

TOOLS = ingest.tools()
#: At most this many fixture files per tool (the smallest), to keep the suite's time bounded.
PER_TOOL = 4


def texts(tool: str) -> list[str]:
    """The tool's fixture files (its folder under tests/fixtures has the tool's name), smallest first."""
    files = [
        p
        for p in (config.FIXTURES_DIR / tool).rglob("*")
        if p.is_file() and p.name != "README.md" and not p.name.endswith(".truth.yml")
    ]
    files = sorted(files, key=lambda p: (p.stat().st_size, p.name))[:PER_TOOL]
    return [p.read_bytes().decode("utf-8") for p in files]


CORPUS = {name: texts(name) for name in TOOLS}
FUZZ = settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_every_tool_has_fixtures_to_fuzz():
    assert {name for name, t in CORPUS.items() if not t} == set()


@pytest.mark.parametrize("tool", sorted(TOOLS))
@FUZZ
@given(data=st.data())
def test_truncated(tool, data):
    text = data.draw(st.sampled_from(CORPUS[tool]))
    only_parse_error(TOOLS[tool].parse, text[: data.draw(st.integers(0, len(text)))])


@pytest.mark.parametrize("tool", sorted(TOOLS))
@FUZZ
@given(data=st.data())
def test_bytes_flipped(tool, data):
    b = bytearray(data.draw(st.sampled_from(CORPUS[tool])).encode())
    for pos, byte in data.draw(st.lists(st.tuples(st.integers(0, 10**7), st.integers(0, 255)), min_size=1, max_size=8)):
        b[pos % len(b)] = byte
    only_parse_error(TOOLS[tool].parse, b.decode("utf-8", errors="replace"))


@pytest.mark.parametrize("tool", sorted(TOOLS))
@FUZZ
@given(data=st.data())
def test_lines_shuffled(tool, data):
    lines = data.draw(st.sampled_from(CORPUS[tool])).splitlines()[:200]
    only_parse_error(TOOLS[tool].parse, "\n".join(data.draw(st.permutations(lines))))


@pytest.mark.parametrize("tool", sorted(TOOLS))
@FUZZ
@given(data=st.data())
def test_reencoded(tool, data):
    """A file saved by another editor: CRLF line ends, a byte-order mark, or Latin-1 read as UTF-8."""
    text = data.draw(st.sampled_from(CORPUS[tool]))
    how = data.draw(st.sampled_from(["crlf", "bom", "latin1"]))
    if how == "crlf":
        text = text.replace("\n", "\r\n")
    elif how == "bom":
        text = "\ufeff" + text
    else:
        text = text.encode("utf-8").decode("latin-1")
    only_parse_error(TOOLS[tool].parse, text)
