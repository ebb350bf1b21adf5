"""The energy table carries each configuration's measured energy and its duration: a long file's
sentences stop after the first few configurations ("The table above lists all configurations"), so the
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
