"""Before compare-llama-bench.py (2023), two builds were compared by joining their llama-bench prints by
hand: the one `t/s` column becomes two labelled with the build (`t/s (Master)` / `t/s (PR)`, or
`master t/s` / `PR t/s`), each cell llama-bench's `mean ± sd`, with a ratio column (`Speedup`, `spedup`).
Each labelled column is that build's run; the printed ratio is the second mean over the first, checked
and kept as a note. The script's own table (means without ±) stays the compare parser's."""

from __future__ import annotations

from benchbook import ingest

JOINED = """On 30-core M2 Max:

| model                        | backend  | test     |    t/s (Master)|     t/s (PR)   |   Speedup|
|------------------------------|----------|----------|---------------:|---------------:|---------:|
| LLaMA 7B mostly Q4_0         | Metal    | tg 128   |    61.22 ± 0.13| 61.71 ± 0.05   |   1.008  |
| LLaMA 7B mostly Q4_0         | Metal    | pp 512   |   327.79 ± 0.18| 433.35 ± 0.17  |   1.322  |
"""


def _read(tmp_path, text):
    f = tmp_path / "bench.md"
    f.write_text(text)
    return ingest.read_parsed(f, tool="llama-bench")[0]


def test_each_labelled_rate_column_is_a_build(tmp_path):
    p = _read(tmp_path, JOINED)
    means = p.table[p.table["statistic"] == "mean"]
    got = {(r.build, r.test): r.value for r in means.itertuples()}
    assert got == {
        ("Master", "tg128"): 61.22,
        ("PR", "tg128"): 61.71,
        ("Master", "pp512"): 327.79,
        ("PR", "pp512"): 433.35,
    }
    assert len(p.table[p.table["statistic"] == "std"]) == 4
    notes = means[means["build"] == "PR"]["note"].tolist()
    assert notes[0].startswith("Speedup over Master as printed: 1.008") and not p.rejected.size


def test_a_ratio_the_rates_do_not_give_is_said(tmp_path):
    p = _read(tmp_path, JOINED.replace("1.322", "1.500"))
    assert any("Speedup 1.500 is not PR / Master (1.322)" in m for m in p.messages)


def test_the_scripts_table_without_spread_stays_the_compare_parsers(tmp_path):
    script = """| Model         | GPU                     | Test   |   t/s master |   t/s cuda-mmqf-10 |   Speedup |
|---------------|-------------------------|--------|--------------|--------------------|-----------|
| llama 7B Q4_0 | NVIDIA GeForce RTX 3090 | pp512  |      3890.69 |            2236.42 |      0.57 |
"""
    t = _read(tmp_path, script).table
    assert set(t["averaged_by"]) == {"compare-llama-bench.py"} and set(t["build"]) == {"master", "cuda-mmqf-10"}
