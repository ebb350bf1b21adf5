"""CodeCarbon writes one emissions.csv row per `stop()`, each with its own run_id, and a timestamp of
one-second resolution: rows stopped in the same second are separate runs (a real file of Ollama
runs had 40 rows in 34 distinct seconds), told apart by their run_id; a file whose timestamps are
all distinct keeps them as the runs' names."""

from __future__ import annotations

from benchbook import config, ingest
from benchbook.ingest import codecarbon

HEADER = (
    "timestamp,project_name,run_id,experiment_id,duration,emissions,emissions_rate,cpu_power,gpu_power,"
    "ram_power,cpu_energy,gpu_energy,ram_energy,energy_consumed,os,codecarbon_version,gpu_count,gpu_model,"
    "tracking_mode\n"
)


def _row(stamp: str, run_id: str, gpu_kwh: float) -> str:
    return (
        f"{stamp},bench_q,{run_id},exp,10.0,0.001,0.0001,20.0,200.0,10.0,0.0001,{gpu_kwh},0.00003,0.001,"
        "Linux-6.8,3.0.2,1,1 x NVIDIA GeForce RTX 4090,machine\n"
    )


def _runs(tmp_path, body: str) -> dict:
    f = tmp_path / "emissions.csv"
    f.write_text(HEADER + body)
    t = ingest.read(f)
    gpu = t[(t["metric"] == "energy") & (t["scope"] == "gpu")]
    return dict(zip(gpu["run"], gpu["value"], strict=True))


def test_two_rows_stopped_in_one_second_are_two_runs_named_by_their_run_id(tmp_path):
    runs = _runs(
        tmp_path,
        _row("2025-07-11T00:23:40", "b076cbcc-2a65", 0.0005)
        + _row("2025-07-11T00:23:40", "3bfcc5dc-9ca9", 0.0006)
        + _row("2025-07-11T00:23:43", "40056183-3ef3", 0.0007),
    )
    assert set(runs) == {
        "2025-07-11T00:23:40 (run b076cbcc)",
        "2025-07-11T00:23:40 (run 3bfcc5dc)",
        "2025-07-11T00:23:43",
    }
    assert runs["2025-07-11T00:23:40 (run 3bfcc5dc)"] == 0.0006 * 3.6e6


def test_rows_of_distinct_seconds_keep_the_timestamp_as_the_run(tmp_path):
    runs = _runs(tmp_path, _row("2025-07-11T00:23:40", "a", 0.0005) + _row("2025-07-11T00:23:41", "b", 0.0006))
    assert set(runs) == {"2025-07-11T00:23:40", "2025-07-11T00:23:41"}


def test_the_real_file_of_forty_rows_has_forty_runs():
    t = ingest.read(
        config.FIXTURES_DIR / "codecarbon" / "lmpower_rtx4090_7800x3d_ollama_deepseek_r1_8b_v302_emissions_head40.csv"
    )
    assert t["run"].nunique() == 40


def test_the_csv_names_its_codecarbon_version_and_rows_tracked_in_two_modes_are_said(tmp_path):
    """Every row's `codecarbon_version` (3.0.2) names the file's version; rows tracked in `machine` and
    `process` mode cover different CPU figures, which the reading says; one mode says nothing."""
    f = tmp_path / "emissions.csv"
    one = _row("2025-07-11T00:23:40", "b076cbcc-2a65", 0.0005)
    f.write_text(HEADER + one + _row("2025-07-11T00:23:43", "40056183-3ef3", 0.0007))
    p = codecarbon.parse(f.read_text(), "emissions.csv")
    assert p.version == "CodeCarbon 3.0.2" and p.messages == []
    f.write_text(HEADER + one + _row("2025-07-11T00:23:43", "40056183-3ef3", 0.0007).replace(",machine", ",process"))
    assert codecarbon.parse(f.read_text(), "emissions.csv").messages == [
        "emissions.csv: rows tracked in different modes (machine, process): their CPU figures cover different things"
    ]
