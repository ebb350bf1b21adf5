"""A prompt rate whose model has no size: where a line of the file speaks of a model the page could not read
(a heading `Qwen3-235B-A22B drafted by Qwen3-0.6B`, a title's `70B model`: `context.states` "unread"), the
withheld share names that line; only where nothing in the file speaks of one does the page say the output prints
none."""

from __future__ import annotations

import pandas as pd

from benchbook.claims import bandwidth as claims
from benchbook.presentation import wording

POINT = {"label": "the model on line 40", "test": "pp1642", "rate": 43.59, "line": 40, "source": "t.md"}
POINT.update(tflops=float("nan"), share=float("nan"), architecture="dense", peak_source="unknown")
UNREAD = {"model_status": "unread", "model_line": 4, "model_text": "### 'Qwen3-235B-A22B' drafted by 'Qwen3-0.6B'"}


def _text(said) -> str:
    claim = claims.prefill_claims(pd.DataFrame([POINT]), {"t.md": said} if said else None)[0]
    assert claim.status == "withheld"
    return wording.word("bandwidth_roofline", claim).text


def test_a_model_named_on_a_line_the_rows_were_not_tied_to_is_named_by_that_line():
    text = _text(UNREAD)
    assert "not read: line 4 speaks of the model, but this page reads no size from it" in text
    assert "the output prints none" not in text


def test_a_file_that_names_no_model_keeps_the_absence():
    for said in (None, {"model_status": "absent"}):
        assert "the output prints none and the model table has no row for it" in _text(said)
