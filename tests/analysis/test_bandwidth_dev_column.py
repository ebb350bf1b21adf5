"""llama-bench prints a `dev` column when `--device` is given: each row's devices, `/`-separated
(`ROCm0/ROCm1`). A row naming several ran on several, whatever the split mode (a real sweep over one,
two and four MI50s with `-sm tensor` was said to hold 'one model on one device only'); a row naming
one ran on one, even where the build lists more and the split is the default layer split."""

from __future__ import annotations

import pandas as pd
from test_llama_bench_analysis import _rows

from benchbook.analysis import bandwidth
from benchbook.presentation import bandwidth as show


def _every(dev: str, **over) -> pd.DataFrame:
    rows = _rows(extra_settings=f"sm=tensor, dev={dev}" if dev else None, **over)
    return bandwidth.generation_rows(pd.DataFrame(rows))


def test_a_row_naming_four_devices_is_not_on_one_device():
    every = _every("ROCm0/ROCm1/ROCm2/ROCm3")
    assert bandwidth.one_device(every) is False and bandwidth.several_named(every)
    assert bandwidth.gpus_spanned(every.iloc[0]) == 4


def test_a_row_naming_one_device_is_on_one_even_where_the_build_lists_four():
    rows = _rows(extra_settings="dev=ROCm0", gpus_listed=4)
    every = bandwidth.generation_rows(pd.DataFrame(rows))
    assert bandwidth.one_device(every) is True and not bandwidth.several_named(every)
    assert bandwidth.gpus_spanned(every.iloc[0]) == 1


def test_the_coverage_note_names_the_dev_column_where_rows_name_several():
    said = show.coverage_note(1, 1, one_device=False, named_several=True)
    assert "name several devices in their `dev` column" in said and "on one device only" not in said
    plain = show.coverage_note(1, 1, one_device=False, named_several=False)
    assert "split the model by layer or by row" in plain
