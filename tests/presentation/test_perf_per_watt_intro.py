"""The perf_per_watt chapter's intro prose is true of any input: how a limit was set (`nvidia-smi -pl`)
is said of the book's data only, since another input's headings name a limit, not the tool that set it."""

from __future__ import annotations

import re

from benchbook import config


def _claims_of_every_input(prose: str) -> list[str]:
    """The intro's sentences that name `nvidia-smi -pl` without tying it to the book's data."""
    sentences = re.split(r"(?<=\.)\s+", " ".join(prose.split()))
    return [s for s in sentences if "nvidia-smi -pl" in s and "book's data" not in s]


def _intro(md: str) -> str:
    """The prose between the bottom-line box and the Prerequisites line."""
    return md.split(":::\n", 1)[1].split("**Prerequisites:**", 1)[0]


def test_the_intro_says_how_limits_were_set_only_of_the_books_data():
    md = (config.NOTEBOOKS_DIR / "perf_per_watt.md").read_text()
    intro = _intro(md)
    assert "nvidia-smi -pl" in intro and _claims_of_every_input(intro) == []
    # the other way: the sentence as it stood, true only of the seed, is caught
    old = "the power-cap data is llama.cpp's `llama-bench` run under\n`nvidia-smi -pl` limits."
    assert _claims_of_every_input(old)
