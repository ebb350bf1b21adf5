"""A build is one identifier (a commit, a number, a version; llama.cpp prints `build: <commit> (<number>)`):
a log line an author put after `# build:` names none."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


@pytest.mark.parametrize(
    ("line", "build"),
    [
        ("build: 87e767e5c (9644)", "87e767e5c (9644)"),
        ("build_commit: 3f1ae2e", "3f1ae2e"),
        ("# build: ggml_cuda_init: found 4 ROCm devices (Total VRAM: 131008 MiB):", None),
        ("build: see the release notes for this one", None),
    ],
)
def test_a_build_is_one_identifier_never_a_sentence(line, build):
    c = context.read([line])
    assert [f.value for f in c.get("build")] == ([build] if build else [])
