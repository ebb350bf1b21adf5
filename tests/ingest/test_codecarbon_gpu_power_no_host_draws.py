"""CodeCarbon's GPU power is the energy counter's delta over the interval, summed over the host's GPUs: a
power more than the tracked GPUs could draw (their count, else the most one host holds, at the highest
board power of data/hardware.csv) means the counter readings are wrong, so the power and the energy read
from them are set aside with the reason, in the console log and in emissions.csv alike."""

from __future__ import annotations

from benchbook import config, ingest
from benchbook.ingest import codecarbon

FIX = config.FIXTURES_DIR / "codecarbon"
UNREAD = config.PROJ_ROOT / "benchmarks" / "first_read" / "unread" / "codecarbon"
PR1072 = UNREAD / "codecarbon_pr1072_adastra_mi250_amdsmi_total_gpu_power_12572969w_excerpt.md"


def _console(gpu_w: str, meta: str = "") -> str:
    t = "[codecarbon INFO @ 17:04:13]"
    return (
        meta
        + f"{t} Energy consumed for RAM : 0.001 kWh. RAM Power : 3.0 W\n"
        + f"{t} Energy consumed for all GPUs : 4.254300 kWh. Total GPU Power : {gpu_w} W\n"
        + f"{t} 4.3 kWh of electricity used since the beginning.\n"
    )


def _gpu_reasons(p) -> list[str]:
    return p.rejected[p.rejected["text"].str.startswith("gpu")]["reason"].tolist()


def test_a_power_no_host_draws_sets_aside_the_gpu_power_and_energy():
    p = codecarbon.parse(_console("12572969.923258875"), "c.log")
    assert p.table.empty  # nothing else in it is measured: the RAM is the model's, the sum holds it
    assert len(_gpu_reasons(p)) == 2 and all("more than 16 GPUs" in r for r in _gpu_reasons(p))


def test_a_power_the_host_can_draw_is_kept():
    p = codecarbon.parse(_console("2216.5"), "c.log")  # two kilowatts: several GPUs' worth, no artifact
    assert sorted(p.table["metric"]) == ["energy", "power_reading"]


def test_a_stated_gpu_count_bounds_the_power():
    meta = "[codecarbon INFO @ 17:04:00]   GPU count: 1\n[codecarbon INFO @ 17:04:00]   GPU model: 1 x NVIDIA H100\n"
    over = 2 * codecarbon._largest_gpu_power_w()  # two GPUs' worth from the one the metadata names
    p = codecarbon.parse(_console(f"{over}", meta), "c.log")
    assert p.table.empty and all("more than 1 GPU of" in r for r in _gpu_reasons(p))
    assert len(codecarbon.parse(_console(f"{over}"), "c.log").table) == 2  # count not stated: 16 bound it


def test_the_csv_row_of_an_impossible_power_keeps_its_cpu_and_sets_aside_its_gpu():
    header = "timestamp,project_name,run_id,duration,emissions,cpu_power,gpu_power,ram_power,cpu_energy,gpu_energy,ram_energy,energy_consumed,tracking_mode,gpu_count,gpu_model,os"
    row = "2026-02-18T17:04:13,p,r,60,0.1,40.0,12572969.9,3.0,0.0006,4.2543,0.00005,4.255,machine,8,8 x AMD Instinct MI250X,Linux-5"
    p = codecarbon.parse(f"{header}\n{row}\n", "e.csv")
    assert set(p.table.dropna(subset=["scope"])["scope"]) == {"cpu-codecarbon"}
    gpu = p.rejected[p.rejected["text"].str.startswith("gpu_")]
    assert len(gpu) == 2 and gpu["reason"].str.contains("more than 8 GPUs").all()


def test_the_amdsmi_console_of_pr1072_keeps_nothing_and_names_its_line():
    (p,) = ingest.read_parsed(PR1072)
    assert p.table.empty and set(p.rejected["line"]) == {22}
    assert all("12,572,970 W" in r for r in p.rejected["reason"])
