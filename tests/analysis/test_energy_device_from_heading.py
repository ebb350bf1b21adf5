"""A power line's energy rows take the device the rest of the file states where the parser found
none, as `ingest.read` fills llama-bench's `gpu` (a heading above the table naming the card), so
the chapter never says the files name no device beside a list that names it; a file naming none
leaves it empty."""

from __future__ import annotations

from benchbook.analysis import energy

TABLE = """| model                          |       size |     params | backend    | ngl |            test |                  t/s |
| ------------------------------ | ---------: | ---------: | ---------- | --: | --------------: | -------------------: |
| llama 1B Q4_K - Medium         | 636.18 MiB |     1.10 B | Vulkan     |  99 |           pp512 |       6748.92 ± 5.34 |
| llama 1B Q4_K - Medium         | 636.18 MiB |     1.10 B | Vulkan     |  99 |           tg128 |        126.05 ± 0.28 |

Power consumption: 280.4W
"""


def _devices(tmp_path, text: str) -> set:
    f = tmp_path / "run.md"
    f.write_text(text, encoding="utf-8")
    _, measured = energy.read([str(f)])
    assert len(measured)
    return set(measured["device"].dropna())


def test_the_card_a_heading_names_is_the_energy_rows_device(tmp_path):
    assert _devices(tmp_path, "# Benchmark AMD Radeon AI Pro R9700 32GB\n\n" + TABLE) == {
        "AMD Radeon AI Pro R9700 32GB"
    }


def test_a_file_that_names_no_device_leaves_it_empty(tmp_path):
    assert _devices(tmp_path, "# Benchmark results\n\n" + TABLE) == set()
