"""The inputs sentence names the series the knee and growth sentences are about, from their evidence:
a series of runs at one load has no knee, so the one they speak of need not be the first listed (a
trtllm-bench report whose first series, DeepSeek-R1, has its two runs at one cap)."""

from __future__ import annotations

from benchbook import config
from benchbook.analysis import serving
from benchbook.presentation import serving as show

B200 = config.FIXTURES_DIR / "trtllm-bench/b200_vultr_poc_dgxc_trtllm_bench_dsr1_tp4ep4_llama33_blocks_excerpt.md"
SUMMARIZATION = "Llama3.3-70B (tp=1; ep=1), dataset summarization"


def _sentence(spoken=()):
    r = serving.load([B200])[0]
    return " ".join(show.inputs_sentence(B200.name, r, "max_concurrency", 0, spoken=spoken).split())


def test_the_series_the_knee_and_growth_speak_of_is_named():
    text = _sentence([SUMMARIZATION, SUMMARIZATION, None])
    assert "DeepSeek-R1 (tp=4; ep=4), dataset reasoning (2 runs)," in text  # listed first
    assert f"the knee and growth sentences below are about {SUMMARIZATION}." in text
    assert "about the first" not in text


def test_two_series_spoken_of_are_both_named_and_none_leaves_the_first():
    text = _sentence([SUMMARIZATION, "Llama3.3-70B (tp=1; ep=1), dataset chat"])
    assert f"the knee sentence below is about {SUMMARIZATION}, the growth sentence about" in text
    assert "the knee and growth sentences below are about the first." in _sentence()
