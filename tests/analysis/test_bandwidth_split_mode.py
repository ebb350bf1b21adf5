"""A sentence about devices follows llama-bench's split mode: `-sm none` keeps the model on one GPU,
`-sm layer` (the default, printed as no `sm` column) and `-sm row` spread it over every GPU the build
sees; a CPU or Metal backend is one device whatever the mode."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import bandwidth
from benchbook.presentation import bandwidth as show


def _rows(*settings, backend="CUDA") -> pd.DataFrame:
    return pd.DataFrame({"extra_settings": list(settings), "backend": [backend] * len(settings)})


def test_a_row_split_by_layer_or_row_or_by_default_may_span_several_gpus():
    assert bandwidth.one_device(_rows("sm=none, embd=1", "sm=none"))
    assert not bandwidth.one_device(_rows("sm=none, embd=1", "sm=layer, embd=1"))
    assert not bandwidth.one_device(_rows("sm=row"))
    assert not bandwidth.one_device(_rows("embd=1"))  # no sm column: llama-bench's default, layer
    assert bandwidth.one_device(_rows("embd=1", backend="CPU"))
    assert bandwidth.one_device(_rows("", backend="Metal,BLAS"))


def test_the_one_model_note_says_one_device_only_where_every_row_ran_on_one():
    assert "one model on one device only" in show.coverage_note(1, one_device=True)
    spread = show.coverage_note(1, one_device=False)
    assert "one model only" in spread and "one device only" not in spread and "-sm" in spread


def test_a_build_whose_own_listing_names_one_gpu_ran_on_one_device_whatever_the_split_mode():
    one = _rows("embd=1").assign(gpus_listed=pd.array([1], dtype="Int64"))
    two = _rows("embd=1").assign(gpus_listed=pd.array([2], dtype="Int64"))
    unknown = _rows("embd=1").assign(gpus_listed=pd.array([None], dtype="Int64"))
    assert bandwidth.one_device(one)
    assert not bandwidth.one_device(two)
    assert not bandwidth.one_device(unknown)  # a name from a heading counts nothing
