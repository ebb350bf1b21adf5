"""Thin notebooks, thick package (issue #34, item 2): a chapter's code cells are calls into
`benchbook`, at most MAX_CODE_LINES lines beyond its parameters cell and imports, with no logic of
their own (no function, class, loop or branch), so that every chapter's logic is tested without a
notebook."""

from __future__ import annotations

import re

import pytest

from benchbook import config

MAX_CODE_LINES = 20
LOGIC = re.compile(r"^\s*(def|class|for|while|if|elif|else|try|except|with)\b")


def code_lines(text: str) -> list[str]:
    """The code lines of a MyST notebook's cells other than its parameters cell, without blank
    lines, comments and imports."""
    lines, inside, parameters = [], False, False
    for line in text.splitlines():
        if line.startswith("```{code-cell}"):
            inside, parameters = True, False
        elif inside and line.startswith(":tags:"):
            parameters = "parameters" in line
        elif inside and line == "```":
            inside = False
        elif inside and not parameters and line.strip() and not line.lstrip().startswith("#"):
            if not re.match(r"\s*(from \S+ )?import ", line):
                lines.append(line)
    return lines


@pytest.mark.parametrize("path", sorted(config.NOTEBOOKS_DIR.glob("*.md")), ids=lambda p: p.stem)
def test_a_chapter_is_calls_only(path):
    lines = code_lines(path.read_text(encoding="utf-8"))
    assert len(lines) <= MAX_CODE_LINES, f"{path.name}: {len(lines)} lines of code"
    logic = [line for line in lines if LOGIC.match(line)]
    assert not logic, f"{path.name} has logic of its own: {logic[:3]}"


def test_the_count_leaves_out_parameters_imports_and_comments_only():
    text = "```{code-cell} ipython3\n:tags: [parameters]\n\nx = 1\n```\n\n```{code-cell} ipython3\nimport a\n# c\nif x:\n    f()\n```\n"
    assert code_lines(text) == ["if x:", "    f()"]
