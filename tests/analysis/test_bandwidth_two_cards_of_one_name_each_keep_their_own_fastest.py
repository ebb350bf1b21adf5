"""Two cards of one name in one write-up each keep their own fastest (stop 60, cj, class 1/5): a script that runs
each RX 7900 XTX alone under `### GPU 0 ONLY` and `### GPU 1 ONLY` (each printing itself as Vulkan device 0) gives
two cards' results. `reduce` ranks settings within a device key that now holds the heading's device index where
one printed device's rows sit under headings naming different indices, so GPU 0's 150.97 tok/s is its card's own
point, not "another engine, build or configuration: GPU 0 ONLY" beside GPU 1's. Headings that name no index (two
settings of one card) keep one device: the slower is still set aside."""

from __future__ import annotations

import pandas as pd

from benchbook import ingest
from benchbook.analysis import bandwidth

HEADER = (
    "| model                          |       size |     params | backend    | ngl |            test |                  t/s |\n"
    "| ------------------------------ | ---------: | ---------: | ---------- | --: | --------------: | -------------------: |\n"
)
DEVICE = "ggml_vulkan: 0 = AMD Radeon RX 7900 XTX (RADV NAVI31) (radv) | uma: 0 | fp16: 1 | warp size: 64\n"


def _bench(tg: float) -> str:
    row = f"| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | Vulkan     | 100 |           tg128 |  {tg:12.2f} ± 0.05 |\n"
    return "ggml_vulkan: Found 1 Vulkan devices:\n" + DEVICE + HEADER + row + "\nbuild: 34ce48d97 (7356)\n"


def _reduced(tmp_path, first: str, second: str) -> pd.DataFrame:
    p = tmp_path / "runs.md"
    p.write_text(f"### {first} ###\n{_bench(150.97)}\n### {second} ###\n{_bench(172.86)}")
    kept, every = bandwidth.reduce(bandwidth.generation_rows(ingest.read(p)))
    return kept, every


def test_headings_naming_two_device_indices_place_each_cards_own_fastest(tmp_path):
    kept, every = _reduced(tmp_path, "GPU 0 ONLY (pciBus 6 - bottom slot, display)", "GPU 1 ONLY (pciBus 15)")
    assert sorted(kept["rate"].round(2)) == [150.97, 172.86]
    assert every["why_dropped"].eq("").all()
    keys = bandwidth.device_keys(every)
    assert keys.nunique() == 2 and keys.str.endswith(("|#0", "|#1")).all()


def test_headings_naming_no_device_index_keep_one_device(tmp_path):
    kept, every = _reduced(tmp_path, "f16 cache", "q8_0 cache")
    assert kept["rate"].round(2).tolist() == [172.86]
    assert bandwidth.device_keys(every).nunique() == 1
