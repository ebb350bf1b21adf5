"""A batch page's offline run without a known precision says "the output names none" only where its file
shows no sign of a precision (`analysis.serving.fact_said` over `context.states`, issue #35 item 2); a line
that speaks of one (`--dtype auto`, `quantized to 4 bits`) is named instead."""

from __future__ import annotations

import pytest

from benchbook import chapter
from benchbook.presentation import batch as show
from benchbook.topics import batch_saturation

FIX = "tests/fixtures/vllm-bench-offline/atlas_300i_duo_310p_qwen3_throughput_repeats_tp4_tp1_and_serve.md"


@pytest.fixture(scope="module")
def unknown():
    """A real offline run (fp16 by its file), its precision blanked: a run whose precision is not known."""
    res = batch_saturation.analyse(chapter.setup("batch_saturation", {"source": FIX}))
    return res.offline.iloc[[0]].assign(precision=None), res.peaks


def _text(unknown, said: dict) -> str:
    pts, peaks = unknown
    return show.offline_sentence(pts, peaks, (), {pts["source"].iat[0]: said})


def test_a_line_that_speaks_of_a_precision_is_named(unknown):
    said = {"precision_status": "unread", "precision_line": 4, "precision_text": "--dtype auto"}
    text = _text(unknown, said)
    assert "precision not stated (line 4 speaks of one, `--dtype auto`, without a precision this page can read" in text
    assert "the output names none" not in text


def test_no_sign_of_a_precision_says_the_output_names_none(unknown):
    assert "precision not stated (the output names none, and none is assumed)" in _text(
        unknown, {"precision_status": "absent"}
    )


def test_a_precision_the_file_gives_but_the_run_does_not_take_is_named_as_such(unknown):
    said = {"precision_status": "stated", "precision_line": 1, "precision_text": "# Llama 3.1 8B FP8 on H100"}
    text = _text(unknown, said)
    assert "line 1 gives `# Llama 3.1 8B FP8 on H100`, which this page does not take as the weights' precision" in text
