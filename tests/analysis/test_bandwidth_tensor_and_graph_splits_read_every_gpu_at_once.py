"""llama.cpp's `-sm tensor` (docs/multi-gpu.md: tensor parallelism, the weights and the KV cache split over
the GPUs; `row` its older path) and ik_llama.cpp's `-sm graph` (its tensor parallelism, pull request 1018)
cut every layer across the GPUs, which read and compute at once: like a row split, a run's share is of
all the GPUs it spans. A layer split reads them in turn, and `none` keeps one GPU."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook import ingest
from benchbook.analysis import bandwidth

TABLE = (
    "| model | size | params | backend | ngl | sm | test | t/s |\n| --- | ---: | ---: | --- | --: | --: | ---: | ---: |\n"
    "| llama 8B Q4_0 | 4.33 GiB | 8.03 B | CUDA | 99 | {sm} | tg128 | 150.52 ± 0.01 |\n"
)


def _point(tmp_path, sm: str, title: str = "4x RTX 3090") -> pd.Series:
    path = tmp_path / "t.md"
    path.write_text(f"# Split modes on {title}\n\n" + TABLE.format(sm=sm), encoding="utf-8")
    kept, _ = bandwidth.reduce(bandwidth.generation_rows(ingest.read(path, tool="llama-bench")))
    return bandwidth.points(kept).iloc[0]


@pytest.mark.parametrize("sm", ["tensor", "graph", "row"])
def test_a_split_of_every_layer_is_set_against_all_its_gpus(tmp_path, sm):
    p = _point(tmp_path, sm)
    assert (p["device"], p["peak_gb_s"]) == ("RTX-3090 (4 GPUs)", pytest.approx(4 * 936))


def test_the_other_way_a_layer_split_reads_them_in_turn_and_none_keeps_one(tmp_path):
    p = _point(tmp_path, "layer")
    assert (p["device"], p["peak_gb_s"], p["in_turn"]) == ("RTX-3090", pytest.approx(936), 4)
    p = _point(tmp_path, "none")
    assert (p["device"], p["peak_gb_s"]) == ("RTX-3090", pytest.approx(936))


@pytest.mark.parametrize("sm", ["tensor", "graph"])
def test_a_tensor_or_graph_split_over_gpus_nothing_counts_gets_no_share(tmp_path, sm):
    p = _point(tmp_path, sm, "RTX 3090")
    assert p["device"] == "RTX-3090" and pd.isna(p["fraction_of_peak"])
    assert pd.notna(_point(tmp_path, "layer", "RTX 3090")["fraction_of_peak"])
