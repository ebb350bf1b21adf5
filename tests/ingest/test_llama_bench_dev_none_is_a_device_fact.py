"""A row whose `dev` column is `none` states its device (none: no layer offloaded) in the list of what
the file states, beside any GPU the build's log lists; a named device list adds no such fact."""

import pandas as pd

from benchbook.ingest import llama_bench


def _facts(extra: str) -> list[tuple]:
    table = pd.DataFrame([{"line": 12, "extra_settings": extra, "ngl": -1, "threads": None}])
    return [f for f in llama_bench.table_facts(table) if f[0] == "device"]


def test_dev_none_is_stated_as_the_rows_device():
    assert _facts("dev=none, lm=none") == [("device", "dev none", 12, "dev: none")]


def test_a_named_device_list_is_no_device_fact_here():
    assert _facts("dev=CUDA0/CUDA1") == [] and _facts("nodev=none") == []
