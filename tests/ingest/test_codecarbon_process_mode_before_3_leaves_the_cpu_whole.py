"""CodeCarbon's `tracking_mode` "process" isolates the process's share of the CPU only from 3.0, where the
CPU's load mode estimates it from the process's CPU time (codecarbon/external/hardware.py,
`CPU._get_power_from_cpu_load`). Before 3.0 the CPU class has no tracking mode (at v2.8.0: RAPL's or
Power Gadget's package power, else TDP x 0.5) and the mode isolates the process's RAM alone, so a 2.x row's
CPU figure is the whole CPU's; a row without a `codecarbon_version` column comes from before 2.2."""

from __future__ import annotations

from benchbook import config, ingest

FIX = config.FIXTURES_DIR / "codecarbon"
MX350 = FIX / "train_test_mx350_i5_1135g7_windows_process_mode_gpu_power_zero_eight_runs_emissions.csv"
V328 = FIX / "per_query_selection_2x_nvidia_a2_xeon4314_process_mode_v328_cpu_power_531w_experiment_ids_emissions.csv"
RTX3060 = FIX / "green_hackathon_rtx3060_i9_10900_windows_v231_one_run_emissions.csv"


def _cpu_scopes(path) -> set[str]:
    t = ingest.read_parsed(path)[0].table
    return {s for s in t["scope"].dropna() if s.startswith("cpu")}


def test_a_row_without_a_version_in_process_mode_keeps_the_machines_cpu_scope():
    # cpu_power 14.0 W in all eight rows: half the i5-1135G7's 28 W TDP, CodeCarbon's constant model
    assert "process" in MX350.read_text()
    assert _cpu_scopes(MX350) == {"cpu-codecarbon-off-linux"}


def test_a_3x_row_in_process_mode_is_the_processs_share():
    assert _cpu_scopes(V328) == {"cpu-codecarbon-process"}


def test_the_version_decides(tmp_path):
    text = RTX3060.read_text().replace(",machine,N,1.0", ",process,N,1.0")
    f = tmp_path / "emissions.csv"
    f.write_text(text)
    assert _cpu_scopes(f) == {"cpu-codecarbon-off-linux"}  # 2.3.1: the CPU whole
    f.write_text(text.replace(",3.9.12,2.3.1,", ",3.9.12,3.0.0,"))
    assert _cpu_scopes(f) == {"cpu-codecarbon-process"}
