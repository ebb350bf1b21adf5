"""Where a series ran out: a copy that ends inside the tool's output (sglang PR 11322's JSONL, cut inside
its batch-8 line though the command asks for batches 1 to 128) has a result at every batch size it
holds, not at every one the tool ran; a whole output still says every batch size it ran."""

from __future__ import annotations

import pandas as pd

from benchbook.presentation import batch as show


def _limits() -> pd.DataFrame:
    return pd.DataFrame(
        [
            dict(
                model="m",
                framework="sglang",
                gpu="",
                dtype="",
                variant="",
                last_ok=4,
                first_missing=None,
                status="no limit",
                named_gpu="",
                sizes=3,
            )
        ]
    )


def test_a_cut_copy_has_a_result_at_every_batch_size_it_holds():
    text = show.limits_sentence(_limits(), cut=True)
    assert "every batch size this copy holds, up to 4" in text and "every batch size it ran" not in text
    assert "the batch sizes it ran after that are not in the file" in text


def test_the_other_way_a_whole_output_has_one_at_every_batch_size_it_ran():
    text = show.limits_sentence(_limits(), cut=False)
    assert "every batch size it ran, up to 4" in text and "copy" not in text
