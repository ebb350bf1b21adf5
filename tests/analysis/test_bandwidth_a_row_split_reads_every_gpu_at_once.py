"""A llama-bench row split over several GPUs (`-sm row`) cuts every matrix across them, so they stream and
compute at once: its share is of all of them, never of one (stop 48, issue #35 class 3: `8x RTX 3090` above
an `-sm row` table was set against one RTX 3090's peak). A layer split reads them in turn (`in_turn`): one
GPU's bandwidth stays its roof."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook import ingest
from benchbook.analysis import bandwidth, prefill

TABLE = (
    "| model | size | params | backend | ngl | sm | test | t/s |\n| --- | ---: | ---: | --- | --: | --: | ---: | ---: |\n"
    "| llama 8B Q4_0 | 4.33 GiB | 8.03 B | CUDA | 99 | {sm} | pp512 | 9000.00 ± 5.75 |\n"
    "| llama 8B Q4_0 | 4.33 GiB | 8.03 B | CUDA | 99 | {sm} | tg128 | 150.52 ± 0.01 |\n"
)


def _read(tmp_path, title: str, sm: str) -> pd.DataFrame:
    path = tmp_path / "t.md"
    path.write_text(f"# Split mode tests ({title})\n\n" + TABLE.format(sm=sm), encoding="utf-8")
    return ingest.read(path, tool="llama-bench")


def _decode(df: pd.DataFrame, **kw) -> pd.Series:
    kept, _ = bandwidth.reduce(bandwidth.generation_rows(df))
    return bandwidth.points(kept, **kw).iloc[0]


@pytest.mark.parametrize("title", ["8x RTX 3090", "8x3090", "8 x 3090"])
def test_a_row_split_over_the_stated_gpus_is_set_against_all_of_them(tmp_path, title):
    df = _read(tmp_path, title, "row")
    p = _decode(df)
    assert (p["device"], p["peak_gb_s"]) == ("RTX-3090 (8 GPUs)", pytest.approx(8 * 936))
    assert p["fraction_of_peak"] == pytest.approx(150.52 * 4.33 * 1.073741824 / (8 * 936))
    pp = prefill.points(prefill.prompt_rows(df)).iloc[0]
    assert pp["device"] == "RTX-3090 (8 GPUs)" and pp["share"] == pytest.approx(2 * 8.03e3 * 9 / 1e3 / (8 * 71.0))


def test_the_other_way_one_gpu_a_layer_split_or_the_readers_own_peak(tmp_path):
    # a count of one: one device's peak
    assert _decode(_read(tmp_path, "1x RTX 3090", "row"))["peak_gb_s"] == pytest.approx(936)
    # a layer split reads the eight in turn: one GPU's bandwidth is the roof (`in_turn`)
    p = _decode(_read(tmp_path, "8x RTX 3090", "layer"))
    assert (p["device"], p["peak_gb_s"], p["in_turn"]) == ("RTX-3090", pytest.approx(936), 8)
    # the reader's own peak is the run's, however many GPUs it used
    p = _decode(_read(tmp_path, "8x RTX 3090", "row"), peak_bandwidth_gb_s=1000.0)
    assert p["peak_gb_s"] == pytest.approx(1000.0)
    # a multiplier before a word states no device, so no share at all
    assert pd.isna(_decode(_read(tmp_path, "2x faster on row split", "row"))["fraction_of_peak"])


def test_a_row_split_over_gpus_the_input_does_not_count_gets_no_share(tmp_path):
    from benchbook.claims import bandwidth as claims

    df = _read(tmp_path, "RTX 3090", "row")  # the device named, how many of it not said
    p = _decode(df)
    assert p["device"] == "RTX-3090" and pd.isna(p["fraction_of_peak"]) and pd.isna(p["compute_fraction"])
    c = claims.fraction(p, "bw_1")
    assert c.status == "withheld" and "ties no count of those GPUs" in c.reason
    assert claims.bound(p, "bound_1", 0.5).status == "withheld"
    pp = prefill.points(prefill.prompt_rows(df)).iloc[0]
    assert pd.isna(pp["share"]) and pp["no_share"] == "gpus_unstated"
    # the other way: a layer split reads its GPUs in turn, so one GPU's peak bounds it whatever their count
    assert _decode(_read(tmp_path, "RTX 3090", "layer"))["fraction_of_peak"] == pytest.approx(
        150.52 * 4.33 * 1.073741824 / 936
    )
    # and a device the reader names is their statement of what ran
    p = _decode(df, gpu="RTX-3090")
    assert pd.notna(p["fraction_of_peak"]) and claims.fraction(p, "bw_1").status == "shown"
