"""The perf_per_watt chapter's prose is true of any input: a heading such as `### 600W` names a limit,
not the tool that set it, so `nvidia-smi -pl` is named only as one way of setting it."""

from __future__ import annotations

import re

from benchbook import config


def _claims_of_every_input(prose: str) -> list[str]:
    """The sentences that name `nvidia-smi -pl` as how the limits were set, not as one tool among others."""
    sentences = re.split(r"(?<=\.)\s+", " ".join(prose.split()))
    return [s for s in sentences if "nvidia-smi -pl" in s and "or another tool" not in s]


def _prose(md: str) -> str:
    """The chapter's Markdown with its code cells left out."""
    return re.sub(r"```\{code-cell\}.*?```", "", md, flags=re.S)


def test_the_chapter_names_nvidia_smi_only_as_one_way_to_set_a_limit():
    md = (config.NOTEBOOKS_DIR / "perf_per_watt.md").read_text()
    prose = _prose(md)
    assert "nvidia-smi -pl" in prose and _claims_of_every_input(prose) == []
    # the other way: the sentence as it once stood, true only of the seed, is caught
    old = "the power-cap data is llama.cpp's `llama-bench` run under\n`nvidia-smi -pl` limits."
    assert _claims_of_every_input(old)
