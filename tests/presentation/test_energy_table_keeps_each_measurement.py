"""The energy table carries each configuration's measured energy and its duration: a long file's
sentences stop after the first few configurations ("The table below lists all configurations"), so the
table is where the others' measurements are stated; a column the file gives no number for is not drawn."""

from __future__ import annotations

from benchbook import config
from benchbook.analysis import energy
from benchbook.presentation import energy as show

FIX = config.PROJ_ROOT / "tests" / "fixtures"


def _display(path):
    _, rows = energy.read([path])
    return show.energy_display(energy.runs(rows))


def test_every_configuration_of_a_long_file_keeps_its_energy_and_duration():
    t = _display(FIX / "codecarbon" / "fedhenet_rtx3080ti_i7_11700k_galicia_v305_fourteen_runs_emissions.csv")
    gpu = t[(t["configuration"] == "2025-09-26T13:20:05") & (t["scope"] == "GPU only")].iloc[0]
    assert round(gpu["energy (J)"]) == 25096 and round(gpu["duration (s)"], 1) == 127.4
    assert t["energy (J)"].notna().all()


def test_a_column_no_row_has_is_not_drawn():
    t = _display(FIX / "codecarbon" / "fedhenet_rtx3080ti_i7_11700k_galicia_v305_fourteen_runs_emissions.csv")
    assert "J / output token" not in t


def _floored(path):
    from types import SimpleNamespace

    from benchbook.claims import energy as claims_energy

    _, rows = energy.read([path])
    table = energy.runs(rows)
    led = SimpleNamespace(claims=claims_energy.build(table, 2.0))
    return show.energy_display(table, show.floors(led))


def test_the_table_states_every_floor_the_sentences_stop_listing():
    # 187 runs, 106 of them on B200 with a floor: the page lists 12 floor sentences, the table the rest
    t = _floored(FIX / "ml-energy" / "tasks_gpqa.json")
    col = "weights-read floor (J / output token)"
    assert t[col].notna().sum() == 106 and t["measured / floor"].notna().sum() == 106
    last = t[t["configuration"].str.startswith("openai/gpt-oss-20b on 1x B200, max_num_seqs 4096")].iloc[0]
    assert last[col] > 0 and round(last["measured / floor"] * last[col], 4) == round(last["J / output token"], 4)


def test_no_floor_column_where_no_floor_is_formed():
    # H100 alone names no row of the hardware table: every floor is withheld, so the table draws none
    t = _floored(FIX / "ml-energy" / "nvidia__NVIDIA-Nemotron-Nano-12B-v2-VL-BF16__image-chat.json")
    assert "weights-read floor (J / output token)" not in t and "measured / floor" not in t
