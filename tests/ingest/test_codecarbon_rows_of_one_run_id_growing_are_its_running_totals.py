"""`EmissionsTracker.flush()` writes the tracker's totals since `start()` to emissions.csv under the run's
run_id and keeps running ("write the emissions to disk ... but keep running the experiment"); appended
(the default `on_csv_write`), each flush is a row, and `stop()` writes the last. Rows that share a run_id
and whose duration grows and energies never fall from one row to the next are therefore one run's running
totals: the run is its last row, the earlier rows set aside. Rows of a shared run_id that do fall are
not running totals and stay rows of their own; rows of distinct run_ids stay separate runs."""

from __future__ import annotations

from benchbook import config, ingest

HEADER = (
    "timestamp,project_name,run_id,duration,emissions,emissions_rate,cpu_power,gpu_power,ram_power,"
    "cpu_energy,gpu_energy,ram_energy,energy_consumed,os,codecarbon_version,cpu_model,gpu_count,gpu_model,"
    "tracking_mode\n"
)


def _row(stamp: str, run_id: str, seconds: float, cpu_kwh: float) -> str:
    return (
        f"{stamp},Test,{run_id},{seconds},0.0001,0.00001,42.5,0.0,6.0,{cpu_kwh},0,{cpu_kwh / 7},{cpu_kwh * 8 / 7},"
        "macOS-14.1.1-arm64-arm-64bit,2.3.2,Apple M2 Pro,,,machine\n"
    )


def _cpu(tmp_path, body: str):
    f = tmp_path / "emissions.csv"
    f.write_text(HEADER + body)
    t = ingest.read(f)
    return t[(t["metric"] == "energy") & t["scope"].astype(str).str.startswith("cpu")]


def test_rows_of_one_run_id_that_grow_are_one_run_read_at_its_last_row(tmp_path):
    cpu = _cpu(
        tmp_path,
        _row("2023-12-12T21:27:50", "fce6a978-d2be", 10.0, 0.000118)
        + _row("2023-12-12T21:28:00", "fce6a978-d2be", 20.0, 0.000236)
        + _row("2023-12-12T21:28:10", "fce6a978-d2be", 30.0, 0.000354),
    )
    assert list(cpu["run"]) == ["2023-12-12T21:28:10"]
    assert cpu["value"].iloc[0] == 0.000354 * 3.6e6


def test_rows_of_one_run_id_whose_duration_falls_are_not_running_totals(tmp_path):
    cpu = _cpu(
        tmp_path,
        _row("2023-12-12T21:27:50", "fce6a978-d2be", 30.0, 0.000354)
        + _row("2023-12-12T21:28:00", "fce6a978-d2be", 10.0, 0.000118),
    )
    assert len(cpu) == 2


def test_rows_of_distinct_run_ids_stay_separate_runs(tmp_path):
    cpu = _cpu(
        tmp_path,
        _row("2023-12-12T21:27:50", "aaaa1111", 10.0, 0.000118)
        + _row("2023-12-12T21:28:00", "bbbb2222", 20.0, 0.000236),
    )
    assert len(cpu) == 2


def test_the_real_file_of_199_flushes_is_one_run_of_1992_s():
    t = ingest.read(
        config.FIXTURES_DIR
        / "codecarbon"
        / "auto_scalers_energy_m2_pro_v232_one_run_id_cumulative_rows_every_10s_emissions.csv"
    )
    assert t["run"].nunique() == 1
    duration = t[t["metric"] == "duration"]["value"]
    assert len(duration) == 1 and round(duration.iloc[0]) == 1992


def test_rows_of_one_run_id_of_the_same_duration_are_not_flushes(tmp_path):
    cpu = _cpu(
        tmp_path,
        _row("2023-12-12T21:27:50", "fce6a978-d2be", 10.0, 0.000118)
        + _row("2023-12-12T21:28:00", "fce6a978-d2be", 10.0, 0.000236),
    )
    assert len(cpu) == 2
