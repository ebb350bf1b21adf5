"""A copied GitHub thread's own title names the engine its runs are built from (stop 60, cj, class 1): the
archive's heading `### 🔀 [#494](https://github.com/ikawrakow/ik_llama.cpp/pull/494) - ...` links the pull request
it copies, so the thread is ik_llama.cpp's (a fork of llama.cpp with its own kernels and `llama-sweep-bench`), and
the engine fact says so. A link to something else (an attachment, a repository of no engine, a file) names none."""

from __future__ import annotations

import pytest

from benchbook import ingest

TABLE = """
|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |
|-------|--------|--------|----------|----------|----------|----------|
|  2048 |    512 |      0 |    0.347 |  5909.51 |    2.466 |   207.66 |
"""


def _engines(title: str) -> list[tuple[str, int]]:
    ctx = ingest.context_of_text(title + "\n" + TABLE)
    return [(f.value, f.line) for f in ctx.get("engine")]


@pytest.mark.parametrize(
    "link, engine",
    [
        ("https://github.com/ikawrakow/ik_llama.cpp/pull/494", "ik_llama.cpp"),
        ("https://github.com/ikawrakow/ik_llama.cpp/issues/521", "ik_llama.cpp"),
        ("https://github.com/ggml-org/llama.cpp/discussions/4167", "llama.cpp"),
    ],
)
def test_a_threads_title_linking_an_engines_repository_names_that_engine(link, engine):
    assert _engines(f"### 🔀 [#494]({link}) - IQ1_M_R4 CUDA implementation") == [(engine, 1)]


@pytest.mark.parametrize(
    "title",
    [
        "### 🔀 [#12](https://github.com/someone/dotfiles/pull/12) - tidy",  # a repository of no engine
        "### Results ![img](https://github.com/user-attachments/assets/abc)",  # an attachment, no thread
        "### See [the kernel](https://github.com/ikawrakow/ik_llama.cpp/blob/main/ggml/src/iqk/iqk_mul_mat.cpp)",
    ],
)
def test_a_heading_linking_no_engines_thread_names_none(title):
    assert _engines(title) == []
