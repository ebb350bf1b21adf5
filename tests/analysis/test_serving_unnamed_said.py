"""What the input says of a model for runs that name none beside runs that name theirs (the absence rule
with the named runs' models set aside, `serving.unnamed_said`): a model named elsewhere, one named in
words, or the unread line; nothing only where the file has none of these."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from benchbook import config
from benchbook.analysis import serving

RUNS = pd.DataFrame({"model": ["org/a-8b", np.nan]})


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("vllm serve org/a-8b\nvllm serve org/b-70b\n", [["org/b-70b", 2, "named"]]),
        ("vllm serve org/a-8b\n\n## Gemma 3 27b\n", [["Gemma 3 27b", 3, "words"]]),
        ("vllm serve org/a-8b\nthe second model is a secret\n", [["the second model is a secret", 2, "sign"]]),
        ("vllm serve org/a-8b\nresults below\n", []),
    ],
)
def test_a_run_with_no_model_beside_named_ones_gets_what_the_file_says(tmp_path, text, said):
    f = tmp_path / "bench.md"
    f.write_text(text, encoding="utf-8")
    assert serving.unnamed_said([f], RUNS) == said


def test_every_run_named_or_none_named_is_not_its_case(tmp_path):
    f = tmp_path / "bench.md"
    f.write_text("vllm serve org/b-70b\n", encoding="utf-8")
    assert serving.unnamed_said([f], RUNS.dropna()) == []
    assert serving.unnamed_said([f], RUNS.iloc[1:]) == []


def test_a_write_up_naming_two_blocks_models_only_in_headings_names_them():
    f = config.FIXTURES_DIR / "vllm-bench-serve" / "mi100x4_tp4_five_models_caps_in_bullets.md"
    r, _ = serving.load([f])
    # named by the headings: facts, since the command's `--model <model>` placeholder no longer demotes them
    said = {m: how for m, _, how in serving.unnamed_said([f], r)}
    assert said.get("Gemma 3 27b") in ("named", "words") and said.get("Phi 4") in ("named", "words")
