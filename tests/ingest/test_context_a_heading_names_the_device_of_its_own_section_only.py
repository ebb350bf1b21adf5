"""A write-up that runs one benchmark on several machines puts each table under a heading naming its device
(ik_llama.cpp pull request 566: `### RTX-4080`, `### Ryzen-7950X (Zen4)`, `### Ryzen-5975WX`, `### M2-Max CPU`).
Each heading names the device of its own section only: the rows under `### Ryzen-7950X` ran on that CPU, not on
the RTX-4080 the first heading names (the page said "Every row: mode gpu; device RTX-4080"), and a table under a
heading naming a machine the reader does not know is tied to none. A single heading naming a device over a
write-up still names the device of every table in it."""

from __future__ import annotations

from benchbook import ingest

HEADER = "|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |\n" + "|" + "---|" * 7 + "\n"


def _table(pp_rate: float, tg_rate: float) -> str:
    rows = ""
    for depth in (0, 512):
        t_pp, t_tg = 512 / pp_rate, 128 / tg_rate
        rows += f"|   512 |    128 | {depth:6d} | {t_pp:8.3f} | {512 / round(t_pp, 3):8.2f} | {t_tg:8.3f} | {128 / round(t_tg, 3):8.2f} |\n"
    return HEADER + rows


def _devices(tmp_path, text: str) -> list[tuple]:
    p = tmp_path / "sweeps.md"
    p.write_text(text)
    df = ingest.read(p)
    cols = [c for c in ("gpu", "cpu") if c in df.columns]
    return [
        tuple(None if v != v else v for v in t) for t in df.groupby("table_line")[cols].first().itertuples(index=False)
    ]


def test_each_heading_names_the_device_of_its_own_table(tmp_path):
    text = (
        "Here a few sweep-benches for LlaMA-3.1-8B-Instruct\n\n"
        f"### RTX-4080\n\n{_table(7900, 144)}\n"
        f"### Ryzen-7950X (Zen4)\n\n{_table(360, 16.8)}\n"
        f"### Ryzen-5975WX\n\n{_table(300, 18.5)}\n"
        f"### M2-Max CPU\n\n{_table(164, 23.7)}\n"
    )
    got = _devices(tmp_path, text)
    assert got[0][0] == "RTX-4080" and got[0][1] is None
    assert got[1] == (None, "Ryzen-7950X") and got[2] == (None, "Ryzen-5975WX")
    assert got[3] == (None, None)  # a machine the reader does not name: no other heading's device


def test_one_heading_naming_a_device_still_names_every_tables_device(tmp_path):
    text = (
        f"## Benchmarks on an RTX-4080\n\n### f16 cache\n\n{_table(7900, 144)}\n### q8_0 cache\n\n{_table(7800, 140)}\n"
    )
    got = _devices(tmp_path, text)
    assert [g[0] for g in got] == ["RTX-4080", "RTX-4080"]
